"""Head-to-head of two extractors over the same pages: per-page wins and a paired bootstrap of corpus F1."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from .aggregate import Row, corpus_figures, number
from .bootstrap import spread
from .metric import Metric, page_fields

TIE = 1e-9
"""Two F1 values closer than this are a tie."""


@dataclass(frozen=True)
class PageChange:
    """One page's F1 under A and under B."""

    page_id: Hashable
    f1_a: float
    f1_b: float

    @property
    def difference(self) -> float:
        return self.f1_a - self.f1_b


@dataclass(frozen=True)
class Comparison:
    """A against B. Corpus F1 figures use the metric's average; the bootstrap ones are None without one.

    ``difference_*`` describe corpus F1 (A - B) over the resamples; ``share_a_better`` is the share of
    resamples where A's corpus F1 beats B's by at least TIE. ``changed`` lists the non-tied pages,
    largest |F1_A - F1_B| first (page order among equals), at most ``top`` of them.
    """

    metric: str
    average: str
    pages: int
    wins: int
    losses: int
    ties: int
    f1_a: float | None
    f1_b: float | None
    difference: float | None
    difference_mean: float | None
    difference_std: float | None
    share_a_better: float | None
    changed: tuple[PageChange, ...]


def compare(
    metric: Metric,
    rows_a: Sequence[Row],
    rows_b: Sequence[Row],
    page_ids: Sequence[Hashable],
    bootstrap: int = 1000,
    seed: int = 0,
    top: int = 20,
    average: str | None = None,
) -> Comparison:
    """Compare A and B page by page (rows aligned with ``page_ids``) and over the corpus."""
    if not len(rows_a) == len(rows_b) == len(page_ids):
        raise ValueError(
            f"rows are not aligned by page: {len(rows_a)} for A, {len(rows_b)} for B, {len(page_ids)} pages"
        )
    average_name, aggregation = metric.aggregation(average)
    pages = len(page_ids)
    fields_a, fields_b = page_fields(rows_a, metric.fields), page_fields(rows_b, metric.fields)
    page_f1_a, page_f1_b = metric.page_scores(fields_a)[2], metric.page_scores(fields_b)[2]
    delta = page_f1_a - page_f1_b
    wins, losses = int(np.sum(delta >= TIE)), int(np.sum(delta <= -TIE))
    changed = tuple(
        PageChange(page_ids[i], float(page_f1_a[i]), float(page_f1_b[i]))
        for i in np.argsort(-np.abs(delta), kind="stable")[:top]
        if abs(delta[i]) >= TIE
    )
    f1_a = f1_b = difference = difference_mean = difference_std = share_a_better = None
    if pages:
        figures = corpus_figures(aggregation, {"a": fields_a, "b": fields_b}, pages, bootstrap, seed)
        a, b = figures["a"], figures["b"]
        f1_a, f1_b = number(a.point.f1[0]), number(b.point.f1[0])
        difference = number(a.point.f1[0] - b.point.f1[0])
        if a.resampled is not None and b.resampled is not None:
            differences = a.resampled.f1 - b.resampled.f1
            defined = differences[~np.isnan(differences)]
            if defined.size:
                difference_mean = float(defined.mean())
                share_a_better = float(np.mean(defined >= TIE))
            difference_std = spread(differences)
    return Comparison(
        metric.name,
        average_name,
        pages,
        wins,
        losses,
        pages - wins - losses,
        f1_a,
        f1_b,
        difference,
        difference_mean,
        difference_std,
        share_a_better,
        changed,
    )
