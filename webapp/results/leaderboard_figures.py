"""The leaderboard service: corpus figures per extractor from the cached counts, never from texts.

`goldtext score`, the views and the JSON API all call `leaderboard()` and `head_to_head()` on a ScoreCache
(cache.py). The web leaderboard shows `leaderboard_with_extras()`: the same figures plus, per extractor,
its fingerprint, the guard's acceptance rate and the median extraction time over the same pages.
Services take a session and never commit; nothing here knows Flask.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..models import Extraction, Gold, Score
from ..scoring import Metric, compare, resolve_metric
from ..scoring.aggregate import Summary
from ..scoring.leaderboard_maths import Leaderboard
from ..scoring.tiers import tiers
from .cache import Aligned, ScoreCache, SharedScores
from .store import current_of

GROUPINGS = ("site", "type", "batch", "author")
"""What figures break down by; `type` is the gold's page type."""

SameAs = Callable[[Sequence[Hashable]], dict[str, str]]
"""Given a board's pages, the extractors that are only another one there (name -> the other's name):
site-rules with no rule applied on any of them is its fallback (results/site_rule_figures.py fallback_twins)."""


@dataclass(frozen=True)
class LeaderboardOptions:
    """What a leaderboard shows: the options of `goldtext score` (metric, average, filter, extractors,
    bootstrap, unanchored)."""

    metric: str = "tokens"
    average: str | None = None
    filters: PageFilter = PageFilter()
    extractors: tuple[str, ...] = ()
    bootstrap: int = 1000
    seed: int = 0
    unanchored: bool = False  # leave out, for each extractor, the pages whose gold started from it (anchoring.py)
    by: str | None = None  # one of GROUPINGS: the figures per group beside the whole


def _leaderboard(
    cache: ScoreCache,
    metric: Metric,
    average: str | None,
    named: Mapping[str, str],
    filters: PageFilter,
    bootstrap: int,
    seed: int,
) -> Leaderboard:
    """The cached board of this query, corrected for changed pages, or a new one."""
    filters.check_scored()
    fps = list(named.values())
    key = (metric.name, average, tuple(named.items()), filters, bootstrap, seed)
    cached = cache.boards.peek(key)
    if cached is not None:
        built, board = cached
        changed = cache.changed_after(built)
        if changed is not None:
            now = cache.aligned(metric.name, fps, filters, changed)
            on_leaderboard = set(now.page_ids)
            if all((page in on_leaderboard) == (page in board.index) for page in changed):
                for page, slot in zip(now.page_ids, now.slots.tolist()):
                    board.update(page, {name: now.columns.row_counts(fp, slot) for name, fp in named.items()})
                cache.keep_leaderboard(key, board)
                return board
    board = _new_leaderboard(cache, metric, cache.aligned(metric.name, fps, filters), named, average, bootstrap, seed)
    cache.keep_leaderboard(key, board)
    return board


def leaderboard_of(cache: ScoreCache, options: LeaderboardOptions, named: Mapping[str, str]) -> Leaderboard:
    """The board `leaderboard` reads for these options (the cached one, corrected for changed pages): read
    it, never change it."""
    return _leaderboard(cache, resolve_metric(cache.metrics, options.metric), options.average, named, options.filters,
                        options.bootstrap, options.seed)


def figures_of(summary: Summary) -> dict[str, Any]:
    """An extractor's figures from its summary, the metric's own further ones (`extra`) among them."""
    return {k: v for k, v in asdict(summary).items() if k not in ("metric", "average", "extra")} | summary.extra


def _new_leaderboard(cache: ScoreCache, metric: Metric, aligned: Aligned, named: Mapping[str, str],
                     average: str | None, bootstrap: int, seed: int) -> Leaderboard:
    """A board of these aligned pages, its bootstrap weights the cache's."""
    kept = cache.resample_weights(len(aligned), bootstrap, seed) if bootstrap and len(aligned) else None
    return Leaderboard.of_fields(metric, {name: aligned.fields(fp) for name, fp in named.items()},
                                 {name: aligned.errored(fp) for name, fp in named.items()}, aligned.page_ids,
                                 average, bootstrap, seed, kept)


def _figures(board: Leaderboard) -> dict[str, Any]:
    """Per extractor, its summary's figures."""
    return {name: figures_of(s) for name, s in board.summaries().items()}


