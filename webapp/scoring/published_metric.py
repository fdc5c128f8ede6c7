"""``published``: the publication date, by day, as htmldate's evaluation scores it (adbar/htmldate/tests/evaluation.py
`evaluate_result` and adbar/htmldate/tests/comparison.py `calculate_scores`).

Per page, the gold's date and the extractor's, each compared by its day (the first ten characters of the ISO
date, ``YYYY-MM-DD``, the time and zone as written are ignored):

- the extractor's day equals the gold's: a true positive;
- the extractor gives a date and it is not the gold's (or the gold says the page has none): a false positive;
- the extractor gives none and the gold has one: a false negative;
- neither has one: a true negative (the issue's definition; htmldate's current evaluation.py counts such a page
  as a true negative and a false negative at once, its comparison.py as a true negative: see docs/metrics.md).

Pooled over pages (the counts summed, then divided, as htmldate sums its counts): precision = TP / (TP + FP),
recall = TP / (TP + FN), F1 = 2 TP / (2 TP + FP + FN), accuracy = (TP + TN) / pages; undefined (None) where a
denominator is 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .metric import Average, Fields, Figures, Metric
from .ratios import ratio_or_nan

FIELDS = ("tp", "fp", "fn", "tn")


def day(value: str | None) -> str | None:
    """The day of an ISO 8601 date or date and time (``2024-03-01T09:30+01:00`` -> ``2024-03-01``)."""
    return value[:10] if value else None


def counts(candidate: str | None, gold: str | None, *, errored: bool = False) -> dict[str, Any]:
    """{"tp", "fp", "fn", "tn", "errored"}, one of the four 1; an errored extraction found no date."""
    found, expected = (None if errored else day(candidate)), day(gold)
    if found is None:
        outcome = "tn" if expected is None else "fn"
    else:
        outcome = "tp" if found == expected else "fp"
    return {**{name: int(name == outcome) for name in FIELDS}, "errored": errored}


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 from the TP / FP / FN counts (of a page, or pooled)."""
    tp, fp, fn = fields["tp"], fields["fp"], fields["fn"]
    return ratio_or_nan(tp, tp + fp), ratio_or_nan(tp, tp + fn), ratio_or_nan(2 * tp, 2 * tp + fp + fn)


def _pooled() -> Average:
    def values(fields: Fields) -> np.ndarray:
        return np.column_stack([fields[name] for name in FIELDS])

    def figures(sums: np.ndarray, pages: int) -> Figures:
        pooled = {name: sums[:, i] for i, name in enumerate(FIELDS)}
        precision, recall, f1 = page_scores(pooled)
        return Figures(precision, recall, f1, ratio_or_nan(pooled["tp"] + pooled["tn"], sums.sum(axis=1)))

    return Average(values, figures)


METRIC = Metric(
    name="published",
    version=1,
    needs="metadata",
    metadata_field="published",
    description="Publication date by day, as htmldate's evaluation scores it (TP, FP, FN, TN pooled)",
    fields=FIELDS,
    counts=counts,
    page_scores=page_scores,
    aggregations={"micro": _pooled()},
)
