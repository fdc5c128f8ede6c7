"""Corpus figures from cached per-page counts: point estimates and bootstrap spread.

A row is the dict a metric's ``counts()`` returned for one page: the metric's count fields plus
``"errored"`` (a missing "errored" reads as False). Rows of several extractors passed together must be
aligned by page: row i of every extractor is the same page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .bootstrap import resampled_sums, spread
from .metric import Average, Fields, Figures, Metric, page_fields

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Summary:
    """One extractor's corpus figures; None where undefined (no pages, or no bootstrap for the spread).
    ``extra``: the metric's own further figures by name (point estimates)."""

    metric: str
    average: str
    pages: int
    errors: int
    precision: float | None
    recall: float | None
    f1: float | None
    accuracy: float | None
    precision_std: float | None
    recall_std: float | None
    f1_std: float | None
    extra: dict[str, float | None] = field(default_factory=dict)

    @classmethod
    def of_no_pages(cls, metric: str, average: str, extra: tuple[str, ...] = ()) -> Summary:
        """The summary over no pages: every figure undefined."""
        return cls(metric, average, 0, 0, None, None, None, None, None, None, None, dict.fromkeys(extra))


@dataclass(frozen=True)
class CorpusFigures:
    """The point estimate (one entry per figure) and, with a bootstrap, the figures of every resample."""

    point: Figures
    resampled: Figures | None


def number(value: float) -> float | None:
    """A figure as a plain float, None when undefined (NaN)."""
    return None if np.isnan(value) else float(value)


def corpus_figures(
    aggregation: Average, fields: Mapping[str, Fields], pages: int, bootstrap: int, seed: int
) -> dict[str, CorpusFigures]:
    """Figures of each named field set (all of ``pages`` pages, aligned), sharing one set of resamples."""
    blocks = {name: aggregation.values(page_set) for name, page_set in fields.items()}
    matrix = np.hstack(list(blocks.values()))
    point = matrix.sum(axis=0, keepdims=True)
    resampled = resampled_sums(matrix, bootstrap, seed) if bootstrap else None
    result, start = {}, 0
    for name, block in blocks.items():
        columns = slice(start, start + block.shape[1])
        start = columns.stop
        result[name] = CorpusFigures(
            aggregation.figures(point[:, columns], pages),
            None if resampled is None else aggregation.figures(resampled[:, columns], pages),
        )
    return result


def page_count(table: Mapping[str, Sequence[Row]]) -> int:
    """The common number of rows of every extractor, or ValueError when they are not aligned."""
    lengths = {len(rows) for rows in table.values()}
    if len(lengths) > 1:
        raise ValueError(f"rows are not aligned by page: extractors have {sorted(lengths)} rows")
    return lengths.pop() if lengths else 0


def summarize_many(
    metric: Metric,
    table: Mapping[str, Sequence[Row]],
    average: str | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
) -> dict[str, Summary]:
    """Summaries of several extractors over the same pages (rows aligned by page), from the same resamples."""
    average_name, aggregation = metric.aggregation(average)
    pages = page_count(table)
    errors = {name: sum(bool(row.get("errored", False)) for row in rows) for name, rows in table.items()}
    if pages == 0:
        return {name: Summary.of_no_pages(metric.name, average_name, aggregation.extra) for name in table}
    fields = {name: page_fields(rows, metric.fields) for name, rows in table.items()}
    figures = corpus_figures(aggregation, fields, pages, bootstrap, seed)
    return {
        name: summary_of(metric.name, average_name, pages, errors[name], figures[name])
        for name in table
    }


def summarize(
    metric: Metric,
    rows: Sequence[Row],
    average: str | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
) -> Summary:
    """One extractor's summary (the same figures ``summarize_many`` gives it with the same seed)."""
    return summarize_many(metric, {metric.name: rows}, average, bootstrap, seed)[metric.name]


def summary_of(metric: str, average: str, pages: int, errors: int, figures: CorpusFigures) -> Summary:
    point, resampled = figures.point, figures.resampled
    accuracy = None if point.accuracy is None else number(point.accuracy[0])
    spreads: tuple[float | None, float | None, float | None] = (None, None, None)
    if resampled is not None:
        spreads = (spread(resampled.precision), spread(resampled.recall), spread(resampled.f1))
    return Summary(
        metric,
        average,
        pages,
        errors,
        number(point.precision[0]),
        number(point.recall[0]),
        number(point.f1[0]),
        accuracy,
        *spreads,
        extra={name: number(values[0]) for name, values in (point.extra or {}).items()},
    )
