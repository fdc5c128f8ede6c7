"""Double annotation: each annotator's own annotation of a page, blind until the page is adjudicated.

With ``overlap`` (the OVERLAP setting) above 1, every page is annotated independently by ``overlap``
annotators: a save through the workbench or the API goes to the caller's own Annotation (same rules as a
gold save: versions, stale saves kept, retries applied once), and the page has no gold until it is
adjudicated (review.py). Until then the page is *blind*: nobody sees another's annotation, and
no score exists, since scores are computed against the gold. With overlap 1 there are no annotations:
the page's gold is its single annotation, edited as it always was.

A page has ``overlap`` *places*: its annotators hold them (those with an annotation of it, and those it is
assigned to who have none yet), and once they are full nobody else may annotate it (``place_refusal``).
An admin may *void* an annotation (``void``): it keeps its revisions, with one more recording the void, but
holds no place and counts in no agreement, queue or export.

A page's annotations are *complete* when ``overlap`` of them are finished (status done or skipped) and
none is a draft; a complete page on which every annotation says exactly the same (text, type, status, snippets and
article metadata) is adjudicated automatically (``settle``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from ..foundation.vocabulary import GOLD_STATUSES
from ..models import Annotation, AnnotationRevision, Assignment, Page, utcnow
from .gold import SaveOutcome, add_revision, append_revision, apply_revision, save_record
from .gold_markdown import views_from
from .provenance import agreed

DRAFT = "draft"
FINISHED = tuple(status for status in GOLD_STATUSES if status != DRAFT)
VOID = "void"
"""The status of an annotation an admin voided (not a gold status: no save can set it)."""


def is_blind(page: Page, overlap: int) -> bool:
    """Whether the page's annotations are hidden from one another: overlap above 1, not yet adjudicated."""
    return overlap > 1 and page.gold is None


def annotation_of(session: Session, page_id: int, author: str) -> Annotation | None:
    return session.scalars(
        select(Annotation).where(Annotation.page_id == page_id, Annotation.author == author)
    ).one_or_none()


def annotations_of(session: Session, page_id: int) -> list[Annotation]:
    """The page's annotations that count (not voided), in the order they were first saved."""
    return list(session.scalars(select(Annotation).where(Annotation.page_id == page_id, Annotation.status != VOID)
                                .order_by(Annotation.id)))


def place_holders(session: Session, page_id: int) -> list[str]:
    """Who holds the page's places: the annotators of its annotations that count, in the order they first
    saved, then those it is assigned to who have no annotation yet."""
    annotated = [a.author for a in annotations_of(session, page_id)]
    started = exists().where(Annotation.page_id == page_id, Annotation.author == Assignment.author)
    reserved = session.scalars(select(Assignment.author).where(Assignment.page_id == page_id, ~started)
                               .order_by(Assignment.id))
    return annotated + list(reserved)


def place_refusal(session: Session, page: Page, annotator: str, overlap: int) -> str | None:
    """Why the annotator may not save an annotation of the page (None: they may): their annotation was
    voided, or the page's ``overlap`` places are held by others."""
    mine = annotation_of(session, page.id, annotator)
    if mine is not None and mine.status == VOID:
        return f"Your annotation of page {page.id} was voided by an admin: it holds no place any more."
    holders = place_holders(session, page.id)
    if annotator in holders or len(holders) < overlap:
        return None
    return (f"Page {page.id}'s {overlap} places are taken by other annotators: it is read-only for you "
            "(annotations are blind until the page is adjudicated).")


def void(session: Session, annotation: Annotation, by: str) -> AnnotationRevision:
    """Void the annotation (see VOID): its status becomes void, recorded as a new revision by ``by``
    (the admin), so that its history keeps what it said. Lock the page first."""
    annotation.version += 1
    annotation.status = VOID
    annotation.updated_at = utcnow()
    revision = append_revision(session, annotation, annotation.version, **views_from(annotation).fields(),
                               page_type=annotation.page_type,
                               status=VOID, snippets=annotation.snippets, author=by,
                               article_metadata=annotation.article_metadata)
    session.flush()
    assert isinstance(revision, AnnotationRevision)
    return revision


def save_annotation(session: Session, page: Page, author: str, *, base_version: int, text: str, page_type: str,
                    status: str, client_save_id: str | None = None,
                    snippets: dict[str, Any] | None = None, **facts: Any) -> SaveOutcome:
    """Apply the annotator's save of their own annotation of the page (see gold.save_gold: lock the
    page first; stale saves are kept, retries answered from the revision they made; ``facts`` as there)."""
    found = annotation_of(session, page.id, author)

    def create() -> Annotation:
        made = Annotation(page_id=page.id, author=author, version=0)
        session.add(made)
        return made

    return save_record(session, found, create, base_version=base_version, text=text, page_type=page_type,
                       status=status, author=author, client_save_id=client_save_id, snippets=snippets,
                       **facts)


def add_annotation(session: Session, page: Page, author: str, *, text: str | None, page_type: str, status: str,
                   markdown: str | None = None, provenance: dict[str, Any] | None = None,
                   guideline_version: int | None = None,
                   article_metadata: dict[str, Any] | None = None) -> Annotation:
    """Store an annotator's own annotation of a page that has none by them (an export's annotation read
    back by an import, checked by the import use case) as its first revision, by the annotator; its text
    and Markdown as given (one alone: the other is made from it, annotation/gold_markdown.py), with its
    article metadata (None: none annotated)."""
    made = Annotation(page_id=page.id, author=author, version=0)
    session.add(made)
    views = {key: value for key, value in (("text", text), ("markdown", markdown)) if value is not None}
    apply_revision(session, made, author=author, page_type=page_type, status=status, snippets=None,
                   client_save_id=None, provenance=provenance, guideline_version=guideline_version,
                   article_metadata=article_metadata, **views)
    return made


def is_complete(annotations: Sequence[Annotation], overlap: int) -> bool:
    """``overlap`` annotations finished, and none still a draft."""
    finished = sum(a.status in FINISHED for a in annotations)
    return finished >= overlap and finished == len(annotations)


def same(annotations: Sequence[Annotation]) -> bool:
    """Every annotation says exactly the same: text and Markdown (ends trimmed), type, status, snippets and
    article metadata (each field the same value, none on the page, or not annotated)."""
    said = {(a.text.strip(), a.markdown.strip(), a.page_type, a.status, repr(a.snippets),
             json.dumps(a.article_metadata or {}, sort_keys=True)) for a in annotations}
    return len(said) == 1


SYSTEM = "system"
"""The author of an automatic adjudication: nobody adjudicated, so no annotator is credited with it."""


def settle(session: Session, page: Page, overlap: int, guideline_version: int | None = None) -> bool:
    """Adjudicate the page automatically when its annotations are complete and all the same (the gold
    is their text, recorded as saved by SYSTEM, not by whoever's save completed them, with a note saying
    so, and the guideline version in force); returns whether it did. The caller refreshes the page's
    scores when it did."""
    if not is_blind(page, overlap):
        return False
    session.flush()
    annotations = annotations_of(session, page.id)
    if not annotations or not is_complete(annotations, overlap) or not same(annotations):
        return False
    first = annotations[0]
    names = " and ".join(sorted(a.author for a in annotations))
    add_revision(session, page, **views_from(first).fields(), page_type=first.page_type, status=first.status,
                 author=SYSTEM,
                 snippets=first.snippets, note=f"Adjudicated automatically: {names} agree exactly.",
                 provenance=agreed(first.text, first.article_metadata), guideline_version=guideline_version,
                 article_metadata=first.article_metadata)
    return True
