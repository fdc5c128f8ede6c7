"""Adjudication: a reviewer turns a page's independent annotations into its gold.

The reviewer's queue holds the pages whose annotations are complete (annotations.is_complete) and that
have no gold yet, most disagreeing first: the lowest mean pairwise text F1 between the annotators, then
the lowest type agreement, then by page id. The reviewer's result is saved as the page's gold with a note
(a save like any other: versions, stale saves kept). Annotators then see the outcome in their reviewed
list: the gold against their own text, and the note.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from ..models import Annotation, ControlPage, Gold, Page, Site
from ..scoring.agreement_maths import AnnotatedPage, PageAgreement, Said, page_agreement
from .annotations import DRAFT, FINISHED, VOID
from .gold import SaveOutcome, new_gold, save_record


@dataclass(frozen=True)
class ReviewRow:
    page_id: int
    url: str | None
    source_name: str
    host: str
    annotators: tuple[str, ...]
    agreement: PageAgreement


def annotated(page_id: int, annotations: list[Annotation]) -> AnnotatedPage:
    return AnnotatedPage(page_id, tuple(Said(a.author, a.text, a.page_type, a.snippets,
                                             article_metadata=a.article_metadata) for a in annotations))


def review_queue(session: Session, overlap: int, limit: int | None = None) -> list[ReviewRow]:
    """The pages waiting for adjudication, most disagreeing first."""
    finished = func.sum(case((Annotation.status.in_(FINISHED), 1), else_=0))
    drafts = func.sum(case((Annotation.status == DRAFT, 1), else_=0))
    complete = (
        select(Annotation.page_id)
        .outerjoin(Gold, Gold.page_id == Annotation.page_id)
        .where(Gold.page_id.is_(None), Annotation.status != VOID)
        .group_by(Annotation.page_id)
        .having(finished >= overlap, drafts == 0)
    )
    pages = {row.id: row for row in session.execute(
        select(Page.id, Page.url, Page.source_name, Site.host).join(Site, Site.id == Page.site_id)
        .where(Page.id.in_(complete))
    )}
    by_page: dict[int, list[Annotation]] = {page: [] for page in pages}
    counted = select(Annotation).where(Annotation.page_id.in_(pages), Annotation.status != VOID)
    for found in session.scalars(counted.order_by(Annotation.id)):
        by_page[found.page_id].append(found)
    rows = [
        ReviewRow(page, pages[page].url, pages[page].source_name, pages[page].host,
                  tuple(a.author for a in found), page_agreement(annotated(page, found)))
        for page, found in by_page.items()
    ]
    rows.sort(key=lambda r: (r.agreement.text_f1 or 0.0, r.agreement.type_agreement or 0.0, r.page_id))
    return rows[:limit] if limit is not None else rows


def adjudicate(session: Session, page: Page, reviewer: str, *, base_version: int, page_type: str,
               status: str, note: str, snippets: dict[str, Any] | None = None,
               client_save_id: str | None = None, effort: dict[str, Any] | None = None,
               provenance: dict[str, Any] | None = None, **facts: Any) -> SaveOutcome:
    """Save the reviewer's result as the page's gold, with their note, the effort it took and where its
    lines came from (lock the page first); a save that edited an older version of the gold is kept as a
    stale save, as any gold save is. The caller refreshes the page's scores when it is applied. ``facts``:
    its text and Markdown (annotation/gold_markdown.py), and what else the revision records beside them
    (models.RevisionFields)."""
    return save_record(session, page.gold, lambda: new_gold(page, reviewer), base_version=base_version,
                       page_type=page_type, status=status, author=reviewer, client_save_id=client_save_id,
                       snippets=snippets, note=note.strip() or None, effort=effort, provenance=provenance, **facts)


@dataclass(frozen=True)
class Reviewed:
    page_id: int
    url: str | None
    host: str
    mine: str
    my_page_type: str
    gold: str
    gold_page_type: str
    reviewer: str
    note: str | None
    at: datetime


_ReviewedRow = tuple[int, str | None, str, str, str, str, str, str, str | None, datetime]
"""A row of `reviewed`'s query: SQLAlchemy types a select of more than nine columns with an open tail."""


def reviewed(session: Session, annotator: str, limit: int = 100) -> list[Reviewed]:
    """The adjudicated pages the annotator annotated, newest gold first: their text beside the gold (never a
    control page: annotation/control.py)."""
    query = (
        select(Page.id, Page.url, Site.host, Annotation.text, Annotation.page_type, Gold.text, Gold.page_type,
               Gold.author,
               Gold.note, Gold.updated_at)
        .join(Site, Site.id == Page.site_id)
        .join(Annotation, Annotation.page_id == Page.id)
        .join(Gold, Gold.page_id == Page.id)
        .where(Annotation.author == annotator, Annotation.status != VOID,
               ~Page.id.in_(select(ControlPage.page_id)))  # a control page stays blind to its annotators
        .order_by(Gold.updated_at.desc(), Page.id)
        .limit(limit)
    )
    return [Reviewed(*cast(_ReviewedRow, row)) for row in session.execute(query)]
