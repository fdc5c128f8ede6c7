"""``tokens``: overlap of lower-cased word tokens, compared as multisets.

Tokens are ``re.findall(r"\\w+", text.lower())``; hit = size of the multiset intersection;
precision = hit / max(|extracted|, 1), recall = hit / max(|gold|, 1), F1 = their harmonic mean
(0 when both are 0). A page is exact when both token sequences are identical; accuracy = share of exact pages.
Micro pools hits and lengths over pages before dividing; macro averages the per-page figures.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .metric import Fields, Metric, mean_of_page_scores, pooled_counts
from .ratios import harmonic_mean
from .text import bag_of, tokens_of

FIELDS = ("hit", "extracted", "gold", "exact")


def counts(candidate: str | None, gold: str, *, errored: bool = False) -> dict[str, Any]:
    """{"hit", "extracted", "gold", "exact", "errored"}; an errored extraction is scored as empty."""
    lowered, gold_lowered = ("" if errored or candidate is None else candidate).lower(), gold.lower()
    extracted, expected = tokens_of(lowered), tokens_of(gold_lowered)
    hit = sum((bag_of(lowered) & bag_of(gold_lowered)).values())
    return {
        "hit": hit,
        "extracted": len(extracted),
        "gold": len(expected),
        "exact": extracted == expected,
        "errored": errored,
    }


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 from hit / extracted / gold counts (per page, or pooled)."""
    precision = fields["hit"] / np.maximum(fields["extracted"], 1)
    recall = fields["hit"] / np.maximum(fields["gold"], 1)
    return precision, recall, harmonic_mean(precision, recall)


def _exact(fields: Fields) -> np.ndarray:
    return fields["exact"]


def _share_exact(pooled: Fields, pages: int) -> np.ndarray:
    return pooled["exact"] / pages


METRIC = Metric(
    name="tokens",
    version=1,
    needs="text",
    description="Word-token overlap (lower-cased, multiset)",
    fields=FIELDS,
    counts=counts,
    page_scores=page_scores,
    aggregations={
        "macro": mean_of_page_scores(page_scores, _exact),
        "micro": pooled_counts(FIELDS, page_scores, _share_exact),
    },
)
