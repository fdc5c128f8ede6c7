"""Void: an admin takes an annotation out of a page's places (an outsider's, a mistaken one). The
annotation keeps its revisions, with one more by the admin recording the void; it holds no place and
counts in no agreement, queue, adjudication or export; its annotator may not save it again. If the page's
remaining annotations then fill its places and agree exactly, it is adjudicated automatically, as a save
would. Its checks are asked to run again (jobs/follow_checks.py). Audited."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..annotation.annotations import VOID, annotation_of, settle, void
from ..foundation.settings import Settings
from ..models import AnnotationRevision, Job
from ..results.store import annotations_changed, gold_changed
from .follow_up_checks import follow_gold
from .outcome import Actor, Refused, needs
from .save import locked_page


@dataclass(frozen=True)
class Voided:
    revision: AnnotationRevision  # the revision recording the void
    automatic: bool  # the page was then adjudicated automatically
    check: Job | None = None  # the check job it queued (the face dispatches it after its commit)


@needs(ADMIN, "Only an admin voids an annotation.")
def void_annotation(session: Session, settings: Settings, actor: Actor, page_id: int, author: str) -> Voided:
    """Void the annotator's annotation of the page; Refused (403 not an admin, 404 none, 409 voided
    already). Never commits."""
    page = locked_page(session, page_id)
    annotation = annotation_of(session, page_id, author)
    if annotation is None:
        raise Refused(404, f"Page {page_id} has no annotation by {author!r}.")
    if annotation.status == VOID:
        raise Refused(409, f"{author!r}'s annotation of page {page_id} is voided already.")
    revision = void(session, annotation, actor.name)
    actor.record(session, Action.ANNOTATION_VOID, f"page {page_id}", {"author": author, "revision": revision.id})
    automatic = settle(session, page, settings.overlap)
    if automatic:
        gold_changed(session, settings.eager, page_id, no_content=settings.taxonomy.no_content)
        actor.record(session, Action.ADJUDICATE, f"page {page_id}", {"automatic": True})
    else:
        annotations_changed(session, page_id)
    return Voided(revision, automatic, follow_gold(session, settings))
