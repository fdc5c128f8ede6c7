"""``webmainbench-rouge5``: WebMainBench's headline metric, ROUGE-N F1 with N = 5 over jieba tokens of the
Markdown, as its ``TextRougeNgramMetric`` computes it.

When both texts are empty once stripped, precision, recall and F1 are 1. Otherwise each text as given (not
stripped) is cut by ``jieba.lcut`` (its default dictionary, precise mode, HMM on: spaces and line breaks are
tokens too), its 5-grams are counted by rouge_score's ``_create_ngrams`` and scored by its ``_score_ngrams``:
overlap = the size of the 5-gram multisets' intersection, precision = overlap / max(|predicted 5-grams|, 1),
recall = overlap / max(|gold 5-grams|, 1), F1 their harmonic mean (0 when both are 0). A text of fewer than
five tokens has no 5-gram. A failed extraction is scored as an empty text. The corpus figures are the means
over pages (macro only). jieba loads its dictionary once per process (about a second), so the metric is
scored by a refresh job when a leaderboard asks for it.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

from ..foundation.kept import Kept, kept_by_text
from .metric import Metric
from .optional_packages import FindSpec, optional_page_mean_metric

N = 5
INSTALL_HINT = "pip install 'goldtext[structure]'"
NEEDED = {"jieba": "jieba", "rouge_score": "rouge-score"}


@cache
def _tokenizer() -> Any:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)  # its dictionary's loading notes; the cut is the same
    jieba.initialize()
    return jieba


_TOKENS: Kept[tuple[str, ...]] = kept_by_text()
"""Texts' tokens, kept: a page's gold is scored against each of its extractions in turn."""


def tokens(text: str) -> tuple[str, ...]:
    """jieba's tokens of the text (precise mode, HMM on)."""
    return _TOKENS.get(text, lambda: tuple(_tokenizer().lcut(text)))


def rouge_n(predicted: str, gold: str, n: int = N) -> tuple[float, float, float]:
    """(precision, recall, F1) of ROUGE-N over jieba tokens, both-empty rule included."""
    from rouge_score.rouge_scorer import _create_ngrams, _score_ngrams

    if not gold.strip() and not predicted.strip():
        return 1.0, 1.0, 1.0
    score = _score_ngrams(_create_ngrams(tokens(gold), n), _create_ngrams(tokens(predicted), n))
    return float(score.precision), float(score.recall), float(score.fmeasure)


def counts(candidate: str | None, gold: str, *, errored: bool = False) -> dict[str, Any]:
    """{"precision", "recall", "f1", "errored"}; a failed extraction is scored as empty."""
    precision, recall, f1 = rouge_n("" if errored or candidate is None else candidate, gold)
    return {"precision": precision, "recall": recall, "f1": f1, "errored": errored}


def build_metric(find_spec: FindSpec = importlib.util.find_spec) -> Metric:
    """The metric, marked unavailable when jieba or rouge-score cannot be found."""
    return optional_page_mean_metric(
        NEEDED, INSTALL_HINT, find_spec,
        name="webmainbench-rouge5",
        version=1,
        needs="markdown",
        description="WebMainBench's ROUGE-5 F1 over jieba tokens of the Markdown",
        counts=counts,
    )


METRIC = build_metric()
