"""Save: an annotator's edit of a page's gold, or, while the page is blind (OVERLAP above 1, not yet
adjudicated), of their own annotation of it. Every face calls `save`: the JSON API (which the annotate
view's editor uses), and any command or job that saves gold as a user would.

The rules, in order:
- the page is locked for the rest of the transaction (two saves of one page never both pass the checks);
- with OVERLAP above 1 an adjudicated page's gold changes in adjudication only (423);
- while it is blind, the annotator must hold one of its places, or a place must be free (423, see
  annotation/annotations.py `place_refusal`); a voided annotation holds none;
- on a control page given to the annotator (annotation/control.py) the save goes to their own annotation
  whatever the overlap, never to the page's gold, and adjudicates nothing;
- the save is applied, kept as a stale save (409 for the face) or answered from its retry
  (annotation/gold.py); an applied annotation that completes the page's places with exactly the same
  annotations adjudicates it automatically (`settle`);
- when the gold changed, the page's cached scores are refreshed in the same transaction (`gold_changed`);
- an applied save (of the gold or of an annotation) asks for the page's checks to run again, as a debounced
  job the face sends after its commit (jobs/follow_checks.py; `Saved.check`: None when one is queued);
- the save (and an automatic adjudication) is appended to the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ANNOTATOR
from ..annotation.annotations import is_blind, place_refusal, save_annotation, settle
from ..annotation.control import is_control_for
from ..annotation.gold import Record, Revision, SaveOutcome, lock_page, save_gold
from ..annotation.gold_markdown import GoldViews, edited_text
from ..annotation.guideline_versions import version_in_force
from ..foundation.settings import Settings
from ..models import Job
from ..results.store import gold_changed
from .bodies import SAVE, checked_provenance, validated
from .fields import Fields, checked_fields, saved_views
from .follow_up_checks import follow_gold
from .outcome import Actor, Refused, needs

ADJUDICATED = "This page is adjudicated: its gold is changed in adjudication."


REVISION_FACTS = ("provenance", "effort", "guideline_version")
"""What a save may record about how its text was made, beside the text (models.RevisionFields; their JSON
types: usecases/bodies.py SAVE_OPTIONAL); a save without one records None. The guideline version is the
server's: `save` records the version in force for the saved page type, whatever the body says
(annotation/guideline_versions.py)."""


@dataclass(frozen=True)
class SaveRequest:
    fields: Fields
    version: int  # the version the save edited
    client_save_id: str  # the same id on a retry: applied once
    facts: dict[str, Any] = field(default_factory=dict)  # of REVISION_FACTS, recorded on the revision


def save_request(settings: Settings, body: Any) -> SaveRequest:
    """A save from its JSON object (usecases/bodies.py `SAVE`: markdown (or, for older clients, text alone),
    type, status, version, client_save_id, snippets, metadata and the REVISION_FACTS); Refused (400, 413)
    naming what is wrong. With Markdown, a text the body also sends is ignored: the plain text is derived."""
    body = validated(SAVE, body)
    views = saved_views(body.get("markdown"), body.get("text"))
    fields = checked_fields(settings, views=views, page_type=body["type"], status=body["status"],
                            snippets=body.get("snippets"), metadata=body.get("metadata"))
    return SaveRequest(fields, body["version"], body["client_save_id"], revision_facts(body, views))


def revision_facts(body: dict[str, Any], views: GoldViews) -> dict[str, Any]:
    """The REVISION_FACTS the body gives (null or absent: not recorded; their JSON types and the effort's
    shape: bodies.SAVE); Refused (400) naming what is wrong with a provenance (one origin per line of the view the
    person edited: annotation/gold_markdown.py `edited_text`)."""
    facts = {key: body[key] for key in REVISION_FACTS if body.get(key) is not None}
    if "provenance" in facts:
        facts["provenance"] = provenance_of(facts["provenance"], edited_text(views))
    return facts


def provenance_of(value: Any, text: str) -> dict[str, Any]:
    """The provenance if its shape is right for the text (usecases/bodies.py `checked_provenance`); Refused
    (400) naming the problem."""
    try:
        return checked_provenance(value, text)
    except Refused as refused:
        raise Refused(400, f"{refused.reason} Nothing was saved.") from None


@dataclass(frozen=True)
class Saved:
    """What a save did (``outcome``: annotation/gold.py's SaveOutcome), whether it adjudicated the page
    automatically, and the check job it queued (the face dispatches it after its commit)."""

    outcome: SaveOutcome
    automatic: bool = False
    check: Job | None = None

    @property
    def conflict(self) -> bool:
        return self.outcome.conflict

    @property
    def record(self) -> Record:
        return self.outcome.record

    @property
    def revision(self) -> Revision:
        return self.outcome.revision


def locked_page(session: Session, page_id: int) -> Any:
    """The page, locked (annotation/gold.py `lock_page`); Refused (404) when there is none."""
    page = lock_page(session, page_id)
    if page is None:
        raise Refused(404, f"There is no page {page_id}.")
    return page


def edit_refusal(session: Session, settings: Settings, page: Any, name: str) -> str | None:
    """Why ``name`` may not edit the page in the annotate view (None: they may): adjudicated under
    overlap, or blind with no place for them (a control page given to them is theirs to annotate). The
    annotate view shows it and makes the editor read-only."""
    if is_control_for(session, page.id, name):
        return None
    if settings.overlap > 1 and not is_blind(page, settings.overlap):
        return ADJUDICATED
    if is_blind(page, settings.overlap):
        return place_refusal(session, page, name, settings.overlap)
    return None


@needs(ANNOTATOR, "Only a signed-in user saves gold.")
def save(session: Session, settings: Settings, actor: Actor, page_id: int, request: SaveRequest) -> Saved:
    """Apply the save by the rules above; Refused (404, 423, 400) when it is not taken. Never commits."""
    page = locked_page(session, page_id)
    refusal = edit_refusal(session, settings, page, actor.name)
    if refusal is not None:
        raise Refused(423, refusal)
    blind = is_blind(page, settings.overlap)
    own = blind or is_control_for(session, page.id, actor.name)
    fields = request.fields
    values: dict[str, Any] = {**fields.views.fields(), "page_type": fields.page_type, "status": fields.status,
                              "snippets": fields.snippets, "article_metadata": fields.metadata,
                              "client_save_id": request.client_save_id,
                              **request.facts, "guideline_version": version_in_force(session, fields.page_type)}
    try:
        if own:
            outcome = save_annotation(session, page, actor.name, base_version=request.version, **values)
        else:
            outcome = save_gold(session, page, base_version=request.version, author=actor.name, **values)
    except ValueError as error:
        raise Refused(400, str(error)) from None
    automatic = outcome.applied and blind and settle(session, page, settings.overlap, values["guideline_version"])
    if outcome.applied and (not own or automatic):
        gold_changed(session, settings.eager, page.id, no_content=settings.taxonomy.no_content)
    if automatic:
        actor.record(session, Action.ADJUDICATE, f"page {page.id}", {"automatic": True})
    if not outcome.replayed:
        actor.record(session, Action.GOLD_SAVE, f"page {page.id}",
                     {"revision": outcome.revision.id, "version": outcome.revision.version,
                      "conflict": outcome.conflict, "status": fields.status})
    return Saved(outcome, automatic, follow_gold(session, settings) if outcome.applied else None)
