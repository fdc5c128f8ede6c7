"""The metric registry: a plain dict name -> Metric, built for each app by its settings (webapp/foundation/settings.py),
as the extractor registry is. Built-ins are registered exactly as a third party's (webapp/foundation/plugins.py): entry
points in the `goldtext.metrics` group naming a `Metric`."""

from __future__ import annotations

from collections.abc import Mapping

from ..foundation import plugins
from .metric import Metric

GROUP = "goldtext.metrics"

BUILTINS = plugins.entry_points_of(GROUP, (
    ("tokens", "webapp.scoring.token_overlap:METRIC"),
    ("shingles", "webapp.scoring.shingles:METRIC"),
    ("snippets", "webapp.scoring.snippets:METRIC"),
    ("rouge-lsum", "webapp.scoring.rouge_lsum:METRIC"),
    ("wcxb", "webapp.scoring.wcxb_metric:METRIC"),
    ("webmainbench-rouge5", "webapp.scoring.webmainbench_rouge:METRIC"),
    ("webmainbench-subset", "webapp.scoring.webmainbench_subset:METRIC"),
    ("structure-tests", "webapp.scoring.structure_metric:METRIC"),
    ("title", "webapp.scoring.title_metric:METRIC"),
    ("authors", "webapp.scoring.authors_metric:METRIC"),
    ("published", "webapp.scoring.published_metric:METRIC"),
))


def build_metrics() -> dict[str, Metric]:
    """A new dict of the built-ins plus every metric installed in the entry-point group."""
    return plugins.build(GROUP, BUILTINS, Metric)


def resolve_metric(metrics: Mapping[str, Metric], name: str) -> Metric:
    """The registered metric of that name, or ValueError naming the known ones."""
    try:
        return metrics[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r}; one of {', '.join(metrics)}") from None


def eager(metrics: Mapping[str, Metric]) -> dict[str, Metric]:
    """The metrics scored as soon as gold or an extraction changes."""
    return {name: metric for name, metric in metrics.items() if metric.eager}

