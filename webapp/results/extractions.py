"""What the figures need to know of the stored extractions: the current extractors' fingerprints, every
stored fingerprint, references to one, and texts for diffs. What versions live figures is the extraction
epoch (store.epochs), which the database bumps on every change to the extractions (migration 0012)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..extractors.base import Extractor
from ..extractors.extraction_service import current_extractors
from ..extractors.scored_output import scored, with_scored
from ..models import Extraction


def current_named(session: Session, registry: Mapping[str, Extractor], names: Sequence[str] = ()) -> dict[str, str]:
    """Display name -> current fingerprint of the named extractors (all registered when none are named).
    UnknownExtractor (a ValueError) names any unknown one."""
    return {e.name: e.fingerprint for e in current_extractors(session, registry, names)}


def stored_fingerprints(session: Session) -> list[dict[str, Any]]:
    """Every stored (extractor, fingerprint) with its number of extractions, by extractor."""
    rows = session.execute(
        select(Extraction.extractor, Extraction.fingerprint, func.count(Extraction.id))
        .group_by(Extraction.extractor, Extraction.fingerprint)
        .order_by(Extraction.extractor, Extraction.fingerprint)
    )
    return [{"extractor": e, "fingerprint": fp, "extractions": n} for e, fp, n in rows]


def resolve_ref(session: Session, registry: Mapping[str, Extractor], ref: str) -> tuple[str, str]:
    """A stored fingerprint as (itself, itself), or an extractor name as (name, its current fingerprint),
    as `goldtext compare` reads its arguments; UnknownExtractor otherwise."""
    stored = session.scalar(select(Extraction.fingerprint).where(Extraction.fingerprint == ref).limit(1))
    if stored is not None:
        return ref, ref
    return next(iter(current_named(session, registry, (ref,)).items()))


def texts_of(session: Session, page_ids: Sequence[int], fingerprints: Sequence[str]) -> dict[int, dict[str, str]]:
    """page -> fingerprint -> the text scored (extractors/scored_output.py), for head-to-head diffs."""
    rows = session.execute(with_scored(
        select(Extraction.page_id, Extraction.fingerprint, scored("text"))
        .where(Extraction.page_id.in_(list(page_ids)), Extraction.fingerprint.in_(list(fingerprints)))
    ))
    result: dict[int, dict[str, str]] = {}
    for page, fp, text in rows:
        result.setdefault(page, {})[fp] = text
    return result

