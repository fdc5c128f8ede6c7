"""A site's ranking for the prefill (annotation/prefill.py): the extractors by F1 over the site's gold
pages, read from the score cache with the leaderboard's per-site alignment (nothing is rescored)."""

from __future__ import annotations

from collections.abc import Mapping

from ..annotation.page_filter import PageFilter
from ..annotation.prefill import Ranking, ranking
from ..scoring import Metric
from .cache import ScoreCache


def site_ranking(cache: ScoreCache, metric: Metric, named: Mapping[str, str], host: str) -> tuple[int, Ranking]:
    """(gold pages, ranking) of one site from the cache: the pages scored by every named extractor
    (display name -> fingerprint), as the leaderboard's per-site group aligns them. Call with the
    cache synced and locked."""
    aligned = cache.aligned(metric.name, list(named.values()), PageFilter(sites=(host,)))
    table = {name: aligned.counts(fp) for name, fp in named.items()}
    return len(aligned), ranking(metric, table)
