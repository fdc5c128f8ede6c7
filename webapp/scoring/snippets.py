"""``snippets``: trafilatura's evaluation against gold snippets.

A page's gold is ``{"with": [...], "without": [...]}``. Whitespace runs are collapsed to one space (and the
ends stripped) in the snippets and the extraction; a ``with`` snippet found in the extraction (substring) is a
true positive, missing a false negative; a ``without`` snippet found is a false positive, absent a true
negative. An errored extraction counts every ``with`` snippet as a false negative and every ``without``
snippet as a true negative. Snippets are tested as given: an empty snippet is found in any text that did not
error, so the gold editor should not store one.

Micro (the default, trafilatura's) pools the counts over the corpus: precision = TP / (TP + FP),
recall = TP / (TP + FN), accuracy = (TP + TN) / all, F1 = 2TP / (2TP + FP + FN), each 0 when its denominator
is 0. Macro averages the same four figures computed per page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .metric import Fields, Metric, mean_of_page_scores, pooled_counts
from .ratios import ratio_or_zero

FIELDS = ("tp", "fn", "fp", "tn")


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace become one space; leading and trailing whitespace goes."""
    return " ".join(text.split())


def counts(
    candidate: str | None, gold: Mapping[str, Sequence[str]], *, errored: bool = False
) -> dict[str, Any]:
    """{"tp", "fn", "fp", "tn", "errored"} for one page."""
    wanted = [collapse_whitespace(snippet) for snippet in gold.get("with", ())]
    unwanted = [collapse_whitespace(snippet) for snippet in gold.get("without", ())]
    if errored or candidate is None:
        return {"tp": 0, "fn": len(wanted), "fp": 0, "tn": len(unwanted), "errored": errored}
    text = collapse_whitespace(candidate)
    tp = sum(snippet in text for snippet in wanted)
    fp = sum(snippet in text for snippet in unwanted)
    return {"tp": tp, "fn": len(wanted) - tp, "fp": fp, "tn": len(unwanted) - fp, "errored": False}


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 from tp / fn / fp counts (per page, or pooled)."""
    tp, fn, fp = fields["tp"], fields["fn"], fields["fp"]
    return ratio_or_zero(tp, tp + fp), ratio_or_zero(tp, tp + fn), ratio_or_zero(2 * tp, 2 * tp + fp + fn)


def page_accuracy(fields: Fields) -> np.ndarray:
    """(TP + TN) / all snippets, 0 without snippets."""
    right = fields["tp"] + fields["tn"]
    return ratio_or_zero(right, right + fields["fp"] + fields["fn"])


def _pooled_accuracy(pooled: Fields, pages: int) -> np.ndarray:
    return page_accuracy(pooled)


METRIC = Metric(
    name="snippets",
    version=1,
    needs="snippets",
    description="Gold snippets found / wrongly kept (trafilatura's evaluation)",
    fields=FIELDS,
    counts=counts,
    page_scores=page_scores,
    aggregations={
        "micro": pooled_counts(FIELDS, page_scores, _pooled_accuracy),
        "macro": mean_of_page_scores(page_scores, page_accuracy),
    },
)
