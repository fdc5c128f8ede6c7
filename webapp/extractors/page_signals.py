"""`page-signals`: what the page says about itself in its own markup, read without any heuristics: its JSON-LD
(`headline` or `name`, `author`, `datePublished`), its Open Graph and article tags (`og:title`, `og:site_name`,
`article:author`, `article:published_time`), its `<meta>` tags (`author`, `date`, `citation_*`, Dublin Core),
and its `<title>`. Each field takes the first of those sources that has it, in that order; the language is
`<html lang>`. It gives no text: it is scored on the metadata only, never on a text metric."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from lxml import etree

from webapp.corpus.visible_text import parse_html
from webapp.extractors.article_fields import article_fields, names_of
from webapp.extractors.base import Extracted, Extractor

ARTICLE_FIELDS = ("title", "authors", "published", "sitename", "language")
TITLE_META = ("og:title", "twitter:title", "citation_title", "dc.title", "title")
AUTHOR_META = ("article:author", "author", "citation_author", "dc.creator", "byl", "parsely-author", "sailthru.author")
DATE_META = ("article:published_time", "article:published", "datepublished", "citation_publication_date",
             "citation_date", "dc.date.issued", "dc.date", "date", "pubdate", "publishdate", "publish-date",
             "sailthru.date", "parsely-pub-date")
SITE_META = ("og:site_name", "application-name")


def run_page_signals(html: str, url: str | None) -> Extracted:
    """The title, authors, publication date, site name and language the page's own markup states (None for each
    it does not)."""
    root = parse_html(html)
    graph = list(jsonld_objects(root))
    meta = meta_tags(root)
    title_tag = root.findtext(".//title")
    return Extracted(text="", metadata={}, article_metadata=article_fields(
        title=first(jsonld_value(graph, "headline"), jsonld_value(graph, "name"), *(meta.get(k) for k in TITLE_META),
                    title_tag),
        authors=first(jsonld_authors(graph), *(names_of([v for v in meta.get_all(k) if not is_address(v)])
                                               for k in AUTHOR_META)),
        published=first(jsonld_value(graph, "datePublished"), *(meta.get(k) for k in DATE_META)),
        sitename=first(*(meta.get(k) for k in SITE_META)),
        language=root.get("lang") or None,
    ))


class MetaTags(dict):
    """The content of every `<meta name|property|itemprop=... content=...>` under each of its keys, lower-cased,
    in page order."""

    def get_all(self, key: str) -> list[str]:
        return dict.get(self, key, [])

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        found = self.get_all(key)
        return found[0] if found else default


def meta_tags(root: Any) -> MetaTags:
    found = MetaTags()
    for tag in root.iter("meta"):
        content = (tag.get("content") or "").strip()
        keys = {(tag.get(attribute) or "").strip().lower() for attribute in ("property", "name", "itemprop")}
        for key in sorted(keys - {""}) if content else ():
            found.setdefault(key, []).append(content)
    return found


def jsonld_objects(root: Any) -> Iterator[dict[str, Any]]:
    """Every JSON-LD object of the page (those of an `@graph` and of a list too), in document order; a script that
    is not JSON is skipped."""
    def walk(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, list):
            for item in node:
                yield from walk(item)
        elif isinstance(node, dict):
            yield node
            yield from walk(node.get("@graph"))

    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        try:
            yield from walk(json.loads(script.text or "null"))
        except ValueError:
            continue


def is_creative_work(node: dict[str, Any]) -> bool:
    """An object that can have a headline, an author and a date (an Article, a BlogPosting, a WebPage, ...): not
    an Organization, a Person, a WebSite nor a BreadcrumbList."""
    kinds = node.get("@type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return not any(kind in ("Organization", "Person", "WebSite", "BreadcrumbList", "ImageObject", "SearchAction")
                   for kind in kinds)


def jsonld_value(graph: list[dict[str, Any]], key: str) -> str | None:
    for node in graph:
        value = node.get(key)
        if isinstance(value, str) and value.strip() and is_creative_work(node):
            return value
    return None


def jsonld_authors(graph: list[dict[str, Any]]) -> list[str] | None:
    for node in graph:
        if not is_creative_work(node) or "author" not in node:
            continue
        given = node["author"] if isinstance(node["author"], list) else [node["author"]]
        names = names_of([item.get("name") if isinstance(item, dict) else item for item in given
                          if not (isinstance(item, str) and is_address(item))])
        if names:
            return names
    return None


def is_address(value: Any) -> bool:
    """An author given as a link (a profile page), not a name."""
    return isinstance(value, str) and value.strip().startswith(("http://", "https://", "/"))


def first(*values: Any) -> Any:
    """The first value that says something (a non-blank string, a non-empty list); None where none does."""
    for value in values:
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value:
            return value
    return None


PAGE_SIGNALS = Extractor(
    name="page-signals",
    version=f"lxml {etree.__version__}, goldtext-page-signals 1",
    func=run_page_signals,
    options={},
    article_fields=ARTICLE_FIELDS,
    description="the page's own JSON-LD, Open Graph, <meta> and <title> (metadata only, no text)",
)
