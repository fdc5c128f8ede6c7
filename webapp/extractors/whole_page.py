"""The baseline: every visible word of the page, one block per line."""

from __future__ import annotations

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import BLOCKS_VERSION
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown


def run_whole_page(html: str, url: str | None) -> Extracted:
    """All visible text of the page (the head and scripts left out)."""
    root = parse_html(html)
    return Extracted(text=block_text(root), metadata={}, markdown=html_markdown(root))


WHOLE_PAGE = Extractor(
    name="whole-page",
    version=f"{BLOCKS_VERSION}, {package_version('lxml')}, {MARKDOWN_VERSION}",
    func=run_whole_page,
    options={},
    structure=True,
    description="baseline: all visible text of the page, boilerplate included",
)
