"""How much the extractors disagree on a page: the mean pairwise token F1 between its candidates (the
`tokens` metric's definition; errored extractions and the extractors of metadata only, which give no text,
left out; None with fewer than two candidates).

It orders the annotation queue (most disagreement first), so it is stored on the page and computed
where extractions change (after an extraction run or an upload's background job), never in a request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from itertools import combinations

import numpy as np
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..extractors.registry import METADATA_ONLY
from ..extractors.scored_output import scored, with_scored
from ..models import Extraction, Page
from ..scoring.text import words
from ..scoring.token_overlap import page_scores

CHUNK = 500


def mean_pairwise_f1(texts: Sequence[str]) -> float | None:
    """Mean token F1 over every pair of texts (each text tokenised once, F1 by the `tokens` metric's own
    per-page formula); None with fewer than two."""
    bags = [Counter(words(text.lower())) for text in texts]
    pairs = list(combinations(bags, 2))
    if not pairs:
        return None
    fields = {
        "hit": np.array([sum((a & b).values()) for a, b in pairs], dtype=float),
        "extracted": np.array([a.total() for a, _ in pairs], dtype=float),
        "gold": np.array([b.total() for _, b in pairs], dtype=float),
    }
    return float(page_scores(fields)[2].mean())


def refresh_disagreement(
    session: Session, page_ids: Sequence[int], *, fingerprints: Collection[str] | None = None
) -> None:
    """Recompute and store the disagreement of these pages (the caller commits).

    Every stored extraction of a page counts, unless ``fingerprints`` is given: then only the
    extractions made by those extractor fingerprints (the current ones, say) do.
    """
    wanted = None if fingerprints is None else list(fingerprints)
    for start in range(0, len(page_ids), CHUNK):
        chunk = list(page_ids[start : start + CHUNK])
        texts: dict[int, list[str]] = {page_id: [] for page_id in chunk}
        query = with_scored(select(Extraction.page_id, scored("text"), scored("error"))).where(
            Extraction.page_id.in_(chunk), Extraction.extractor.not_in(METADATA_ONLY)
        )
        if wanted is not None:
            query = query.where(Extraction.fingerprint.in_(wanted))
        for page_id, text, error in session.execute(query.order_by(Extraction.id)):
            if error is None:
                texts[page_id].append(text)
        session.execute(
            update(Page),
            [{"id": page_id, "disagreement": mean_pairwise_f1(found)} for page_id, found in texts.items()],
        )
