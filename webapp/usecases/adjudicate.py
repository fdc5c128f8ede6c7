"""Adjudicate: a reviewer's result saved as the gold of a page whose places are full and done.

The rules: the page is locked; it must be complete (its OVERLAP places held by annotations that are all
finished, none a draft, voided ones left out: the pages of the adjudication queue) or already adjudicated
(409 otherwise); a reviewer never adjudicates a page they annotated themselves (403); the fields are
checked as a save's are (usecases/fields.py: the result is Markdown, its plain text derived, and its
metadata fields, each chosen from the annotators' or typed); the result
is a save of the gold with the reviewer's note (versions, stale saves kept); the page's scores are
refreshed and its checks asked to run again (jobs/follow_checks.py) when the gold changed; it is audited."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import REVIEWER
from ..annotation.annotations import annotations_of, is_complete
from ..annotation.gold_markdown import edited_text
from ..annotation.guideline_versions import version_in_force
from ..annotation.review import adjudicate
from ..foundation.settings import Settings
from ..models import Page
from ..results.store import gold_changed
from .bodies import ADJUDICATION, validated
from .fields import Fields, checked_fields, saved_views
from .follow_up_checks import follow_gold
from .outcome import Actor, Refused, needs
from .save import Saved, locked_page, provenance_of

NOTE_MAX = 2000


@dataclass(frozen=True)
class AdjudicationRequest:
    fields: Fields
    version: int  # the version of the gold the reviewer edited (0: none yet)
    note: str
    effort: dict[str, Any] | None = None  # what the adjudication took (annotation/effort_record.py), recorded
    provenance: dict[str, Any] | None = None  # where the result's lines came from (annotation/provenance.py)


def adjudication_request(settings: Settings, *, version: Any, page_type: Any, status: Any, note: str,
                         snippets: Any, markdown: str | None = None, text: str | None = None, effort: Any = None,
                         provenance: Any = None, metadata: Any = None) -> AdjudicationRequest:
    """The reviewer's result: its Markdown (its plain text derived), or for older forms its text alone
    (usecases/fields.py `saved_views`); ``snippets``: as the API takes them, None for the gold's current
    ones; ``effort``: None or as a save's; ``provenance``: None when not recorded, else one origin per
    line of the view the reviewer edited; ``metadata``: the result's title, authors and published (None:
    keep the gold's). Its shape is checked against usecases/bodies.py `ADJUDICATION`;
    Refused (400, 413) naming what is wrong. The note is cut to NOTE_MAX characters."""
    given = {"markdown": markdown, "text": text, "effort": effort, "provenance": provenance, "metadata": metadata}
    validated(ADJUDICATION, {"version": version, "type": page_type, "status": status, "note": note,
                             "snippets": snippets, **{key: value for key, value in given.items() if value is not None}})
    views = saved_views(markdown, None if text is None else text.replace("\r\n", "\n"))
    fields = checked_fields(settings, views=views, page_type=page_type, status=status, snippets=snippets,
                            metadata=metadata)
    checked = None if provenance is None else provenance_of(provenance, edited_text(views))
    return AdjudicationRequest(fields, version, note[:NOTE_MAX], effort,
                               checked)


def adjudication_refusal(session: Session, settings: Settings, page: Page, reviewer: str) -> Refused | None:
    """Why the reviewer may not adjudicate the page (None: they may): 403 their own annotation, 409 a page
    whose places are not full and done."""
    annotations = annotations_of(session, page.id)
    if reviewer in {a.author for a in annotations}:
        return Refused(403, f"You annotated page {page.id} yourself: another reviewer adjudicates it "
                            "(nobody adjudicates their own annotation).")
    if page.gold is None and not is_complete(annotations, settings.overlap):
        return Refused(409, f"Page {page.id} is not ready for adjudication: its {settings.overlap} places are not "
                            "all held by finished annotations (one is a draft, or a place is free).")
    return None


@needs(REVIEWER, "Only a reviewer or an admin adjudicates a page.")
def adjudicate_page(session: Session, settings: Settings, actor: Actor, page_id: int,
                    request: AdjudicationRequest) -> Saved:
    """Save the reviewer's result by the rules above; Refused (404, 403, 409, 400) when it is not taken.
    Never commits."""
    page = locked_page(session, page_id)
    refusal = adjudication_refusal(session, settings, page, actor.name)
    if refusal is not None:
        raise refusal
    fields = request.fields
    try:
        outcome = adjudicate(session, page, actor.name, base_version=request.version, **fields.views.fields(),
                             page_type=fields.page_type, status=fields.status, note=request.note,
                             snippets=fields.snippets, article_metadata=fields.metadata,
                             effort=request.effort, provenance=request.provenance,
                             guideline_version=version_in_force(session, fields.page_type))
    except ValueError as error:
        raise Refused(400, str(error)) from None
    if outcome.applied:
        gold_changed(session, settings.eager, page_id, no_content=settings.taxonomy.no_content)
    actor.record(session, Action.ADJUDICATE, f"page {page_id}", {"version": request.version,
                                                                 "conflict": outcome.conflict,
                                                                 "type": fields.page_type, "note": request.note})
    return Saved(outcome, check=follow_gold(session, settings) if outcome.applied else None)
