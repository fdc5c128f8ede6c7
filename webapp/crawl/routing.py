"""A crawl page's type, read from its facts: the types the gold gives pages with the same facts.

The facts are what a page says about itself and what a crawl can read cheaply: its og:type and its JSON-LD
@types (webapp/corpus/page_facts.py), or "none" when it says neither. `fact_table` counts, for each fact, the
gold types of the gold pages that state it; `page_type` sums the counts of a page's facts and takes the most
common type, or the default type when no fact of the page was ever seen on a gold page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import lxml.html
from lxml import etree

from ..corpus.page_facts import jsonld_types

NO_FACT = "none"
DEFAULT_TYPE = "article"


def fact_keys(og_type: str | None, types: Iterable[str]) -> list[str]:
    """'og:article', 'ld:NewsArticle', ... or ['none'] for a page that states neither."""
    keys = [f"og:{og_type.strip().lower()}"] if og_type and og_type.strip() else []
    keys += [f"ld:{name}" for name in types]
    return keys or [NO_FACT]


def keys_of_facts(facts: Mapping[str, Any]) -> list[str]:
    """The keys of a stored page's facts (Page.facts)."""
    return fact_keys(facts.get("og_type"), facts.get("jsonld_types") or [])


def keys_of_html(html: str) -> list[str]:
    """The keys of a page's HTML, read as page_facts reads them (without its costly metadata)."""
    try:
        tree = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return [NO_FACT]
    og = tree.xpath('//meta[@property="og:type"]/@content')
    return fact_keys(og[0] if og else None, jsonld_types(tree))


def fact_table(pages: Iterable[tuple[Mapping[str, Any], str]]) -> dict[str, dict[str, int]]:
    """fact key -> gold type -> pages, from (page facts, gold type) pairs."""
    table: dict[str, Counter[str]] = {}
    for facts, page_type in pages:
        for key in keys_of_facts(facts):
            table.setdefault(key, Counter())[page_type] += 1
    return {key: dict(sorted(counts.items())) for key, counts in sorted(table.items())}


def page_type(keys: Iterable[str], table: Mapping[str, Mapping[str, int]], default: str = DEFAULT_TYPE) -> str:
    """The most common gold type over the page's facts (ties: the type first in name order), or the default."""
    votes: Counter[str] = Counter()
    for key in keys:
        votes.update(table.get(key, {}))
    if not votes:
        return default
    return min(votes, key=lambda page_type: (-votes[page_type], page_type))


def route_key(by: str | None, fact_table: Mapping[str, Mapping[str, int]], html: str, host: str | None) -> str:
    """A page's key in a route (extractors/compositions.py): by type its type read from its HTML's facts with
    the route's facts table, by site its host ("" without one); "" for a composition that is no route."""
    if by == "type":
        return page_type(keys_of_html(html), fact_table)
    return (host or "") if by == "site" else ""
