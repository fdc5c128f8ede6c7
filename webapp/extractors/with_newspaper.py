"""newspaper4k: Article.parse() on the saved HTML; nothing is fetched (the HTML is given, images and meta
refreshes are not followed). Its Markdown is that of `article.article_html`, the cleaned HTML of the same node
its text is written from (newspaper4k keeps headings, lists, code and quotes there, and unwraps tables)."""

from __future__ import annotations

from webapp.corpus.visible_text import parse_html
from webapp.extractors.article_fields import article_fields
from webapp.extractors.base import Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown


def run_newspaper(html: str, url: str | None, *, language: str | None = None) -> Extracted:
    """The article text newspaper4k parses from the page, one paragraph per line; metadata: its title; the article's
    metadata: its title, authors, publication date, site name and language.
    `language`: a two-letter code; by default the page's own (English where it says none)."""
    from newspaper import Article
    from newspaper.configuration import Configuration

    config = Configuration()
    config.fetch_images = False
    config.follow_meta_refresh = False
    config.language = language
    article = Article(url or "", config=config)
    article.download(input_html=html)
    article.parse()
    content = parse_html(article.article_html) if article.article_html.strip() else None
    return Extracted(text=join_lines(article.text.splitlines()), metadata={"title": article.title},
                     markdown=html_markdown(content) if content is not None else "",
                     article_metadata=article_fields(title=article.title, authors=article.authors,
                                                     published=article.publish_date,
                                                     sitename=article.meta_site_name, language=article.meta_lang))


VERSION, MISSING = optional_package("newspaper4k")

NEWSPAPER = Extractor(
    name="newspaper4k",
    version=VERSION if MISSING else f"{VERSION}, {MARKDOWN_VERSION}",  # its Markdown is html-to-markdown's
    func=run_newspaper,
    options={},
    structure=True,
    article_fields=("title", "authors", "published", "sitename", "language"),
    description="newspaper4k, the maintained fork of newspaper3k (goose-style node scoring)",
    unavailable_reason=MISSING,
)
