"""``wcxb``: the Web Content eXtraction Benchmark's scoring (Foley, 2026), to the letter of its evaluate.py.

Tokens are ``re.findall(r"\\w+", text.lower())``, compared as multisets: overlap = size of the multiset
intersection, precision = overlap / |extracted|, recall = overlap / |reference|, F1 their harmonic mean
(0 when both are 0). A reference without tokens scores precision, recall and F1 1 when the extraction has no
tokens either and 0 otherwise; otherwise an extraction without tokens scores 0. Beside them, per page, the
share of the ``with`` snippets and the share of the ``without`` snippets found in the extraction (a
case-insensitive substring test: ``snippet.lower() in text.lower()``), each 1 when the page has no such
snippets. The corpus figures are the means of the per-page figures over the pages (macro only): precision,
recall, F1, ``with_rate`` (higher is better) and ``without_rate`` (lower is better). A page missing from
the predictions, or whose extraction failed, is scored as an empty extraction, as evaluate.py scores a
missing prediction.

The gold is ``{"text", "with", "without"}`` (``needs = "text+snippets"``): a page whose reference text is
empty is scored too, as evaluate.py scores every ground-truth file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .metric import Metric, mean_of_page_scores, stored_page_scores
from .text import bag_of, tokens_of

FIELDS = ("precision", "recall", "f1", "with_rate", "without_rate")


def word_scores(predicted: str, reference: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of the lower-cased word multisets, WCXB's empty-text rules included."""
    lowered, reference_lowered = predicted.lower(), reference.lower()
    extracted, expected = tokens_of(lowered), tokens_of(reference_lowered)
    if not expected:
        return (1.0, 1.0, 1.0) if not extracted else (0.0, 0.0, 0.0)
    if not extracted:
        return (0.0, 0.0, 0.0)
    overlap = sum((bag_of(lowered) & bag_of(reference_lowered)).values())
    precision, recall = overlap / len(extracted), overlap / len(expected)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, f1


def snippet_rate(text: str, snippets: Sequence[str]) -> float:
    """The share of snippets found in text, ignoring case; 1 without snippets."""
    if not snippets:
        return 1.0
    lowered = text.lower()
    return sum(snippet.lower() in lowered for snippet in snippets) / len(snippets)


def counts(candidate: str | None, gold: Mapping[str, Any], *, errored: bool = False) -> dict[str, Any]:
    """{"precision", "recall", "f1", "with_rate", "without_rate", "errored"} of one page; an errored
    extraction is scored as empty."""
    predicted = "" if errored or candidate is None else candidate
    precision, recall, f1 = word_scores(predicted, gold.get("text") or "")
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "with_rate": snippet_rate(predicted, gold.get("with") or ()),
        "without_rate": snippet_rate(predicted, gold.get("without") or ()),
        "errored": errored,
    }


METRIC = Metric(
    name="wcxb",
    version=1,
    needs="text+snippets",
    description="WCXB's evaluate.py: word-multiset P/R/F1 and snippet rates, means over pages",
    fields=FIELDS,
    counts=counts,
    page_scores=stored_page_scores,
    aggregations={
        "macro": mean_of_page_scores(stored_page_scores, extra={
            "with_rate": lambda fields: fields["with_rate"],
            "without_rate": lambda fields: fields["without_rate"],
        }),
    },
)
