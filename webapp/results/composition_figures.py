"""What the leaderboard says of compositions and versions beside the figures.

- **compositions**: each composition shown, marked with its kind and parts, and the gold pages where it has no
  extraction because a part has none (a composition is derived from its parts' stored extractions, never run).
- **outdated**: the extractions made by another version of an extractor shown (another fingerprint under its name:
  an older library version, other options) on pages it has no extraction of at its current fingerprint; those
  pages' scores were made by the old version and are not on the board. `goldtext extract --outdated` re-runs
  exactly those.
- **best cascade**: the best cascade of two found on the gold, with its leave-one-out figure
  (scoring/cascade_choice.py), over the extractors shown that are not compositions.

Functions take a session (or the synced score cache) and never write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import distinct, func, select
from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..extractors.base import Extractor
from ..extractors.composition_rows import stored_compositions
from ..foundation.vocabulary import DONE
from ..models import Extraction, Gold
from ..scoring import resolve_metric
from ..scoring.cascade_choice import best_cascade
from .cache import ScoreCache


def version_of(fingerprint: str) -> str:
    """The version a fingerprint (name|version|options) holds."""
    parts = fingerprint.split("|")
    return parts[1] if len(parts) > 2 else fingerprint


def gold_pages_with(session: Session, fingerprint: str) -> set[int]:
    done = select(Gold.page_id).where(Gold.status == DONE)
    return set(session.scalars(select(Extraction.page_id).where(Extraction.fingerprint == fingerprint,
                                                                Extraction.page_id.in_(done))))


def compositions_shown(session: Session, known: Mapping[str, Extractor], shown: list[str]) -> dict[str, Any]:
    """Per composition shown: its kind, parts, and the done gold pages it lacks because a part lacks them (how
    many, and of each part how many it lacks)."""
    gold = set(session.scalars(select(Gold.page_id).where(Gold.status == DONE)))
    found = {}
    for name in shown:
        extractor = known.get(name)
        if extractor is None or not extractor.parts:
            continue
        lacking = gold - gold_pages_with(session, extractor.fingerprint)
        by_part = {part: len(gold - gold_pages_with(session, known[part].fingerprint))
                   for part in extractor.parts if part in known}
        found[name] = {"kind": extractor.options["kind"], "parts": list(extractor.parts),
                       "description": extractor.description, "missing_pages": len(lacking),
                       "missing_by_part": {part: n for part, n in by_part.items() if n}}
    return found


def composition_mark(session: Session, name: str) -> dict[str, Any] | None:
    """A composition's kind, parts and description, for a view that names it (None: NAME is no composition)."""
    for composition in stored_compositions(session):
        if composition.name == name:
            return {"kind": composition.kind, "parts": list(composition.parts), "description": composition.describe()}
    return None


def mark_sides(session: Session, result: dict[str, Any]) -> None:
    """A head-to-head's sides (`a`, `b`) each marked with its `composition` (None for an extractor)."""
    for side in ("a", "b"):
        result[side]["composition"] = composition_mark(session, result[side]["name"])


def outdated(session: Session, named: Mapping[str, str]) -> list[dict[str, Any]]:
    """Per extractor (display name -> current fingerprint) and older fingerprint: the pages extracted only by
    that older one, and of them the done gold pages (whose scores it made)."""
    gold = select(Gold.page_id).where(Gold.status == DONE)
    found = []
    for name, current in named.items():
        now = select(Extraction.page_id).where(Extraction.fingerprint == current)
        rows = session.execute(
            select(Extraction.fingerprint, func.count(distinct(Extraction.page_id)),
                   func.count(distinct(Extraction.page_id)).filter(Extraction.page_id.in_(gold)))
            .where(Extraction.extractor == name, Extraction.fingerprint != current, Extraction.page_id.not_in(now))
            .group_by(Extraction.fingerprint).order_by(Extraction.fingerprint))
        for fingerprint, pages, gold_pages in rows:
            found.append({"extractor": name, "fingerprint": fingerprint, "version": version_of(fingerprint),
                          "current_version": version_of(current), "pages": pages, "gold_pages": gold_pages})
    return found


def best_cascade_of(cache: ScoreCache, metric: str, average: str | None, named: Mapping[str, str],
                    filters: PageFilter) -> dict[str, Any] | None:
    """The best cascade of two of these extractors (display name -> fingerprint) on the pages they all scored."""
    aligned = cache.aligned(metric, list(named.values()), filters)
    if len(aligned) < 2:
        return None
    return best_cascade(resolve_metric(cache.metrics, metric), average,
                        {name: aligned.fields(fp) for name, fp in named.items()},
                        {name: aligned.accepted(fp) for name, fp in named.items()})
