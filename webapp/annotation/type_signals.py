"""The page type a page's own signals suggest, and which signals chose it: what the annotate view preselects on a
first visit, instead of `article` whatever the page says.

The signals: the page's JSON-LD `@type`, its `og:type`, rs-trafilatura's classifier (recorded as a page fact at
import, where it is installed), its URL's path, and the accept guard (every candidate rejected as too short: a
JavaScript shell, most often), and a captured page's rendering in Chromium (its visible text much longer than the
raw response's: a JavaScript shell; corpus/capture_extras.py records both lengths). Each signal votes for a type
with a weight that says how far that signal is to be believed for that type (`WEIGHTS`): `og:type article`, which
many sites set on every page, weighs little, so a product or documentation page's other signals outvote it; a
JSON-LD `Question` (a FAQ block, found on shops and service pages alike) weighs little; the classifier votes with
its confidence. The type with the most weight is suggested when it reaches DECIDES; below it no signal decides,
and the view names the page types' guideline instead of pretending the page is an article. Only types of the
taxonomy in force are suggested. Pure: it reads the page facts recorded at import (corpus/page_facts.py), the URL
and the candidates' verdicts; results/suggestion_figures.py measures it against the team's gold."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..foundation.vocabulary import ARTICLE, Taxonomy

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
NO_SIGNAL = "none"
"""The signal of a suggestion no signal decided (the taxonomy's first type is preselected)."""

WEIGHTS: dict[str, float] = {"jsonld": 3.0, "jsonld-question": 1.0, "og": 2.5, "og-article": 1.0,
                             "classifier": 4.0, "url": 2.0, "guard": 3.0, "rendering": 4.0}
"""How much each signal's vote weighs (the classifier's: times its confidence)."""
DECIDES = 2.0
"""The least weight a type needs to be suggested."""
LEAST_CONFIDENCE = 0.4
"""Below this confidence rs-trafilatura's classifier does not vote."""
QUESTION_TYPES = frozenset({"Question", "QAPage"})


@dataclass(frozen=True)
class Suggestion:
    page_type: str
    signal: str  # which signals chose it, as the annotate view says it ("JSON-LD @type Product"), or NO_SIGNAL


Vote = tuple[str, float, str]  # (page type, weight, the signal as the view says it)


def _jsonld(facts: Mapping[str, Any]) -> Iterable[Vote]:
    for name in facts.get("jsonld_types") or []:
        if name in JSONLD_TYPES:
            weight = WEIGHTS["jsonld-question" if name in QUESTION_TYPES else "jsonld"]
            yield JSONLD_TYPES[name], weight, f"JSON-LD @type {name}"


def _og(facts: Mapping[str, Any]) -> Iterable[Vote]:
    og = (facts.get("og_type") or "").strip().lower()
    if og in OG_TYPES:
        yield OG_TYPES[og], WEIGHTS["og-article" if OG_TYPES[og] == ARTICLE else "og"], f"og:type {og}"


def _classifier(facts: Mapping[str, Any]) -> Iterable[Vote]:
    found = facts.get("rs_trafilatura_type") or {}
    page_type, confidence = found.get("type"), found.get("confidence") or 0.0
    if page_type and confidence >= LEAST_CONFIDENCE:
        yield ("collection" if page_type == "category" else page_type), WEIGHTS["classifier"] * confidence, \
            f"rs-trafilatura classifier ({confidence:.2f})"


def _url(url: str | None) -> Iterable[Vote]:
    path = urlsplit(url).path.lower() if url else ""
    for pattern, page_type in URL_PATTERNS:
        match = pattern.search(path)
        if match:
            yield page_type, WEIGHTS["url"], f"URL path {match.group(0)}"
            return


def _guard(verdicts: Sequence[tuple[bool, str | None]]) -> Iterable[Vote]:
    if verdicts and all(not accepted and reason == TOO_SHORT for accepted, reason in verdicts):
        yield JS_SHELL, WEIGHTS["guard"], "accept guard: every candidate rejected as too short"


RENDERED_FACTOR = 3.0
RENDERED_MORE_CHARS = 200
"""A rendering in Chromium whose visible text is at least this many times the raw response's, and this many
characters more, says the page is a JavaScript shell: its content is written by its scripts."""


def _rendering(facts: Mapping[str, Any]) -> Iterable[Vote]:
    found = facts.get("rendering") or {}
    raw, rendered = found.get("raw_text_chars"), found.get("rendered_text_chars")
    if isinstance(raw, int) and isinstance(rendered, int) and rendered >= RENDERED_FACTOR * raw \
            and rendered >= raw + RENDERED_MORE_CHARS:
        yield JS_SHELL, WEIGHTS["rendering"], (f"rendering in Chromium: {rendered:,} characters of text, "
                                               f"the raw response {raw:,}")


def votes(facts: Mapping[str, Any], url: str | None, taxonomy: Taxonomy,
          verdicts: Sequence[tuple[bool, str | None]] = ()) -> list[Vote]:
    """Every signal's vote for a type of the taxonomy, strongest signal first."""
    found = [*_jsonld(facts), *_og(facts), *_classifier(facts), *_url(url), *_guard(verdicts), *_rendering(facts)]
    return [vote for vote in found if vote[0] in taxonomy.page_types]


def suggest_type(facts: Mapping[str, Any], url: str | None, taxonomy: Taxonomy,
                 verdicts: Sequence[tuple[bool, str | None]] = ()) -> Suggestion:
    """The type whose signals weigh most, if it reaches DECIDES (a tie: the type of the first vote among
    them), named with the signals that voted for it; else the taxonomy's first type, with NO_SIGNAL."""
    cast = votes(facts, url, taxonomy, verdicts)
    weight: dict[str, float] = {}
    for page_type, vote, _signal in cast:
        weight[page_type] = weight.get(page_type, 0.0) + vote
    if not weight or max(weight.values()) < DECIDES:
        return Suggestion(taxonomy.page_types[0], NO_SIGNAL)
    best = max(weight.values())
    chosen = next(page_type for page_type, _vote, _signal in cast if weight[page_type] == best)
    return Suggestion(chosen, ", ".join(signal for page_type, _vote, signal in cast if page_type == chosen))
