"""Control pages: pages whose gold is known, mixed blind into annotators' queues to score them.

A lead makes a page with gold a control page (its known gold is kept as it is then, models.ControlPage)
and gives it to annotators (an Assignment each). For such an annotator the page is *blind* as a page
without gold is: it comes in their own queue like any assigned page, the annotate view starts from the
prefill, shows no score against the gold and no history of it, and their saves go to their own
Annotation (usecases/save.py), never to the gold. Their finished annotation is scored against the known
gold in the leaderboard's own metric (results/control_figures.py). Nothing the annotator sees says that the
page is a control page; the page's gold, its scores and everyone else's view of it are unchanged.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, exists, or_, select
from sqlalchemy.orm import Session

from ..models import Annotation, Assignment, ControlPage, Page


def control_of(session: Session, page_id: int) -> ControlPage | None:
    return session.scalars(select(ControlPage).where(ControlPage.page_id == page_id)).one_or_none()


def given_control(annotator: str) -> ColumnElement[bool]:
    """Whether the page (correlated to Page) is a control page given to ``annotator``: assigned to them,
    or annotated by them."""
    return exists().where(ControlPage.page_id == Page.id) & or_(
        exists().where(Assignment.page_id == Page.id, Assignment.author == annotator),
        exists().where(Annotation.page_id == Page.id, Annotation.author == annotator))


def is_control_for(session: Session, page_id: int, annotator: str) -> bool:
    """Whether the page is a control page given to ``annotator`` (see ``given_control``)."""
    if not annotator:
        return False
    return session.scalar(select(given_control(annotator)).select_from(Page).where(Page.id == page_id)) or False


def controls_given(session: Session, annotator: str) -> set[int]:
    """The ids of the control pages given to ``annotator``."""
    return set(session.scalars(select(Page.id).where(given_control(annotator))))
