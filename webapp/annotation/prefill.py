"""The best prefill: which candidate's text the gold editor of a page without gold starts from, and why.

Once the page's site has at least `min_pages` gold pages (the LEADERBOARD_MIN_SITE_PAGES setting, the
sites table's "enough to judge"), the prefill is the extractor with the best F1 of METRIC on that
site, over the same pages and with the same figures as the leaderboard's per-site groups (the cached
counts of the ScoreCache; nothing is rescored). Before that, when the best ones have no usable text
on this page, or when the page's site is unknown (it was imported without a URL: the pages of the
"unknown" site share no site, and their best extractor says nothing about this one), it is the
configured default. Either way the lines of the site's repeated boilerplate (boilerplate.py) are left
out.

That is the PREFILL setting's `site-best` mode, the default. `fixed` always prefills from the default
extractor (basis "fixed"); `random` draws the extractor among the candidates with usable text (a text,
no error), per page and annotator, the same draw at every visit while the candidates are the same (a
hash of both, not a random generator), so that two blind annotators of a page usually start from
different extractors and the leaderboard's anchoring split (results/anchoring.py) measures how much the
prefill steered the gold.

The per-site ranking is read from the process's ScoreCache (results/site_ranking.py), kept per epoch of
the score change log by the caller (SharedScores.remembered), so an annotate view pays for it once per
gold save and site. `ranking` and `choose` are pure: the benchmark (benchmarks/bench_annotation_effort.py)
calls them with each page's own counts left out. Nothing here knows Flask.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, NotRequired, TypedDict

from ..scoring import Metric
from ..scoring.leaderboard_maths import Leaderboard

METRIC = "tokens"
"""The metric the best extractor is judged by: the leaderboard's default."""

BEST, DEFAULT, NONE, FIXED, RANDOM = "best", "default", "none", "fixed", "random"
"""The bases of a prefill: how its extractor was chosen (recorded in a revision's provenance)."""

SITE_BEST, FIXED_MODE, RANDOM_MODE = "site-best", "fixed", "random"
MODES = (SITE_BEST, FIXED_MODE, RANDOM_MODE)
ACCEPTED_POOL, ANY_POOL = "accepted", "any"
POOLS = (ACCEPTED_POOL, ANY_POOL)
"""PREFILL_POOL: what PREFILL=random draws among: the candidates with text the accept guard accepted (when
none is, every candidate with text), or every candidate with text."""
"""The values of the PREFILL setting."""

Ranking = list[tuple[str, float]]


@dataclass(frozen=True)
class Prefill:
    """The extractor whose text prefills the editor (None: nothing does) and why, for the annotate view."""

    extractor: str | None
    basis: str  # BEST, DEFAULT, FIXED, RANDOM or NONE
    reason: str
    site: str | None  # None: the page's site is unknown
    pages: int  # the site's gold pages the ranking is over
    min_pages: int
    metric: str = METRIC
    f1: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Facts(TypedDict):
    """The fields of a Prefill that say what it was chosen from, the same whatever the extractor."""

    site: str | None
    pages: int
    min_pages: int
    metric: NotRequired[str]


def ranking(metric: Metric, table: Mapping[str, Sequence[Mapping[str, Any]]]) -> Ranking:
    """(extractor, F1) of the extractors whose F1 is defined over these aligned pages (each extractor's
    per-page counts in the same page order), best first, ties by name (pure)."""
    pages = len(next(iter(table.values()), ()))
    if not pages:
        return []
    board = Leaderboard(metric, table, list(range(pages)), bootstrap=0)
    found = [(name, s.f1) for name, s in board.summaries().items() if s.f1 is not None]
    return sorted(found, key=lambda pair: (-pair[1], pair[0]))


def choose(ranked: Ranking, pages: int, site: str | None, min_pages: int, default: str,
           usable: Collection[str], metric: str = METRIC) -> Prefill:
    """The prefill of a page of `site` whose usable candidates (a text, no error) are `usable`, given
    the site's ranking over `pages` gold pages; a page whose site is unknown (None, see
    corpus/site_names.known_site) gets the default (pure)."""
    facts: _Facts = {"site": site, "pages": pages, "min_pages": min_pages, "metric": metric}
    plural = "page" if pages == 1 else "pages"
    if site is None:
        why = "this page's site is unknown (it was imported with no URL or folder to name one)"
    elif pages >= min_pages:
        for name, f1 in ranked:
            if name in usable:
                second = "" if name == ranked[0][0] else f" ({ranked[0][0]}, the best, has no text here)"
                return Prefill(name, BEST, f"prefilled from {name}: best {metric} F1 ({f1:.2f}) on {site} "
                               f"over {pages} gold {plural}{second}", f1=f1, **facts)
        why = f"no extractor ranked on {site} has text for this page"
    else:
        why = f"{site} has {pages} gold {plural}, fewer than {min_pages}"
    if default in usable:
        return Prefill(default, DEFAULT, f"prefilled from {default}, the default: {why}", **facts)
    return Prefill(None, NONE, f"not prefilled: the default, {default}, has no text for this page; {why}",
                   **facts)


def fixed(default: str, usable: Collection[str]) -> Prefill:
    """The PREFILL=fixed prefill: the default extractor whatever the site's ranking (pure)."""
    facts: _Facts = {"site": None, "pages": 0, "min_pages": 0}
    if default in usable:
        return Prefill(default, FIXED, f"prefilled from {default}, the default: PREFILL is fixed", **facts)
    return Prefill(None, NONE, f"not prefilled: the default, {default}, has no text for this page "
                               "(PREFILL is fixed)", **facts)


def draw(page_id: int, annotator: str, usable: Collection[str]) -> str | None:
    """The extractor drawn for this page and annotator among `usable`: the same for the same three, and
    independent from one annotator to the next (pure)."""
    names = sorted(usable)
    if not names:
        return None
    digest = hashlib.sha256(f"{page_id}\n{annotator}".encode()).digest()
    return names[int.from_bytes(digest[:8], "big") % len(names)]


def random_pool(with_text: Collection[str], accepted: Collection[str], pool: str) -> tuple[set[str], str]:
    """The candidates PREFILL=random draws among (`with_text`: those with text; `accepted`: those the accept
    guard accepted), as PREFILL_POOL says, and how to name them (pure)."""
    kept = set(with_text) & set(accepted)
    if pool == ACCEPTED_POOL and kept:
        return kept, "candidates with text the accept guard accepted"
    if pool == ACCEPTED_POOL:
        return set(with_text), "candidates with text (the accept guard accepted none)"
    return set(with_text), "candidates with text"


def drawn(page_id: int, annotator: str, usable: Collection[str], pool: str = "candidates with text") -> Prefill:
    """The PREFILL=random prefill of this page for this annotator, drawn among `usable` (named `pool`; pure)."""
    facts: _Facts = {"site": None, "pages": 0, "min_pages": 0}
    name = draw(page_id, annotator, usable)
    if name is None:
        return Prefill(None, NONE, "not prefilled: no candidate has text for this page (PREFILL is random)", **facts)
    return Prefill(name, RANDOM, f"prefilled from {name}, drawn at random among the {len(usable)} {pool} for "
                                 f"you on this page (PREFILL is random, so that double annotation measures how "
                                 f"much the prefill steers the gold)", **facts)
