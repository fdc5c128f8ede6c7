"""The page type a page's own signals suggest, and which signal chose it: what the annotate view preselects
on a first visit, instead of `article` whatever the page says.

The signals, strongest first: the page's JSON-LD `@type`, its `og:type`, rs-trafilatura's classifier
(recorded as a page fact at import, where it is installed, and trusted from RS_TRAFILATURA_CONFIDENCE),
its URL's path, and the accept
guard (every candidate rejected as too short: a JavaScript shell, most often). Only types
of the taxonomy in force are suggested; with no signal, the page is an article (the default). Pure: it
reads the page facts recorded at import (corpus/page_facts.py), the URL and the candidates' verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..vocabulary import ARTICLE, Taxonomy

JSONLD_TYPES: dict[str, str] = {
    **dict.fromkeys(("Article", "NewsArticle", "BlogPosting", "Report", "ScholarlyArticle", "OpinionNewsArticle",
                     "AnalysisNewsArticle", "ReportageNewsArticle", "LiveBlogPosting"), "article"),
    **dict.fromkeys(("DiscussionForumPosting", "QAPage", "Question", "SocialMediaPosting"), "forum"),
    **dict.fromkeys(("Product", "ProductGroup", "IndividualProduct", "ProductModel", "Book", "Vehicle"), "product"),
    **dict.fromkeys(("CollectionPage", "OfferCatalog", "SearchResultsPage"), "collection"),
    **dict.fromkeys(("TechArticle", "APIReference", "SoftwareSourceCode", "HowTo"), "documentation"),
    **dict.fromkeys(("Service", "ProfessionalService", "FinancialService", "LegalService"), "service"),
}
"""JSON-LD @type -> page type (schema.org's names; generic ones such as WebPage or Organization say nothing)."""

OG_TYPES: dict[str, str] = {"article": "article", "product": "product", "product.item": "product",
                            "og:product": "product", "product.group": "product"}
"""og:type -> page type (`website`, the commonest, says nothing)."""

URL_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"/(forums?|threads?|topics?|discussions?|questions|community)(/|$)"), "forum"),
    (re.compile(r"/(docs?|documentation|reference|manual|api|guides?|tutorial)(/|$)"), "documentation"),
    (re.compile(r"/(products?|dp|item|p)/[^/]+"), "product"),
    (re.compile(r"/(category|categories|collections?|shop|catalog|c)(/|$)"), "collection"),
    (re.compile(r"/(tags?|archives?|page/\d+|blog|news)/?$"), "listing"),
    (re.compile(r"/(services?|solutions|industries)(/|$)"), "service"),
)
"""A URL path's pattern -> page type, tried in order (lower case)."""

JS_SHELL = "js-shell"
TOO_SHORT = "too short"


@dataclass(frozen=True)
class Suggestion:
    page_type: str
    signal: str  # which signal chose it, as the annotate view says it ("JSON-LD @type Product", "default")


def _first_known(found: Iterable[tuple[str, str]], taxonomy: Taxonomy) -> Suggestion | None:
    for page_type, signal in found:
        if page_type in taxonomy.page_types:
            return Suggestion(page_type, signal)
    return None


def _jsonld(facts: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    for name in facts.get("jsonld_types") or []:
        if name in JSONLD_TYPES:
            yield JSONLD_TYPES[name], f"JSON-LD @type {name}"


def _og(facts: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    og = (facts.get("og_type") or "").strip().lower()
    if og in OG_TYPES:
        yield OG_TYPES[og], f"og:type {og}"


RS_TRAFILATURA_CONFIDENCE = 0.8
"""The least confidence of rs-trafilatura's classifier that suggests a type (a bare fragment gets 0.66)."""


def _classifier(facts: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    found = facts.get("rs_trafilatura_type") or {}
    page_type, confidence = found.get("type"), found.get("confidence") or 0.0
    if page_type and confidence >= RS_TRAFILATURA_CONFIDENCE:
        yield ("collection" if page_type == "category" else page_type), f"rs-trafilatura classifier ({confidence:.2f})"


def _url(url: str | None) -> Iterable[tuple[str, str]]:
    path = urlsplit(url).path.lower() if url else ""
    for pattern, page_type in URL_PATTERNS:
        match = pattern.search(path)
        if match:
            yield page_type, f"URL path {match.group(0)}"


def _guard(verdicts: Sequence[tuple[bool, str | None]]) -> Iterable[tuple[str, str]]:
    if verdicts and all(not accepted and reason == TOO_SHORT for accepted, reason in verdicts):
        yield JS_SHELL, "accept guard: every candidate rejected as too short"


def suggest_type(facts: Mapping[str, Any], url: str | None, taxonomy: Taxonomy,
                 verdicts: Sequence[tuple[bool, str | None]] = ()) -> Suggestion:
    """The type the page's signals suggest (`verdicts`: each candidate's (accepted, guard reason)), strongest
    signal first; `article` by default."""
    for found in (_jsonld(facts), _og(facts), _classifier(facts), _url(url), _guard(verdicts)):
        suggestion = _first_known(found, taxonomy)
        if suggestion is not None:
            return suggestion
    return Suggestion(ARTICLE, "default")
