"""The web leaderboard's figures, read from one shared ScoreCache (never from texts).

`SharedScores` is the process's single cache, synced and read under a lock (Boards are corrected in
place, and web processes are threaded). Lazy metrics are computed by refresh jobs (webapp/jobs). `standings()` is what `goldtext score` prints plus, per extractor, its
fingerprint, the guard's acceptance rate and the median extraction time over the same pages.
Services take a session and never commit; nothing here knows Flask.
"""

from __future__ import annotations

import statistics
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..extractors.base import Extractor
from ..extractors.service import current_extractors
from ..models import Extraction, Gold, ImportBatch, Site
from ..scoring import METRICS
from ..scoring.metric import page_fields
from .leaderboard import ScoreCache, leaderboard

MEMO_LIMIT = 256


@dataclass(frozen=True)
class Query:
    """What a leaderboard shows: the options of `goldtext score`."""

    metric: str = "tokens"
    average: str | None = None
    filters: PageFilter = PageFilter()
    extractors: tuple[str, ...] = ()
    bootstrap: int = 1000
    seed: int = 0


@dataclass
class SharedScores:
    """The process's one ScoreCache, its lock, and figures remembered per version of the data."""

    cache: ScoreCache = field(default_factory=ScoreCache)
    lock: threading.Lock = field(default_factory=threading.Lock)
    memo: dict[tuple, tuple[int, Any]] = field(default_factory=dict)

    @contextmanager
    def synced(self, session: Session) -> Iterator[ScoreCache]:
        """The cache caught up with the change log, held under the lock while the caller reads it."""
        with self.lock:
            self.cache.sync(session)
            yield self.cache

    def remembered(self, key: tuple, compute, version: Any = None) -> Any:
        """compute() once per version of the data it reads (default: the cache's epoch); call under the lock."""
        version = self.cache.epoch if version is None else version
        found = self.memo.get(key)
        if found is not None and found[0] == version:
            return found[1]
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        value = compute()
        self.memo[key] = (version, value)
        return value


def current_named(session: Session, registry: Mapping[str, Extractor], names: Sequence[str] = ()) -> dict[str, str]:
    """Display name -> current fingerprint of the named extractors (all registered when none are named).
    UnknownExtractor (a ValueError) names any unknown one."""
    return {e.name: e.fingerprint for e in current_extractors(session, registry, names)}


def scored_fingerprints(cache: ScoreCache, metric: str) -> set[str]:
    """The fingerprints with at least one cached count of this metric."""
    found: set[str] = set()
    for rows in cache.rows.get(metric, {}).values():
        found.update(rows)
    return found


def shown(shared: SharedScores, metric: str, named: Mapping[str, str], asked: bool) -> dict[str, str]:
    """The extractors a leaderboard shows: those asked for, else every registered one with scores."""
    if asked:
        return dict(named)
    have = shared.remembered(("scored", metric), lambda: scored_fingerprints(shared.cache, metric))
    return {name: fp for name, fp in named.items() if fp in have}


def guard_and_time(cache: ScoreCache, metric: str, named: Mapping[str, str], filters: PageFilter) -> dict[str, dict]:
    """Per extractor, over the leaderboard's pages: fingerprint, acceptance rate, median time (ms)."""
    aligned = cache.aligned(metric, list(named.values()), filters)
    result = {}
    for i, (name, fp) in enumerate(named.items()):
        rows = [rows[i] for _, rows in aligned]
        result[name] = {
            "fingerprint": fp,
            "acceptance": sum(r.accepted for r in rows) / len(rows) if rows else None,
            "median_ms": statistics.median(r.duration_ms for r in rows) if rows else None,
        }
    return result


def standings(shared: SharedScores, query: Query, named: Mapping[str, str]) -> dict[str, Any]:
    """`goldtext score --format json` for these extractors, plus "extras" (see guard_and_time)."""
    cache = shared.cache
    result = leaderboard(cache, query.metric, named, average=query.average, filters=query.filters,
                         bootstrap=query.bootstrap, seed=query.seed)
    key = ("extras", query.metric, tuple(named.items()), query.filters)
    result["extras"] = shared.remembered(key, lambda: guard_and_time(cache, query.metric, named, query.filters))
    return result


