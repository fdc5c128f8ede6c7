"""``rouge-lsum``: page-level ROUGE-LSum as in the Web Content Extraction Benchmark (Bevendorff et al., 2023).

Scored by ``rouge_score.rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False, tokenizer=...)`` with a
whitespace tokenizer (tokens are the whitespace-separated runs, case and punctuation kept). rougeLsum's
"sentences" are the text's non-empty lines: rouge_score splits both texts on "\\n" (WCEB's eval.py passes
``split_summaries=True``, NLTK punkt sentences, which needs NLTK data; lines need none and are the
extractors' and the gold's own blocks). When the gold is empty (nothing but whitespace) recall is 1, and
precision and F1 are 1 if the extraction is empty too (else the scorer's 0). The corpus figures are the
means over pages (macro only). ``rouge-score`` is optional: without it the metric is listed as unavailable,
and cached counts still aggregate.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np

from .metric import Fields, Metric, mean_of_page_scores

FIELDS = ("precision", "recall", "f1")
INSTALL_HINT = "pip install 'goldtext[rouge]'"


class _WhitespaceTokenizer:
    """rouge_score tokenizer protocol: ``tokenize(text) -> list[str]``, here the whitespace-separated runs."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


@cache
def _scorer() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False, tokenizer=_WhitespaceTokenizer())


def counts(candidate: str | None, gold: str, *, errored: bool = False) -> dict[str, Any]:
    """{"precision", "recall", "f1", "errored"}; an errored extraction is scored as empty."""
    prediction = "" if errored or candidate is None else candidate
    score = _scorer().score(gold, prediction)["rougeLsum"]
    precision, recall, f1 = float(score.precision), float(score.recall), float(score.fmeasure)
    if not gold.strip():
        recall = 1.0
        if not prediction.strip():
            precision = f1 = 1.0
    return {"precision": precision, "recall": recall, "f1": f1, "errored": errored}


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cached per-page figures as they are."""
    return fields["precision"], fields["recall"], fields["f1"]


def _unavailable(
    candidate: str | None, gold: str, *, errored: bool = False, reason: str
) -> dict[str, Any]:
    raise RuntimeError(reason)


def build_metric(find_spec: Callable[[str], object | None] = importlib.util.find_spec) -> Metric:
    """The metric, marked unavailable (with the install hint) when ``rouge_score`` cannot be found."""
    missing = find_spec("rouge_score") is None
    reason = f"rouge-score is not installed: {INSTALL_HINT}" if missing else None
    return Metric(
        name="rouge-lsum",
        version=1,
        needs="text",
        description="ROUGE-LSum over lines, whitespace tokens (WCEB)",
        fields=FIELDS,
        counts=partial(_unavailable, reason=reason) if reason else counts,
        page_scores=page_scores,
        aggregations={"macro": mean_of_page_scores(page_scores)},
        available=not missing,
        unavailable_reason=reason,
        eager=False,
    )


METRIC = build_metric()
