"""Scoring engine: metrics, aggregation, bootstrap and head-to-head comparison (pure: no Flask, no database).

Per page, ``metric.counts(candidate, gold, *, errored=False)`` returns a small JSON-able dict: the metric's
counts plus ``"errored"``. That dict is the row the aggregation functions take; they never re-tokenise.
Text metrics take the gold text, ``snippets`` takes ``{"with": [...], "without": [...]}``, the structure
metrics take the gold's Markdown and the extraction's Markdown (``Metric.needs`` says which). The metrics an
app scores with are its registry (``registry.build_metrics``).
"""

from .aggregate import Summary, summarize, summarize_many
from .compare import Comparison, PageChange, compare
from .metric import Metric
from .metric_registry import build_metrics, eager, resolve_metric

__all__ = [
    "Comparison",
    "Metric",
    "PageChange",
    "Summary",
    "build_metrics",
    "compare",
    "eager",
    "resolve_metric",
    "summarize",
    "summarize_many",
]
