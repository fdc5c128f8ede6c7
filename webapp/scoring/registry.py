"""The built-in metrics, keyed by their stable names (read-only: build your own dict to add one)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import rouge_lsum, shingles, snippets, token_overlap
from .metric import Metric

METRICS: Mapping[str, Metric] = MappingProxyType(
    {
        metric.name: metric
        for metric in (
            token_overlap.METRIC,
            shingles.METRIC,
            snippets.METRIC,
            rouge_lsum.build_metric(),
        )
    }
)


def get_metric(name: str) -> Metric:
    """The registered metric of that name, or ValueError naming the known ones."""
    try:
        return METRICS[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r}; one of {', '.join(METRICS)}") from None
