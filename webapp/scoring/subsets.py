"""Figures of subsets of one board's pages, each extractor over a subset of its own, in one pass.

Every extractor's per-page values (its aggregation's, as a Board keeps them) are computed once, or taken
from a board; a subset is a boolean mask over the board's pages. The bootstrap's resamples are drawn once
over the board's pages (scoring/bootstrap.py, the same seed; a board's own weights when built from one)
and restricted to each subset: a resample's weights on the subset's pages, rescaled to add up to the
subset's page count (a resample that drew none of them is undefined, NaN). Subsets summarised in one call
share the resamples, so a difference between two of them is paired. This is what the anchoring figures
need (results/anchoring.py): each extractor without its own pages, at the cost of one board rather than
one board per extractor. Pure: no database, no Flask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .aggregate import CorpusFigures, Row, Summary, page_count, summary_of
from .bootstrap import BLOCK, resampled_sums
from .leaderboard_maths import Leaderboard
from .metric import Figures, Metric, page_fields

Wanted = Sequence[tuple[str, np.ndarray]]
"""(extractor, mask of the board's pages) pairs."""


class Subsets:
    """Several extractors' per-page values over one aligned set of pages, to be summed over subsets."""

    def __init__(self, metric: Metric, average: str | None, values: Mapping[str, np.ndarray],
                 errored: Mapping[str, np.ndarray], pages: int, weights: np.ndarray | None = None,
                 seed: int = 0) -> None:
        self.metric = metric
        self.average, self.aggregation = metric.aggregation(average)
        self.values, self.errored, self.pages = values, errored, pages
        self.weights, self.seed = weights, seed

    @classmethod
    def of_table(cls, metric: Metric, table: Mapping[str, Sequence[Row]], average: str | None = None) -> Subsets:
        """From each extractor's per-page counts (aligned by page)."""
        aggregation = metric.aggregation(average)[1]
        values = {name: aggregation.values(page_fields(rows, metric.fields)) for name, rows in table.items()}
        errored = {name: np.fromiter((bool(row.get("errored", False)) for row in rows), bool, count=len(rows))
                   for name, rows in table.items()}
        return cls(metric, average, values, errored, page_count(table))

    @classmethod
    def of_leaderboard(cls, board: Leaderboard) -> Subsets:
        """From a board's values, and its resamples' weights (its bootstrap and seed): read, never changed."""
        return cls(board.metric, board.average, board.values, board.errored, len(board.page_ids), board.weights,
                   board.seed)

    def _figures(self, wanted: Wanted, bootstrap: int, seed: int) -> list[tuple[int, Figures | None, Figures | None]]:
        """Per wanted pair: (its pages, its point figures (None: no page), its figures on every resample
        (None: no page or no bootstrap))."""
        resampled = None
        if bootstrap and self.pages and wanted:
            masks = np.column_stack([mask for _, mask in wanted]).astype(float)
            matrix = np.hstack([self.values[name] * mask[:, None] for name, mask in wanted] + [masks])
            if self.weights is not None and (len(self.weights), self.seed) == (bootstrap, seed):
                resampled = np.vstack([self.weights[i:i + BLOCK].astype(float) @ matrix
                                       for i in range(0, len(self.weights), BLOCK)])
            else:
                resampled = resampled_sums(matrix, bootstrap, seed)
        width = next(iter(self.values.values())).shape[1] if self.values else 0
        found = []
        for j, (name, mask) in enumerate(wanted):
            n = int(mask.sum())
            point = self.values[name][mask].sum(axis=0, keepdims=True)
            spread = None
            if resampled is not None and n:
                totals = resampled[:, len(wanted) * width + j]
                sums = resampled[:, j * width:(j + 1) * width]
                with np.errstate(divide="ignore", invalid="ignore"):
                    scaled = np.where(totals[:, None] > 0, sums * (n / totals)[:, None], np.nan)
                spread = self.aggregation.figures(scaled, n)
            found.append((n, self.aggregation.figures(point, n) if n else None, spread))
        return found

    def summaries(self, wanted: Wanted, bootstrap: int = 0, seed: int = 0) -> list[Summary]:
        """Each wanted extractor's summary over its subset, in order (spreads from the shared resamples)."""
        result = []
        for (name, mask), (n, point, spread) in zip(wanted, self._figures(wanted, bootstrap, seed)):
            if point is None:
                result.append(Summary.of_no_pages(self.metric.name, self.average, self.aggregation.extra))
                continue
            errors = int(self.errored[name][mask].sum())
            result.append(summary_of(self.metric.name, self.average, n, errors, CorpusFigures(point, spread)))
        return result

    def resampled_f1(self, wanted: Wanted, bootstrap: int, seed: int = 0) -> list[np.ndarray | None]:
        """Each wanted extractor's F1 over its subset on every shared resample (NaN where undefined); None
        for an empty subset or without a bootstrap."""
        return [None if spread is None else spread.f1 for _, _, spread in self._figures(wanted, bootstrap, seed)]
