"""trafilatura's extract() in four settings; comments are never article text, so always excluded."""

from __future__ import annotations

import trafilatura

from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import join_lines


def run_trafilatura(
    html: str, url: str | None, *, fast: bool = False, favor_precision: bool = False, favor_recall: bool = False,
    include_tables: bool = True, deduplicate: bool = False, target_language: str | None = None,
    prune_xpath: str | None = None,
) -> Extracted:
    """trafilatura.extract as plain text; no result gives empty text. The keyword arguments are extract()'s
    that a variant may set (prune_xpath: one XPath expression of elements to remove first). trafilatura 2
    refuses its own `max_tree_size` argument (it moved to settings.cfg), so it is not offered."""
    text = trafilatura.extract(
        html, url=url, include_comments=False, fast=fast, favor_precision=favor_precision,
        favor_recall=favor_recall, include_tables=include_tables, deduplicate=deduplicate,
        target_language=target_language, prune_xpath=prune_xpath,
    )
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
