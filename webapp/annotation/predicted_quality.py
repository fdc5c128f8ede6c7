"""rs-trafilatura's prediction of its own extraction's quality on a page (`extraction_quality` in the metadata of
its extraction, 0 to 1; see webapp/extractors/with_rust.py), stored on the page for the annotation queue's "least
confident first" order.

It is copied from the extraction where extractions change (after an extraction run or an upload's background job,
beside the disagreement), never in a request: the page's current `rs-trafilatura` extraction that answered gives
it, and a page without one has none.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..extractors.scored_output import scored, with_scored
from ..extractors.with_rust import QUALITY
from ..models import Extraction, Page

PREDICTOR = "rs-trafilatura"
"""The extractor whose prediction the page keeps."""
CHUNK = 500


def refresh_predicted_quality(
    session: Session, page_ids: Sequence[int], *, fingerprints: Collection[str] | None = None
) -> None:
    """Store the predicted quality of these pages (the caller commits): their rs-trafilatura extraction's, of one of
    ``fingerprints`` when given (the current ones, say), the latest where several qualify; None without one."""
    wanted = None if fingerprints is None else list(fingerprints)
    for start in range(0, len(page_ids), CHUNK):
        chunk = list(page_ids[start : start + CHUNK])
        found: dict[int, float | None] = dict.fromkeys(chunk)
        query = with_scored(select(Extraction.page_id, scored("meta"), scored("error")).where(
            Extraction.page_id.in_(chunk), Extraction.extractor == PREDICTOR))  # its output scored for the page
        if wanted is not None:
            query = query.where(Extraction.fingerprint.in_(wanted))
        for page_id, meta, error in session.execute(query.order_by(Extraction.id)):
            value = None if error is not None else (meta or {}).get(QUALITY)
            if isinstance(value, (int, float)):
                found[page_id] = float(value)
        session.execute(update(Page), [{"id": page_id, "predicted_quality": value} for page_id, value in found.items()])
