"""readability-lxml: Document(html).summary(), then its visible text, one block per line."""

from __future__ import annotations

from readability import Document

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.article_fields import article_fields
from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import BLOCKS_VERSION
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown


def run_readability(
    html: str, url: str | None, *, min_text_length: int = 25, retry_length: int = 250,
    positive_keywords: str | None = None, negative_keywords: str | None = None,
) -> Extracted:
    """The visible text of readability's article summary; the keywords are comma-separated class/id hints. The
    article's metadata: its title (readability-lxml gives no byline nor date)."""
    document = Document(html, url=url, min_text_length=min_text_length, retry_length=retry_length,
                        positive_keywords=positive_keywords, negative_keywords=negative_keywords)
    root = parse_html(document.summary())
    return Extracted(text=block_text(root), metadata={}, markdown=html_markdown(root),
                     article_metadata=article_fields(title=document.title()))


READABILITY = Extractor(
    name="readability",
    version=f"{package_version('readability-lxml')}, {BLOCKS_VERSION}, {MARKDOWN_VERSION}",
    func=run_readability,
    options={},
    structure=True,
    article_fields=("title",),
    description="readability-lxml, a Python port of Arc90's Readability",
)
