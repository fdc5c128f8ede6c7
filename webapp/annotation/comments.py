"""Comments on a page, on one of its lines, and a lead's requests for changes; who may read which.

A comment is on a page, or on one line of it (quoted: a disputed line of the adjudication, or any line of
an annotation). A comment ``about`` an annotator is about their work; a request for changes (kind
CHANGES) is one about an annotator, sent with their annotation back to draft (usecases/feedback.py).

Who reads what, so that blind annotation holds: a lead (a reviewer or an admin) reads every comment; an
annotator reads the comments about their own work at any time, and, once the page is no longer blind to
them (adjudicated, or with overlap 1 once it has gold; a control page given to them stays blind to them),
the comments on the page itself. Comments about another annotator's work stay between that annotator and
the leads.

A request for changes is *open* until its annotator saves their annotation of the page again (or, with
overlap 1, the page's gold) after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, and_, exists, or_, select
from sqlalchemy.orm import Session

from ..models import Annotation, Gold, Page, PageComment, Site
from .annotations import is_blind
from .control import is_control_for

COMMENT = "comment"
CHANGES = "changes"
BODY_MAX = 10_000  # characters of a comment
LINE_MAX = 2_000  # characters of the quoted line


def blind_to(session: Session, page: Page, annotator: str, overlap: int) -> bool:
    """Whether the page's annotations and gold are hidden from this annotator: blind, or a control page
    given to them."""
    return is_blind(page, overlap) or is_control_for(session, page.id, annotator)


def thread(session: Session, page: Page, reader: str, lead: bool, overlap: int) -> list[PageComment]:
    """The page's comments the reader may read (see the rules), oldest first."""
    query = select(PageComment).where(PageComment.page_id == page.id).order_by(PageComment.id)
    if not lead:
        mine = PageComment.about == reader
        if blind_to(session, page, reader, overlap):
            query = query.where(mine)
        else:
            query = query.where(or_(mine, PageComment.about.is_(None)))
    return list(session.scalars(query))


def _answered() -> ColumnElement[bool]:
    """Whether a request (correlated to PageComment) was answered: its annotator saved since."""
    annotation = exists().where(Annotation.page_id == PageComment.page_id, Annotation.author == PageComment.about,
                                Annotation.updated_at > PageComment.created_at)
    gold = exists().where(Gold.page_id == PageComment.page_id, Gold.author == PageComment.about,
                          Gold.updated_at > PageComment.created_at)
    return or_(annotation, gold)


@dataclass(frozen=True)
class OpenRequest:
    id: int
    page_id: int
    url: str | None
    host: str
    annotator: str | None  # always named: a request is about an annotator's work
    author: str
    body: str
    at: datetime


def open_requests(session: Session, annotator: str | None = None, page_id: int | None = None) -> list[OpenRequest]:
    """The open requests for changes (of one annotator, of one page, when given), oldest first."""
    query = (select(PageComment.id, PageComment.page_id, Page.url, Site.host, PageComment.about, PageComment.author,
                    PageComment.body, PageComment.created_at)
             .join(Page, Page.id == PageComment.page_id).join(Site, Site.id == Page.site_id)
             .where(and_(PageComment.kind == CHANGES, ~_answered())).order_by(PageComment.id))
    if annotator is not None:
        query = query.where(PageComment.about == annotator)
    if page_id is not None:
        query = query.where(PageComment.page_id == page_id)
    return [OpenRequest(*row) for row in session.execute(query)]
