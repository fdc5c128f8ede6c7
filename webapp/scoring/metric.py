"""The shape every metric shares: per-page counts in, corpus figures out.

A metric's ``counts(candidate, gold, *, errored=False)`` returns a small JSON-able dict (cached per page,
extraction and metric). Aggregation never re-tokenises: it reads the metric's numeric ``fields`` from those
dicts into one array per field, turns them into a (pages x k) matrix of per-page ``values``, and derives the
figures from weighted column sums of that matrix. Weights of one are the point estimate; a bootstrap
resample is a row of multiplicities (adding up to the page count), so every figure of every resample costs
one matrix product.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

Fields = Mapping[str, np.ndarray]
"""One float array per count name, one entry per page."""

PageScores = Callable[[Fields], tuple[np.ndarray, np.ndarray, np.ndarray]]
"""Per-page (precision, recall, F1) arrays from the fields."""


class Figures(NamedTuple):
    """Corpus figures, one entry per set of weights; NaN where the definition leaves a figure undefined.
    ``extra``: a metric's own further figures by name (WCXB's snippet rates)."""

    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    accuracy: np.ndarray | None
    extra: Mapping[str, np.ndarray] | None = None


@dataclass(frozen=True)
class Average:
    """One way of aggregating a metric over pages.

    ``values(fields)`` is a (pages x k) matrix; ``figures(sums, pages)`` takes (resamples x k) weighted column
    sums of it, each resample's weights adding up to ``pages``.
    """

    values: Callable[[Fields], np.ndarray]
    figures: Callable[[np.ndarray, int], Figures]
    extra: tuple[str, ...] = ()
    """The names of the further figures (Figures.extra) it gives."""


@dataclass(frozen=True)
class Metric:
    """A named, versioned metric; bump ``version`` whenever the definition changes (it invalidates the cache).

    ``fields`` are the numeric keys of its counts, ``needs`` the gold it scores ("text", "snippets",
    "text+snippets": ``{"text", "with", "without"}``, "markdown": the gold's Markdown, scored against the
    extraction's Markdown where the others get its text, or "metadata": the gold's article metadata field
    ``metadata_field`` against the extraction's, scored only where both give that field),
    ``aggregations`` its averages by name (the first is the default).
    """

    name: str
    version: int
    needs: str
    description: str
    fields: tuple[str, ...]
    counts: Callable[..., dict[str, Any]]
    page_scores: PageScores
    aggregations: Mapping[str, Average]
    available: bool = True
    unavailable_reason: str | None = None
    eager: bool = True
    """Scored as soon as gold or an extraction changes; a slow metric (False) is scored by a refresh job
    when a leaderboard first asks for it."""
    metadata_field: str | None = None
    """The article metadata field a "metadata" metric scores (title, authors or published)."""

    def per_page(self, rows: Sequence[Mapping[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(precision, recall, F1) arrays of many pages' counts, one entry per page, in one pass."""
        return self.page_scores(page_fields(rows, self.fields))

    def of_page(self, counts: Mapping[str, Any]) -> tuple[float, float, float]:
        """(precision, recall, F1) of one page from its counts."""
        precision, recall, f1 = self.per_page([counts])
        return float(precision[0]), float(recall[0]), float(f1[0])

    @property
    def averages(self) -> tuple[str, ...]:
        """The averages this metric supports, the default first."""
        return tuple(self.aggregations)

    @property
    def default_average(self) -> str:
        return self.averages[0]

    def aggregation(self, average: str | None) -> tuple[str, Average]:
        """The named average (None: the default), or ValueError when the metric does not support it."""
        name = self.default_average if average is None else average
        if name in self.aggregations:
            return name, self.aggregations[name]
        if len(self.averages) == 1:
            raise ValueError(
                f"{self.name} has a fixed average: {self.default_average} over pages "
                f"(every page weighs the same by its definition); {name!r} is not applicable"
            )
        raise ValueError(f"{self.name} supports the averages {', '.join(self.averages)}; not {name!r}")


def stored_page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-page precision, recall and F1 as the counts hold them (the metrics that count the figures themselves)."""
    return fields["precision"], fields["recall"], fields["f1"]


def page_fields(rows: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict[str, np.ndarray]:
    """The named counts of every row as float arrays (booleans become 0.0 / 1.0)."""
    return {name: np.fromiter((row[name] for row in rows), float, count=len(rows)) for name in names}


def mean_of_page_scores(
    page_scores: PageScores,
    page_accuracy: Callable[[Fields], np.ndarray] | None = None,
    extra: Mapping[str, Callable[[Fields], np.ndarray]] | None = None,
) -> Average:
    """Macro average: the mean over pages of per-page precision, recall, F1 (and accuracy, and each
    ``extra`` figure by name, if given)."""
    extra = dict(extra or {})

    def values(fields: Fields) -> np.ndarray:
        columns = list(page_scores(fields))
        if page_accuracy is not None:
            columns.append(page_accuracy(fields))
        columns += [figure(fields) for figure in extra.values()]
        return np.column_stack(columns)

    def figures(sums: np.ndarray, pages: int) -> Figures:
        means = sums / pages
        accuracy = means[:, 3] if page_accuracy is not None else None
        first = 4 if page_accuracy is not None else 3
        named = {name: means[:, first + i] for i, name in enumerate(extra)}
        return Figures(means[:, 0], means[:, 1], means[:, 2], accuracy, named or None)

    return Average(values, figures, tuple(extra))


def pooled_counts(
    names: Sequence[str],
    page_scores: PageScores,
    accuracy: Callable[[Fields, int], np.ndarray],
) -> Average:
    """Micro average: sum the named counts over pages, then apply the per-page formulas to the sums.

    ``accuracy(pooled, pages)`` gets the pooled counts and the number of pages.
    """

    def values(fields: Fields) -> np.ndarray:
        return np.column_stack([fields[name] for name in names])

    def figures(sums: np.ndarray, pages: int) -> Figures:
        pooled = {name: sums[:, i] for i, name in enumerate(names)}
        return Figures(*page_scores(pooled), accuracy(pooled, pages))

    return Average(values, figures)