def _ranked(board: Leaderboard, same_as: SameAs | None = None) -> dict[str, Any]:
    """The board's figures per extractor and its tiers (scoring/tiers.py: who cannot be told from the best),
    an extractor that is only another one shown (`same_as`) left out of them and given that one's tier."""
    figures = _figures(board)
    twins = {a: b for a, b in (same_as(board.page_ids) if same_as else {}).items() if a in figures}
    left_out = {a: b for a, b in twins.items() if b in figures}
    ranked = tiers({name: f["f1"] for name, f in figures.items() if name not in left_out}, board.resampled_f1())
    return {"extractors": figures, "tiers": twin_tiers(ranked, left_out), "same_as": twins}


def twin_tiers(ranked: dict[str, Any] | None, twins: Mapping[str, str]) -> dict[str, Any] | None:
    """Tiers with each twin (name -> the extractor it only repeats) given its original's tier, marked
    `same_as`: never the best, never counted against the best's separation."""
    if ranked is None:
        return None
    for twin, original in twins.items():
        ranked["extractors"][twin] = {"p_holm": None, "tied": False, **ranked["extractors"].get(original, {}),
                                      "same_as": original}
    return ranked


def leaderboard(
    cache: ScoreCache,
    metric: str,
    named: Mapping[str, str],
    *,
    average: str | None = None,
    filters: PageFilter = PageFilter(),
    by: str | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
    same_as: SameAs | None = None,
) -> dict[str, Any]:
    """Figures per extractor (`named`: display name -> fingerprint), optionally per group."""
    definition = resolve_metric(cache.metrics, metric)
    average_name, _ = definition.aggregation(average)
    board = _leaderboard(cache, definition, average, named, filters, bootstrap, seed)
    result: dict[str, Any] = {
        "metric": metric,
        "average": average_name,
        "pages": len(board.page_ids),
        **_ranked(board, same_as),
    }
    if by is not None:
        if by not in GROUPINGS:
            raise ValueError(f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}")
        groups = cache.aligned(metric, list(named.values()), filters).groups(by)
        result["groups"] = {}
        for group, aligned in sorted(groups.items()):
            sub = _new_leaderboard(cache, definition, aligned, named, average, bootstrap, seed)
            result["groups"][group] = {"pages": len(sub.page_ids), **_ranked(sub, same_as)}
    return result


def head_to_head(
    cache: ScoreCache,
    metric: str,
    a: tuple[str, str],
    b: tuple[str, str],
    *,
    average: str | None = None,
    filters: PageFilter = PageFilter(),
    bootstrap: int = 1000,
    seed: int = 0,
    top: int = 20,
) -> dict[str, Any]:
    """A against B (each (display name, fingerprint)) on the pages both have scored."""
    aligned = cache.aligned(metric, [a[1], b[1]], filters)
    result = compare(
        resolve_metric(cache.metrics, metric),
        aligned.counts(a[1]),
        aligned.counts(b[1]),
        aligned.page_ids,
        bootstrap=bootstrap,
        seed=seed,
        top=top,
        average=average,
    )
    payload = asdict(result)
    payload["a"], payload["b"] = {"name": a[0], "fingerprint": a[1]}, {"name": b[0], "fingerprint": b[1]}
    payload["changed"] = [
        {"page_id": c.page_id, "f1_a": c.f1_a, "f1_b": c.f1_b, "difference": c.difference}
        for c in result.changed
    ]
    return payload


def leaderboard_pages(cache: ScoreCache, metric: str, fingerprints: list[str], filters: PageFilter) -> list[int]:
    """The pages a board of these fingerprints scores: those every one of them has scored (kept up to
    date by the change log)."""
    return cache.aligned_pages(metric, fingerprints, filters)[1].tolist()


def scored_fingerprints(cache: ScoreCache, metric: str) -> set[str]:
    """The fingerprints with at least one cached count of this metric (the cache counts them)."""
    return {fp for fp, pages in cache.scored.get(metric, {}).items() if pages > 0}


def leaderboard_extractors(shared: SharedScores, metric: str, named: Mapping[str, str], asked: bool) -> dict[str, str]:
    """The extractors a leaderboard shows: those asked for, else every registered one with scores."""
    if asked:
        return dict(named)
    have = scored_fingerprints(shared.cache, metric)
    return {name: fp for name, fp in named.items() if fp in have}


