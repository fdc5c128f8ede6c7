"""trafilatura's extract() in four settings; comments are never article text, so always excluded."""

from __future__ import annotations

from typing import Any

import trafilatura

from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import join_lines


def run_trafilatura(html: str, url: str | None, **settings: Any) -> Extracted:
    """trafilatura.extract as plain text; no result gives empty text."""
    text = trafilatura.extract(html, url=url, include_comments=False, **settings)
    return Extracted(text=join_lines((text or "").splitlines()), metadata={})


VERSION = package_version("trafilatura")

TRAFILATURA = Extractor(
    name="trafilatura",
    version=VERSION,
    func=run_trafilatura,
    options={},
    description="trafilatura with its default balance of precision and recall",
)
TRAFILATURA_PRECISION = Extractor(
    name="trafilatura-precision",
    version=VERSION,
    func=run_trafilatura,
    options={"favor_precision": True},
    description="trafilatura favouring precision: less boilerplate, may lose text",
)
TRAFILATURA_RECALL = Extractor(
    name="trafilatura-recall",
    version=VERSION,
    func=run_trafilatura,
    options={"favor_recall": True},
    description="trafilatura favouring recall: more text, may keep boilerplate",
)
TRAFILATURA_FAST = Extractor(
    name="trafilatura-fast",
    version=VERSION,
    func=run_trafilatura,
    options={"fast": True},
    description="trafilatura without its fallback extractors (faster)",
)
