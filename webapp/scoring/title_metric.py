"""``title``: the article's title against the gold's, exact after whitespace normalisation (accuracy: the share of
pages whose title is exact) and by token F1 (lower-cased word tokens as multisets, the mean over pages by
default; ``micro`` pools the tokens). See scoring/metadata_names.py."""

from __future__ import annotations

from .metadata_names import OVERLAP_FIELDS, exact, page_scores, share_exact, title_counts
from .metric import Metric, mean_of_page_scores, pooled_counts

METRIC = Metric(
    name="title",
    version=1,
    needs="metadata",
    metadata_field="title",
    description="Title: exact after whitespace normalisation (accuracy) and token F1",
    fields=OVERLAP_FIELDS,
    counts=title_counts,
    page_scores=page_scores,
    aggregations={
        "macro": mean_of_page_scores(page_scores, exact),
        "micro": pooled_counts(OVERLAP_FIELDS, page_scores, share_exact),
    },
)
