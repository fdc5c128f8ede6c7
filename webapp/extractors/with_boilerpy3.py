"""boilerpy3's ArticleExtractor (a port of boilerpipe's)."""

from __future__ import annotations

from boilerpy3.extractors import ArticleExtractor

from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import join_lines


def run_boilerpy3(html: str, url: str | None) -> Extracted:
    """ArticleExtractor().get_content(html), one paragraph per line."""
    content = ArticleExtractor().get_content(html)
    return Extracted(text=join_lines(content.splitlines()), metadata={})


BOILERPY3 = Extractor(
    name="boilerpy3",
    version=package_version("boilerpy3"),
    func=run_boilerpy3,
    options={},
    description="boilerpy3's ArticleExtractor, boilerpipe's shallow-text-feature classifier",
)
