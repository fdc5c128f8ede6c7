"""Adjudication (reviewers): the queue of pages whose places are full and done, the side-by-side view of
a page's annotations (their metadata fields to choose from: web/metadata_form.py), the save of the
reviewer's result as the page's gold (usecases/adjudicate.py), and an admin's void of an annotation
(usecases/void.py)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..accounts.roles import ADMIN, at_least
from ..annotation.annotations import annotations_of
from ..annotation.consensus import Said, consensus
from ..annotation.gold_markdown import editor_markdown
from ..annotation.provenance import uniform
from ..annotation.review import annotated, review_queue
from ..corpus.visible_text import browser_rules, visible_text
from ..foundation.vocabulary import GOLD_STATUSES
from ..models import Gold, GoldRevision, Page
from ..scoring.agreement_maths import page_agreement
from ..usecases.adjudicate import NOTE_MAX, adjudicate_page, adjudication_refusal, adjudication_request
from ..usecases.outcome import Refused
from ..usecases.void import void_annotation
from ..web.acting import actor, annotator, current_role
from ..web.app_settings import overlap, settings
from ..web.check_dispatch import follow
from ..web.db import get_or_404, get_session
from ..web.effort_scope import idle_seconds
from ..web.guideline_panel import guideline_panel
from ..web.metadata_form import METADATA_FORM, BadChoice, chosen_metadata, field_choices
from ..web.refusals import refuse
from ..web.request_input import JSON, TEXT, Form, posted, query, whole

bp = Blueprint("adjudication", __name__, url_prefix="/adjudication")

QUEUE_SIZE = 200


RESULT_FORM = Form({"version": whole(), "markdown": TEXT, "text": TEXT, "type": TEXT, "status": TEXT, "note": TEXT,
                    "snippets": JSON, "effort": JSON, "provenance": JSON, **METADATA_FORM.fields},
                   {"text": "", "note": "", **METADATA_FORM.defaults})
"""The reviewer's result (its shape checked by the use case's schema, usecases/bodies.py ADJUDICATION)."""
VOID_FORM = Form({"author": TEXT, "annotator": TEXT}, {"author": "", "annotator": ""})
"""Whose annotation to void (``annotator``: the old name of ``author``, read for one release)."""
START_QUERY = Form({"from": whole()})
"""The gold's revision the result starts from (none: the gold)."""


@bp.get("")
def index() -> str:
    return render_template("adjudication/index.html", rows=review_queue(get_session(), overlap(), QUEUE_SIZE),
                           overlap=overlap())


def earlier_version(session: Any, gold: Gold, revision_id: int | None) -> GoldRevision | None:
    """The revision of the gold to start from (``?from=<revision id>``), or None (start from the gold);
    404 when the gold has no such revision."""
    if revision_id is None:
        return None
    revision = session.get(GoldRevision, revision_id)
    if revision is None or revision.gold_id != gold.id:
        abort(404, description=f"Page {gold.page_id}'s gold has no revision {revision_id}.")
    return revision


@bp.get("/<int:page_id>")
def page(page_id: int) -> str:
    session = get_session()
    found = get_or_404(session, Page, page_id)
    refusal = adjudication_refusal(session, settings(), found, annotator() or "")
    if refusal is not None and refusal.status == 403 and found.gold is None:
        refuse(refusal)  # their own page, still blind: the others' annotations are not theirs to see
    annotations = annotations_of(session, page_id)
    # each annotation's Markdown as its editor showed it (a flat text: its lines escaped, one a line)
    shown = [{"author": a.author, "text": a.text, "markdown": editor_markdown(a), "type": a.page_type,
              "status": a.status, "snippets": a.snippets, "version": a.version} for a in annotations]
    agreed = consensus([Said(a.author, a.text, a.page_type, editor_markdown(a)) for a in annotations])
    gold = found.gold
    earlier = earlier_version(session, gold, query(START_QUERY)["from"]) if gold else None
    base: Gold | GoldRevision | None = earlier if earlier is not None else gold
    text = editor_markdown(base) if base else agreed.text  # the result is edited as Markdown
    started = uniform({"source": "gold", "version": base.version}, text, "gold") if base else uniform(
        {"source": "consensus"}, text, "consensus")
    html = session.scalar(select(Page.html).where(Page.id == page_id)) or ""
    return render_template(
        "adjudication/page.html", page=found, annotations=shown, gold=gold, consensus=agreed,
        page_lines=visible_text(html).split("\n"), rules=browser_rules(),
        agreement=page_agreement(annotated(page_id, annotations)) if len(annotations) > 1 else None,
        start={"text": text, "type": base.page_type if base else agreed.page_type,
               "status": base.status if base else "done", "snippets": base.snippets if base else None,
               "from": base.version if base is not None and base is not gold else None,
               "provenance": started},
        page_types=settings().taxonomy.labels, statuses=GOLD_STATUSES, note_max=NOTE_MAX,
        refusal=refusal.reason if refusal else None, can_void=at_least(current_role(), ADMIN),
        idle_seconds=idle_seconds(),
        guidelines=guideline_panel(session, settings().taxonomy),
        metadata_fields=field_choices([(a.author, a.article_metadata) for a in annotations],
                                      (base.article_metadata or {}) if base is not None else None),
    )


@bp.post("/<int:page_id>")
def save(page_id: int) -> Response:
    """The reviewer's result saved as the page's gold, with a note and the snippets (JSON, as the API
    takes them; absent or null: the gold's current ones); then the next page to adjudicate."""
    reviewer = annotator()
    if reviewer is None:
        abort(400, description="Give your name first.")
    form = posted(RESULT_FORM)
    session = get_session()
    snippets, effort, provenance = form["snippets"], form["effort"], form["provenance"]
    try:
        chosen = chosen_metadata(form)
    except BadChoice as error:
        abort(400, description=f"{error}.")
    metadata, origins = chosen if chosen is not None else (None, {})
    if isinstance(provenance, dict) and origins:
        provenance = {**provenance, "fields": origins}
    try:
        outcome = adjudicate_page(session, settings(), actor(reviewer), page_id, adjudication_request(
            settings(), version=form["version"], markdown=form["markdown"],
            text=form["text"], page_type=form["type"],
            status=form["status"], note=form["note"], snippets=snippets, effort=effort,
            provenance=provenance, metadata=metadata))
    except Refused as error:
        refuse(error)
    session.commit()
    follow(session, outcome.check)
    if outcome.conflict:
        flash("Someone saved this page's gold while you were adjudicating: yours is kept in its history as a "
              "stale save. Here is the page again.")
        return redirect(url_for("adjudication.page", page_id=page_id))
    flash(f"Page {page_id} adjudicated: its gold is version {outcome.record.version}.")
    following = review_queue(session, overlap(), 1)
    if following:
        return redirect(url_for("adjudication.page", page_id=following[0].page_id))
    return redirect(url_for("adjudication.index"))


@bp.post("/<int:page_id>/void")
def void(page_id: int) -> Response:
    """An admin voids one annotation of the page (the form's ``author``; ``annotator``, its old
    name, is read for one release): kept in its history, out of the page's places and of every agreement."""
    session = get_session()
    void_form = posted(VOID_FORM)
    name = void_form["author"] or void_form["annotator"]
    try:
        voided = void_annotation(session, settings(), actor(), page_id, name)
    except Refused as error:
        refuse(error)
    session.commit()
    follow(session, voided.check)
    flash(f"{name}'s annotation of page {page_id} is voided"
          + (": the others agree exactly, so the page is adjudicated automatically." if voided.automatic else "."))
    return redirect(url_for("adjudication.page", page_id=page_id))
