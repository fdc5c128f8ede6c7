"""goose3: Goose.extract(raw_html=...) on the saved HTML. Nothing is fetched: image fetching is off, and the
URL is never passed (goose3 fetches the URL when the HTML is empty)."""

from __future__ import annotations

from webapp.extractors.article_fields import article_fields, none_found
from webapp.extractors.base import Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines


def run_goose(
    html: str, url: str | None, *, target_language: str = "en", use_meta_language: bool = True,
    parser_class: str = "lxml", parse_lists: bool = True, keep_footnotes: bool = True,
) -> Extracted:
    """goose3's cleaned text, one paragraph per line (empty for a blank page); metadata: its title; the article's
    metadata: its title, authors, publication date (as the page writes it, read as a date) and language."""
    from goose3 import Goose

    if not html.strip():
        return Extracted(text="", metadata={"title": ""}, article_metadata=none_found(ARTICLE_FIELDS))

    config = {
        "enable_image_fetching": False, "target_language": target_language,
        "use_meta_language": use_meta_language, "parser_class": parser_class,
        "parse_lists": parse_lists, "keep_footnotes": keep_footnotes,
    }
    with Goose(config) as goose:
        article = goose.extract(raw_html=html)
    return Extracted(text=join_lines(article.cleaned_text.splitlines()), metadata={"title": article.title},
                     article_metadata=article_fields(title=article.title, authors=article.authors,
                                                     published=article.publish_date, language=article.meta_lang))


ARTICLE_FIELDS = ("title", "authors", "published", "language")


VERSION, MISSING = optional_package("goose3")

GOOSE = Extractor(
    name="goose3",
    version=VERSION,
    func=run_goose,
    options={},
    article_fields=ARTICLE_FIELDS,
    description="goose3, a Python port of Goose (stopword-density node scoring)",
    unavailable_reason=MISSING,
)