def guard_and_time(cache: ScoreCache, metric: str, named: Mapping[str, str], filters: PageFilter) -> dict[str, dict]:
    """Per extractor, over the leaderboard's pages: fingerprint, acceptance rate, median time (ms)."""
    aligned = cache.aligned(metric, list(named.values()), filters)
    result = {}
    for name, fp in named.items():
        result[name] = {
            "fingerprint": fp,
            "acceptance": float(aligned.accepted(fp).mean()) if len(aligned) else None,
            "median_ms": float(np.median(aligned.duration(fp))) if len(aligned) else None,
        }
    return result


def leaderboard_with_extras(shared: SharedScores, options: LeaderboardOptions, named: Mapping[str, str],
                            same_as: SameAs | None = None) -> dict[str, Any]:
    """`goldtext score --format json` for these extractors, plus "extras" (see guard_and_time)."""
    cache = shared.cache
    result = leaderboard(cache, options.metric, named, average=options.average, filters=options.filters,
                         by=options.by, bootstrap=options.bootstrap, seed=options.seed, same_as=same_as)
    key = ("extras", options.metric, tuple(named.items()), options.filters)
    stamp, _ = cache.aligned_pages(options.metric, list(named.values()), options.filters)
    result["extras"] = shared.remembered(key, lambda: guard_and_time(cache, options.metric, named, options.filters),
                                         (stamp, cache.extraction_stamp))
    return result


def f1_distribution(
    cache: ScoreCache, metric: str, named: Mapping[str, str], filters: PageFilter
) -> dict[str, list[float]]:
    """Per extractor, the per-page F1 of the leaderboard's pages."""
    definition = resolve_metric(cache.metrics, metric)
    aligned = cache.aligned(metric, list(named.values()), filters)
    return {
        name: definition.page_scores(aligned.fields(fp))[2].tolist() if len(aligned) else []
        for name, fp in named.items()
    }


def worst_pages(
    cache: ScoreCache, metric: str, fingerprint: str, filters: PageFilter, limit: int = 100
) -> dict[str, Any]:
    """An extractor's scored pages, worst F1 first (then by page id): page, site, precision, recall, F1."""
    definition = resolve_metric(cache.metrics, metric)
    aligned = cache.aligned(metric, [fingerprint], filters)
    if not len(aligned):
        return {"pages": 0, "rows": []}
    precision, recall, f1 = definition.page_scores(aligned.fields(fingerprint))
    page_ids = aligned.columns.page_id[aligned.slots]
    order = np.lexsort((page_ids, f1))[:limit]
    return {
        "pages": len(aligned),
        "rows": [
            {"page_id": int(page_ids[i]), "site": aligned.columns.fact("site", int(aligned.slots[i])),
             "precision": float(precision[i]), "recall": float(recall[i]), "f1": float(f1[i])}
            for i in order
        ],
    }


def page_scores(session: Session, metrics: Mapping[str, Metric], page_id: int) -> dict[str, dict[str, Any]]:
    """One page's cached per-page precision, recall and F1: {fingerprint: {"extractor", "metrics": {metric: ...}}};
    with a metric whose counts list the page's failing tests (``structure-tests``), those tests as ``failed``. A
    figure the page cannot give (a date's recall where the gold and the extractor both say none: 0 of 0) is None,
    which JSON can carry, not NaN."""
    rows = session.execute(
        select(Extraction.extractor, Extraction.fingerprint, Score.metric, Score.counts)
        .join(Score, Score.extraction_id == Extraction.id)
        .join(Gold, current_of(metrics))
        .where(Score.page_id == page_id)
    )
    result: dict[str, dict[str, Any]] = {}
    for name, fp, metric, counts in rows:
        p, r, f = metrics[metric].of_page(counts)
        entry = result.setdefault(fp, {"extractor": name, "metrics": {}})
        entry["metrics"][metric] = {key: None if math.isnan(value) else value
                                    for key, value in (("precision", p), ("recall", r), ("f1", f))}
        if "failed" in counts:
            entry["metrics"][metric]["failed"] = counts["failed"]
    return result
