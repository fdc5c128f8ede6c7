"""htmldate: the page's publication date alone, as two candidates, its fast search (markup and patterns) and its
extensive one (every date in the page, disambiguated), each run as htmldate's own evaluation runs it
(`find_date(html, original_date=True, extensive_search=...)`, the page alone: no URL unless a variant asks).
They give no text: they are scored on `published` only, never on a text metric."""

from __future__ import annotations

from htmldate import find_date

from webapp.extractors.article_fields import article_fields
from webapp.extractors.base import Extracted, Extractor, package_version

ARTICLE_FIELDS = ("published",)


def run_htmldate(html: str, url: str | None, *, extensive: bool = False, use_url: bool = False) -> Extracted:
    """htmldate's original publication date of the page (by day), or None where it finds none; `use_url` gives it
    the page's URL too (a date in the address counts)."""
    found = find_date(html, extensive_search=extensive, original_date=True, url=url if use_url else None) \
        if html.strip() else None
    return Extracted(text="", metadata={}, article_metadata=article_fields(published=found))


VERSION = package_version("htmldate")

HTMLDATE_FAST = Extractor(
    name="htmldate-fast",
    version=VERSION,
    func=run_htmldate,
    options={},
    article_fields=ARTICLE_FIELDS,
    description="htmldate's fast search for the publication date (dates only, no text)",
)
HTMLDATE_EXTENSIVE = Extractor(
    name="htmldate-extensive",
    version=VERSION,
    func=run_htmldate,
    options={"extensive": True},
    article_fields=ARTICLE_FIELDS,
    description="htmldate's extensive search for the publication date (dates only, no text)",
)
