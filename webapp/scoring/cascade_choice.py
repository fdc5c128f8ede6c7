"""The best cascade of two found on the gold, and its leave-one-out figure: pure maths on per-page counts.

A cascade (A, B) takes A's text where the accept guard accepted A's, else B's (extractors/composing.py), so its
counts on a page are A's or B's: its figures come from the stored counts without composing a text. Every ordered
pair of distinct extractors is scored under the board's metric and average on the board's pages, and the best F1
is offered (ties: the first pair in name order). That choice is made on the same pages it is scored on, so its
figure flatters it; the **leave-one-out** figure does not: for each page, the pair with the best F1 on the *other*
pages is chosen and scored (per-page F1) on that page, and the figure is the mean over pages. Beside it, the
chosen pair's own mean per-page F1 on all pages (the same measure, chosen knowing every page), and the best
extractor alone on the same pages (a cascade's second part runs only where the first is rejected, so the best pair
can score below the best single extractor).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .metric import Fields, Metric

WARNING = ("chosen among every cascade of two on the same gold pages it is scored on, so its figure is optimistic; "
           "the leave-one-out figure chooses each page's cascade on the other pages")


def cascade_fields(first: Fields, then: Fields, accepted: np.ndarray) -> dict[str, np.ndarray]:
    """A cascade's fields: the first's where its text was accepted, else the second's."""
    return {name: np.where(accepted, first[name], then[name]) for name in first}


def best_cascade(metric: Metric, average: str | None, fields: Mapping[str, Fields],
                 accepted: Mapping[str, np.ndarray]) -> dict[str, Any] | None:
    """The best cascade of two of these extractors (name -> fields and acceptance on the same pages) with its
    figures and its leave-one-out figure; None with fewer than two extractors or two pages."""
    names = sorted(fields)
    pages = len(next(iter(accepted.values()))) if accepted else 0
    if len(names) < 2 or pages < 2:
        return None
    _, aggregation = metric.aggregation(average)
    pairs = [(first, then) for first in names for then in names if first != then]
    totals = []
    left_out = np.empty((len(pairs), pages))  # each pair's figure on all pages but one, per page left out
    page_f1 = np.empty((len(pairs), pages))
    for number, (first, then) in enumerate(pairs):  # one pair at a time: pages x fields, never pairs x pages x fields
        composed = cascade_fields(fields[first], fields[then], accepted[first].astype(bool))
        values = aggregation.values(composed)
        total = values.sum(axis=0)
        totals.append(total)
        left_out[number] = aggregation.figures(total[None, :] - values, pages - 1).f1
        page_f1[number] = metric.page_scores(composed)[2]
    whole = aggregation.figures(np.stack(totals), pages)
    alone = aggregation.figures(np.stack([aggregation.values(fields[name]).sum(axis=0) for name in names]), pages).f1
    single = int(np.argmax(np.nan_to_num(alone, nan=-np.inf)))
    best = int(np.argmax(np.nan_to_num(whole.f1, nan=-np.inf)))
    chosen = np.argmax(np.nan_to_num(left_out, nan=-np.inf), axis=0)  # per page: the pair best on the other pages
    return {
        "first": pairs[best][0], "then": pairs[best][1], "pages": pages, "pairs": len(pairs),
        "precision": float(whole.precision[best]), "recall": float(whole.recall[best]), "f1": float(whole.f1[best]),
        "mean_page_f1": float(page_f1[best].mean()),
        "leave_one_out_f1": float(page_f1[chosen, np.arange(pages)].mean()),
        "leave_one_out_choices": len(set(chosen.tolist())),
        "best_alone": {"name": names[single], "f1": float(alone[single])},
        "warning": WARNING,
    }
