"""``authors``: the article's authors against the gold's, exact after normalisation (case, whitespace, a leading
"By ", the order of the names; accuracy: the share of pages whose authors are exact), as trafilatura's author
evaluation compares a page's author (adbar/trafilatura/tests/eval_authors.py: equal or not), and a per-name F1
(the names as multisets, the mean over pages by default; ``micro`` pools the names). See scoring/metadata_names.py."""

from __future__ import annotations

from .metadata_names import OVERLAP_FIELDS, authors_counts, exact, page_scores, share_exact
from .metric import Metric, mean_of_page_scores, pooled_counts

METRIC = Metric(
    name="authors",
    version=1,
    needs="metadata",
    metadata_field="authors",
    description="Authors: exact after normalisation (accuracy) and per-name F1",
    fields=OVERLAP_FIELDS,
    counts=authors_counts,
    page_scores=page_scores,
    aggregations={
        "macro": mean_of_page_scores(page_scores, exact),
        "micro": pooled_counts(OVERLAP_FIELDS, page_scores, share_exact),
    },
)
