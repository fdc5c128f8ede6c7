"""Adjudication (reviewers): the queue of pages whose annotations are complete, the side-by-side view of
a page's annotations, and the save of the reviewer's result as the page's gold."""

from __future__ import annotations

from flask import Blueprint, abort, flash, json, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..annotation.adjudication import adjudicate, annotated, review_queue
from ..annotation.annotations import annotations_of
from ..annotation.consensus import Said, consensus
from ..annotation.gold import lock_page
from ..corpus.visible_text import browser_rules, visible_text
from ..db import get_or_404, get_session
from ..models import Page
from ..results.store import gold_changed
from ..scoring import eager
from ..scoring.agreement import page_agreement
from ..vocabulary import GOLD_STATUSES, UnknownTerm, checked_snippets, current_taxonomy
from ..web import figures
from .common import annotator, overlap, record

bp = Blueprint("adjudication", __name__, url_prefix="/adjudication")

QUEUE_SIZE = 200
NOTE_MAX = 2000


@bp.get("")
def index() -> str:
    return render_template("adjudication/index.html", rows=review_queue(get_session(), overlap(), QUEUE_SIZE),
                           overlap=overlap())


@bp.get("/<int:page_id>")
def page(page_id: int) -> str:
    session = get_session()
    found = get_or_404(session, Page, page_id)
    annotations = annotations_of(session, page_id)
    shown = [{"annotator": a.annotator, "text": a.text, "kind": a.kind, "status": a.status,
              "snippets": a.snippets, "version": a.version} for a in annotations]
    agreed = consensus([Said(a.annotator, a.text, a.kind) for a in annotations])
    gold = found.gold
    html = session.scalar(select(Page.html).where(Page.id == page_id)) or ""
    return render_template(
        "adjudication/page.html", page=found, annotations=shown, gold=gold, consensus=agreed,
        page_lines=visible_text(html).split("\n"), rules=browser_rules(),
        agreement=page_agreement(annotated(page_id, annotations)) if len(annotations) > 1 else None,
        start={"text": gold.text if gold else agreed.text, "kind": gold.kind if gold else agreed.kind,
               "status": gold.status if gold else "done", "snippets": gold.snippets if gold else None},
        kinds=current_taxonomy().labels, statuses=GOLD_STATUSES, note_max=NOTE_MAX,
    )


@bp.post("/<int:page_id>")
def save(page_id: int) -> Response:
    """The reviewer's result saved as the page's gold, with a note and the snippets (JSON, as the API
    takes them; absent or null: the gold's current ones); then the next page to adjudicate."""
    reviewer = annotator()
    if reviewer is None:
        abort(400, description="Give your name first.")
    form = request.form
    version = form.get("version", type=int)
    if version is None or form.get("kind") not in current_taxonomy().kinds or form.get("status") not in GOLD_STATUSES:
        abort(400, description="The form needs a version, a page kind and a status.")
    try:
        snippets = checked_snippets(json.loads(form.get("snippets") or "null"))
    except (ValueError, UnknownTerm) as error:
        abort(400, description=f"snippets: {error}")
    session = get_session()
    found = lock_page(session, page_id)
    if found is None:
        abort(404)
    try:
        outcome = adjudicate(session, found, reviewer, base_version=version,
                             text=form.get("text", "").replace("\r\n", "\n"), kind=form["kind"],
                             status=form["status"], note=form.get("note", "")[:NOTE_MAX], snippets=snippets)
    except ValueError as error:
        abort(400, description=str(error))
    if outcome.applied:
        gold_changed(session, eager(figures.metrics()), page_id)
    record("adjudicate", f"page {page_id}", {"version": version, "conflict": outcome.conflict,
                                              "kind": form["kind"], "note": form.get("note", "")[:NOTE_MAX]})
    session.commit()
    if outcome.conflict:
        flash("Someone saved this page's gold while you were adjudicating: yours is kept in its history as a "
              "stale save. Here is the page again.")
        return redirect(url_for("adjudication.page", page_id=page_id))
    flash(f"Page {page_id} adjudicated: its gold is version {outcome.record.version}.")
    following = review_queue(session, overlap(), 1)
    if following:
        return redirect(url_for("adjudication.page", page_id=following[0].page_id))
    return redirect(url_for("adjudication.index"))
