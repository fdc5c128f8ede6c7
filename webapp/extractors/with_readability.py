"""readability-lxml: Document(html).summary(), then its visible text, one block per line."""

from __future__ import annotations

from readability import Document

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import BLOCKS_VERSION


def run_readability(html: str, url: str | None) -> Extracted:
    """The visible text of readability's article summary."""
    summary = Document(html, url=url).summary()
    return Extracted(text=block_text(parse_html(summary)), metadata={})


READABILITY = Extractor(
    name="readability",
    version=f"{package_version('readability-lxml')}, {BLOCKS_VERSION}",
    func=run_readability,
    options={},
    description="readability-lxml, a Python port of Arc90's Readability",
)
