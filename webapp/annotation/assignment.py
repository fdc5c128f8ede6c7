"""Explicit assignment: pages given to an annotator (`goldtext assign`, the lead's console).

An assigned page comes first in its annotator's own queue and holds one of its OVERLAP places for them,
so that other annotators are offered it only while places remain (annotation/page_queue.py, ``own_queue``).
Only pages that still have a free place are assigned: no gold, fewer than OVERLAP annotators holding a
place, and neither assigned to nor annotated by this annotator already. An assignment can be removed
(``unassign``): the place is free again. Both answer the (page id, annotator) pairs they changed, which
the lead's console keeps to undo the change (``restore_pairs``, ``drop_pairs``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from ..models import Annotation, Assignment, Gold, Page
from .control import control_of
from .page_filter import PageFilter
from .page_queue import ORDER, places_taken

Pair = tuple[int, str]
"""A page id and the annotator it is (or was) assigned to."""


def selected(selection: PageFilter, page_ids: Sequence[int] = ()):
    """The pages the filter selects (of ``page_ids`` only, when given), as a query of their ids."""
    query = selection.where(select(Page.id).outerjoin(Gold, Gold.page_id == Page.id))
    return query.where(Page.id.in_(page_ids)) if page_ids else query


def assign(session: Session, annotators: tuple[str, ...], selection: PageFilter, overlap: int,
           limit: int | None = None, page_ids: Sequence[int] = ()) -> list[Pair]:
    """Assign to each annotator in turn the pages the filter selects (of ``page_ids`` only, when given)
    that still have a place for them (in queue order, at most ``limit`` per annotator); returns the
    assignments made."""
    made: list[Pair] = []
    for name in annotators:
        theirs = exists().where(Assignment.page_id == Page.id, Assignment.author == name)
        started = exists().where(Annotation.page_id == Page.id, Annotation.author == name)
        query = selected(selection, page_ids).where(Gold.page_id.is_(None), ~theirs, ~started,
                                                    places_taken() < overlap)
        pages = list(session.scalars(query.order_by(*ORDER).limit(limit)))
        session.add_all(Assignment(page_id=page, author=name) for page in pages)
        session.flush()  # the next annotator sees these places taken
        made += [(page, name) for page in pages]
    return made


def unassign(session: Session, annotators: tuple[str, ...], selection: PageFilter, page_id: int | None = None,
             page_ids: Sequence[int] = ()) -> list[Pair]:
    """Remove the assignments to these annotators of the pages the filter selects (of that page only, or
    of ``page_ids`` only, when given); their annotations stay. Returns the assignments removed."""
    chosen = selected(selection, (page_id,) if page_id is not None else page_ids)
    found = list(session.scalars(select(Assignment).where(Assignment.author.in_(annotators),
                                                          Assignment.page_id.in_(chosen))
                                 .order_by(Assignment.id)))
    for assignment in found:
        session.delete(assignment)
    session.flush()
    return [(a.page_id, a.author) for a in found]


def drop_pairs(session: Session, pairs: Iterable[Pair]) -> list[Pair]:
    """Remove these assignments where they still exist; returns those removed."""
    removed = []
    for page_id, name in pairs:
        found = session.scalars(select(Assignment).where(Assignment.page_id == page_id,
                                                         Assignment.author == name)).one_or_none()
        if found is not None:
            session.delete(found)
            removed.append((page_id, name))
    session.flush()
    return removed


def restore_pairs(session: Session, pairs: Iterable[Pair]) -> list[Pair]:
    """Assign these pages again where the page still exists, has no gold (or is a control page) and is
    not assigned to that annotator already; returns those assigned."""
    added = []
    for page_id, name in pairs:
        page = session.get(Page, page_id)
        taken = session.scalar(select(Assignment.id).where(Assignment.page_id == page_id,
                                                           Assignment.author == name))
        if page is None or taken is not None or (page.gold is not None and control_of(session, page_id) is None):
            continue
        session.add(Assignment(page_id=page_id, author=name))
        added.append((page_id, name))
    session.flush()
    return added
