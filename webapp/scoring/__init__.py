"""Scoring engine: metrics, aggregation, bootstrap and head-to-head comparison (pure: no Flask, no database).

Per page, ``METRICS[name].counts(candidate, gold, *, errored=False)`` returns a small JSON-able dict: the
metric's counts plus ``"errored"``. That dict is the row the aggregation functions take; they never
re-tokenise. Text metrics take the gold text, ``snippets`` takes ``{"with": [...], "without": [...]}``
(``Metric.needs`` says which).
"""

from .aggregate import Summary, per_page_scores, summarize, summarize_many
from .compare import Comparison, PageChange, compare
from .metric import Metric
from .registry import METRICS, get_metric

__all__ = [
    "METRICS",
    "Comparison",
    "Metric",
    "PageChange",
    "Summary",
    "compare",
    "get_metric",
    "per_page_scores",
    "summarize",
    "summarize_many",
]