def page_f1(metric: str, counts: Sequence[Mapping[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-page (precision, recall, F1) arrays of many pages' counts in one vectorised pass."""
    definition = METRICS[metric]
    return definition.page_scores(page_fields(counts, definition.fields))


def f1_distribution(cache: ScoreCache, metric: str, named: Mapping[str, str], filters: PageFilter) -> dict[str, list[float]]:
    """Per extractor, the per-page F1 of the leaderboard's pages."""
    aligned = cache.aligned(metric, list(named.values()), filters)
    return {
        name: [float(f) for f in page_f1(metric, [rows[i].counts for _, rows in aligned])[2]] if aligned else []
        for i, name in enumerate(named)
    }


def worst_pages(
    cache: ScoreCache, metric: str, fingerprint: str, filters: PageFilter, limit: int = 100
) -> dict[str, Any]:
    """An extractor's scored pages, worst F1 first (then by page id): page, site, precision, recall, F1."""
    rows = [
        by_fp[fingerprint]
        for _, by_fp in sorted(cache.rows.get(metric, {}).items())
        if fingerprint in by_fp and filters.admits(by_fp[fingerprint])
    ]
    if not rows:
        return {"pages": 0, "rows": []}
    precision, recall, f1 = page_f1(metric, [r.counts for r in rows])
    order = np.lexsort((np.array([r.page_id for r in rows]), f1))[:limit]
    return {
        "pages": len(rows),
        "rows": [
            {"page_id": rows[i].page_id, "site": rows[i].site, "precision": float(precision[i]),
             "recall": float(recall[i]), "f1": float(f1[i])}
            for i in order
        ],
    }


def stored_fingerprints(session: Session) -> list[dict[str, Any]]:
    """Every stored (extractor, fingerprint) with its number of extractions, by extractor."""
    rows = session.execute(
        select(Extraction.extractor, Extraction.fingerprint, func.count(Extraction.id))
        .group_by(Extraction.extractor, Extraction.fingerprint)
        .order_by(Extraction.extractor, Extraction.fingerprint)
    )
    return [{"extractor": e, "fingerprint": fp, "extractions": n} for e, fp, n in rows]


def resolve_ref(session: Session, registry: Mapping[str, Extractor], ref: str) -> tuple[str, str]:
    """A stored fingerprint as (itself, itself), or an extractor name as (name, its current fingerprint),
    as `goldtext compare` reads its arguments; UnknownExtractor otherwise."""
    stored = session.scalar(select(Extraction.fingerprint).where(Extraction.fingerprint == ref).limit(1))
    if stored is not None:
        return ref, ref
    return next(iter(current_named(session, registry, (ref,)).items()))


def texts_of(session: Session, page_ids: Sequence[int], fingerprints: Sequence[str]) -> dict[int, dict[str, str]]:
    """page -> fingerprint -> extracted text, for head-to-head diffs."""
    rows = session.execute(
        select(Extraction.page_id, Extraction.fingerprint, Extraction.text)
        .where(Extraction.page_id.in_(list(page_ids)), Extraction.fingerprint.in_(list(fingerprints)))
    )
    result: dict[int, dict[str, str]] = {}
    for page, fp, text in rows:
        result.setdefault(page, {})[fp] = text
    return result


def extraction_state(session: Session) -> tuple[int, int, str]:
    """(count, newest id, newest time) of the extractions: changes when extractions are added, removed
    or recomputed in place (a re-extraction stamps its row's created_at anew)."""
    count, newest, latest = session.execute(
        select(func.count(Extraction.id), func.max(Extraction.id), func.max(Extraction.created_at))
    ).one()
    return count, newest or 0, str(latest)


def filter_choices(session: Session) -> dict[str, list]:
    """The values a leaderboard's filters offer: sites, import batches and annotators."""
    return {
        "sites": list(session.scalars(select(Site.host).order_by(Site.host))),
        "batches": list(session.scalars(select(ImportBatch.id).order_by(ImportBatch.id))),
        "annotators": list(session.scalars(select(Gold.author).distinct().order_by(Gold.author))),
    }
