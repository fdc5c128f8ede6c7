"""A leaderboard kept up to date page by page: when one page's counts change, every extractor's point
figures and bootstrap figures are corrected by that page's difference alone.

A resample's weighted sums are ``weights @ values``; changing row i of ``values`` by ``delta`` changes
them by ``weights[:, i] * delta``. So the board keeps the resamples' weights (the same draws
``summarize_many`` makes with the same seed) and the current sums, and an update costs
O(resamples x figures) per extractor instead of re-reading and re-aggregating the corpus.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np

from .aggregate import CorpusFigures, Row, Summary, summary_of
from .bootstrap import BLOCK, weights
from .metric import Fields, Metric, page_fields


class Leaderboard:
    """Figures of several extractors over one fixed, aligned set of pages."""

    def __init__(
        self,
        metric: Metric,
        table: Mapping[str, Sequence[Row]],
        page_ids: Sequence[Hashable],
        average: str | None = None,
        bootstrap: int = 1000,
        seed: int = 0,
        resample_weights: np.ndarray | None = None,
    ) -> None:
        fields = {name: page_fields(rows, metric.fields) for name, rows in table.items()}
        errored = {name: np.array([bool(row.get("errored", False)) for row in rows], dtype=bool)
                   for name, rows in table.items()}
        self._build(metric, fields, errored, page_ids, average, bootstrap, seed, resample_weights)

    @classmethod
    def of_fields(
        cls,
        metric: Metric,
        fields: Mapping[str, Fields],
        errored: Mapping[str, np.ndarray],
        page_ids: Sequence[Hashable],
        average: str | None = None,
        bootstrap: int = 1000,
        seed: int = 0,
        resample_weights: np.ndarray | None = None,
    ) -> Leaderboard:
        """The board of counts already read into arrays: per extractor, its fields (one float array per
        count name, one entry per page) and whether each page's extraction errored."""
        board = cls.__new__(cls)
        board._build(metric, fields, errored, page_ids, average, bootstrap, seed, resample_weights)
        return board

    def _build(
        self,
        metric: Metric,
        fields: Mapping[str, Fields],
        errored: Mapping[str, np.ndarray],
        page_ids: Sequence[Hashable],
        average: str | None,
        bootstrap: int,
        seed: int,
        resample_weights: np.ndarray | None,
    ) -> None:
        """``resample_weights``: the weights of ``bootstrap.weights(pages, bootstrap, seed)`` when the caller
        keeps them (they are read, never changed); drawn here otherwise."""
        self.metric = metric
        self.seed = seed
        self.average, self.aggregation = self.metric.aggregation(average)
        self.page_ids = tuple(page_ids)
        self.index = {page_id: i for i, page_id in enumerate(self.page_ids)}
        self.values = {name: self.aggregation.values(f) for name, f in fields.items()}
        self.errored = {name: np.array(e, dtype=bool) for name, e in errored.items()}
        self.point = {name: v.sum(axis=0, keepdims=True) for name, v in self.values.items()}
        self.weights: np.ndarray | None = None
        self.resampled: dict[str, np.ndarray] = {}
        if bootstrap and self.page_ids:
            self.weights = (weights(len(self.page_ids), bootstrap, seed) if resample_weights is None
                            else resample_weights)
            matrix = np.hstack(list(self.values.values()))
            sums = np.empty((bootstrap, matrix.shape[1]))
            block = np.empty((min(BLOCK, bootstrap), len(self.page_ids)))  # one buffer for every block's weights
            for start in range(0, bootstrap, BLOCK):
                rows = block[:min(BLOCK, bootstrap - start)]
                rows[...] = self.weights[start:start + BLOCK]
                np.matmul(rows, matrix, out=sums[start:start + len(rows)])
            start = 0
            for name, v in self.values.items():
                self.resampled[name] = sums[:, start : start + v.shape[1]].copy()
                start += v.shape[1]

    def update(self, page_id: Hashable, rows: Mapping[str, Row]) -> None:
        """Replace one page's counts for the named extractors (the page must be on the board)."""
        i = self.index[page_id]
        for name, row in rows.items():
            new = self.aggregation.values(page_fields([row], self.metric.fields))[0]
            delta = new - self.values[name][i]
            self.values[name][i] = new
            self.errored[name][i] = bool(row.get("errored", False))
            self.point[name] += delta
            if self.weights is not None:
                self.resampled[name] += self.weights[:, i : i + 1].astype(float) * delta

    def resampled_f1(self) -> dict[str, np.ndarray] | None:
        """Each extractor's corpus F1 on every resample (paired: the same weights for all); None without a
        bootstrap or pages."""
        if not self.resampled:
            return None
        pages = len(self.page_ids)
        return {name: self.aggregation.figures(sums, pages).f1 for name, sums in self.resampled.items()}

    def summaries(self) -> dict[str, Summary]:
        pages = len(self.page_ids)
        result = {}
        for name in self.values:
            if pages == 0:
                result[name] = Summary.of_no_pages(self.metric.name, self.average, self.aggregation.extra)
                continue
            figures = CorpusFigures(
                self.aggregation.figures(self.point[name], pages),
                self.aggregation.figures(self.resampled[name], pages) if self.resampled else None,
            )
            errors = int(self.errored[name].sum())
            result[name] = summary_of(self.metric.name, self.average, pages, errors, figures)
        return result
