"""The Effort page's figures: the time and actions each annotator spent per page, from the effort their
revisions record (annotation/effort_record.py), by annotator, page type and prefill source, with medians and
counts; and an annotator's own pace, shown in the annotate view.

A page's effort, for one annotator, is the sum of the efforts of every revision they saved of it (of its
gold, or of their own annotation with double annotation; stale saves too: the work was done). Its page
type is the one of their last such revision; its prefill source is `provenance["prefill"]["source"]` of
their first revision that records one (branch `record` writes it), else "unknown". Revisions without an
effort (saved before it was recorded, by the API, restored or imported) count for nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..annotation.effort_record import ACTIONS
from ..models import Annotation, AnnotationRevision, Gold, GoldRevision

UNKNOWN = "unknown"
GROUPINGS = {"annotator": "annotator", "type": "page type", "prefill": "prefill source"}


@dataclass
class PageEffort:
    """One annotator's effort on one page."""

    page_id: int
    annotator: str
    page_type: str
    prefill: str
    seconds: float = 0.0
    actions: dict[str, int] = field(default_factory=dict)
    revisions: int = 0

    @property
    def action_count(self) -> int:
        return sum(self.actions.values())


def page_efforts(session: Session, annotator: str | None = None) -> list[PageEffort]:
    """Every (page, annotator) with a recorded effort, in the order of their first such revision;
    ``annotator``: theirs only."""
    rows: list[tuple[Any, ...]] = []
    tables: tuple[tuple[Any, Any, Any], ...] = ((GoldRevision, Gold, GoldRevision.gold_id),
                                                (AnnotationRevision, Annotation, AnnotationRevision.annotation_id))
    for revision, record, owner in tables:
        query = (select(revision.created_at, revision.id, record.page_id, revision.author, revision.page_type,
                        revision.provenance["prefill"]["source"].as_string(), revision.effort)
                 .join(record, owner == record.id)
                 .where(revision.effort.is_not(None)))
        if annotator is not None:
            query = query.where(revision.author == annotator)
        rows.extend(session.execute(query).all())
    found: dict[tuple[int, str], PageEffort] = {}
    for _, _, page_id, author, page_type, prefill, effort in sorted(rows, key=lambda row: (row[0], row[1])):
        one = found.setdefault((page_id, author), PageEffort(page_id, author, page_type, UNKNOWN))
        one.page_type = page_type
        if one.prefill == UNKNOWN and prefill:
            one.prefill = prefill
        one.seconds += float(effort.get("active_seconds") or 0)
        for name, count in (effort.get("actions") or {}).items():
            one.actions[name] = one.actions.get(name, 0) + int(count)
        one.revisions += 1
    return list(found.values())


def summary(efforts: Sequence[PageEffort]) -> dict[str, Any]:
    """Pages, their total and median active seconds and actions, and each action's total and median
    per page (an action a page lacks counts 0 there)."""
    if not efforts:
        return {"pages": 0, "seconds": {"total": 0.0, "median": None}, "actions": {"total": 0, "median": None},
                "by_action": {}}
    names = [name for name in ACTIONS if any(name in e.actions for e in efforts)]
    return {
        "pages": len(efforts),
        "seconds": {"total": round(sum(e.seconds for e in efforts), 1),
                    "median": round(median(e.seconds for e in efforts), 1)},
        "actions": {"total": sum(e.action_count for e in efforts), "median": median(e.action_count for e in efforts)},
        "by_action": {name: {"total": sum(e.actions.get(name, 0) for e in efforts),
                             "median": median(e.actions.get(name, 0) for e in efforts)} for name in names},
    }


def grouped(efforts: Iterable[PageEffort], by: str) -> dict[str, dict[str, Any]]:
    """``summary`` per value of ``by`` (one of GROUPINGS), by name."""
    groups: dict[str, list[PageEffort]] = defaultdict(list)
    for one in efforts:
        groups[getattr(one, "page_type" if by == "type" else by)].append(one)
    return {name: summary(groups[name]) for name in sorted(groups)}


def effort_figures(session: Session, annotator: str | None = None, listed: int = 100) -> dict[str, Any]:
    """The Effort page and its JSON twin: every page's effort summed up, then by each of GROUPINGS, and
    the ``listed`` newest pages one by one; ``annotator``: theirs only."""
    efforts = page_efforts(session, annotator)
    return {
        "annotator": annotator,
        "all": summary(efforts),
        "by": {by: grouped(efforts, by) for by in GROUPINGS},
        "pages": [{"page": e.page_id, "annotator": e.annotator, "type": e.page_type, "prefill": e.prefill,
                   "seconds": round(e.seconds, 1), "actions": e.actions, "revisions": e.revisions}
                  for e in reversed(efforts[-listed:])] if listed else [],
    }


def pace(session: Session, annotator: str, page_id: int) -> dict[str, Any]:
    """The annotator's pace for the annotate view: the seconds their saves of this page recorded, and the
    median seconds of their pages (this one included) and how many."""
    efforts = page_efforts(session, annotator)
    here = next((e.seconds for e in efforts if e.page_id == page_id), 0.0)
    return {"savedSeconds": round(here, 1), "pages": len(efforts),
            "medianSeconds": round(median(e.seconds for e in efforts), 1) if efforts else None}
