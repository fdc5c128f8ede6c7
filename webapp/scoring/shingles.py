"""``shingles``: the article-extraction-benchmark (Zyte) definition, shingles of four word tokens.

Tokens are ``re.findall(r"\\w+", text)`` with case kept. A text's shingles are its 4-token n-grams as a
multiset; a text of 1..3 tokens is one shingle of all its tokens, an empty text has none. Per page:
tp = sum of the smaller counts, fp = the prediction's excess, fn = the gold's excess, then all three are
divided by tp + fp + fn (when positive) so that every page weighs the same.

Per page, precision is 1 when fp == fn == 0, 0 when tp == fp == 0, else tp / (tp + fp); recall is 1 when
fp == fn == 0, 0 when tp == fn == 0, else tp / (tp + fn). Corpus precision is the mean of page precision
over the pages with tp + fp > 0, corpus recall the mean of page recall over the pages with tp + fn > 0, and
F1 the harmonic mean of those two means (0 when both are 0). Accuracy is the share of pages whose token
sequences are identical. The average is fixed: macro over pages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .metric import Average, Fields, Figures, Metric
from .ratios import harmonic_mean, ratio_or_nan
from .text import KEPT, tokens_of

SHINGLE_SIZE = 4
FIELDS = ("tp", "fp", "fn", "exact")


@lru_cache(maxsize=KEPT)
def shingles_of(text: str) -> Counter[tuple[str, ...]]:
    """The shingles of ``words(text)``, kept for the next extraction scored against the same gold (see
    text.py): read them, never change them."""
    return shingles(tokens_of(text))


def shingles(tokens: Sequence[str], size: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """The multiset of ``size``-token n-grams; 1..size-1 tokens make one short shingle, none make none."""
    if not tokens:
        return Counter()
    return Counter(tuple(tokens[i : i + size]) for i in range(max(1, len(tokens) - size + 1)))


def counts(candidate: str | None, gold: str, *, errored: bool = False) -> dict[str, Any]:
    """{"tp", "fp", "fn" (normalised to add up to 1, or all 0), "exact", "errored"}."""
    text = "" if errored or candidate is None else candidate
    predicted_tokens, gold_tokens = tokens_of(text), tokens_of(gold)
    predicted, expected = shingles_of(text), shingles_of(gold)
    tp = sum((predicted & expected).values())
    fp = predicted.total() - tp  # a multiset's excess over another: its size less their intersection's
    fn = expected.total() - tp
    total = tp + fp + fn or 1
    return {
        "tp": tp / total,
        "fp": fp / total,
        "fn": fn / total,
        "exact": predicted_tokens == gold_tokens,
        "errored": errored,
    }


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-page precision, recall and F1 by the benchmark's case rules."""
    tp, fp, fn = fields["tp"], fields["fp"], fields["fn"]
    perfect = (fp == 0) & (fn == 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(perfect, 1.0, np.where((tp == 0) & (fp == 0), 0.0, tp / (tp + fp)))
        recall = np.where(perfect, 1.0, np.where((tp == 0) & (fn == 0), 0.0, tp / (tp + fn)))
    return precision, recall, harmonic_mean(precision, recall)


def _values(fields: Fields) -> np.ndarray:
    precision, recall, _ = page_scores(fields)
    has_prediction = (fields["tp"] + fields["fp"] > 0).astype(float)
    has_gold = (fields["tp"] + fields["fn"] > 0).astype(float)
    return np.column_stack(
        [precision * has_prediction, has_prediction, recall * has_gold, has_gold, fields["exact"]]
    )


def _figures(sums: np.ndarray, pages: int) -> Figures:
    precision = ratio_or_nan(sums[:, 0], sums[:, 1])
    recall = ratio_or_nan(sums[:, 2], sums[:, 3])
    return Figures(precision, recall, harmonic_mean(precision, recall), sums[:, 4] / pages)


METRIC = Metric(
    name="shingles",
    version=1,
    needs="text",
    description="Shingles of 4 word tokens (article-extraction-benchmark)",
    fields=FIELDS,
    counts=counts,
    page_scores=page_scores,
    aggregations={"macro": Average(_values, _figures)},
)
