"""Explicit assignment: pages given to an annotator (`goldtext assign`).

An assigned page comes first in its annotator's own queue and holds one of its OVERLAP places for them,
so that other annotators are offered it only while places remain (annotation/page_queue.py, ``own_queue``).
Only pages that still have a free place are assigned: no gold, fewer than OVERLAP annotators holding a
place, and neither assigned to nor annotated by this annotator already. An assignment can be removed
(``unassign``): the place is free again.
"""

from __future__ import annotations

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from ..models import Annotation, Assignment, Gold, Page
from .page_filter import PageFilter
from .page_queue import ORDER, places_taken


def assign(session: Session, annotators: tuple[str, ...], selection: PageFilter, overlap: int,
           limit: int | None = None) -> int:
    """Assign to each annotator in turn the pages the filter selects that still have a place for them
    (in queue order, at most ``limit`` per annotator); returns the assignments made."""
    made = 0
    for name in annotators:
        theirs = exists().where(Assignment.page_id == Page.id, Assignment.annotator == name)
        started = exists().where(Annotation.page_id == Page.id, Annotation.author == name)
        query = selection.where(select(Page.id).outerjoin(Gold, Gold.page_id == Page.id))
        query = query.where(Gold.page_id.is_(None), ~theirs, ~started, places_taken() < overlap)
        query = query.order_by(*ORDER).limit(limit)
        pages = list(session.scalars(query))
        session.add_all(Assignment(page_id=page, annotator=name) for page in pages)
        made += len(pages)
    session.flush()
    return made


def unassign(session: Session, annotators: tuple[str, ...], selection: PageFilter, page_id: int | None = None) -> int:
    """Remove the assignments to these annotators of the pages the filter selects (of that page only, when
    given); their annotations stay. Returns how many were removed."""
    chosen = selection.where(select(Page.id).outerjoin(Gold, Gold.page_id == Page.id))
    if page_id is not None:
        chosen = chosen.where(Page.id == page_id)
    found = list(session.scalars(select(Assignment).where(Assignment.annotator.in_(annotators),
                                                          Assignment.page_id.in_(chosen))))
    for assignment in found:
        session.delete(assignment)
    session.flush()
    return len(found)
