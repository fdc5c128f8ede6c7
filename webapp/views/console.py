"""The lead's console (`/team`, for reviewers and admins: the team's leads): assignment and re-assignment
by page, site, page type, batch or any of the queue's filters, and undo; progress per annotator; control
pages and each annotator's score on them; open requests for changes; the candidate tabs. And each page's
thread: comments on the page and on its disputed lines, and a request for changes (the comment form also
serves annotators, from the annotate view). Every action is a use case; this view parses, calls, commits
and redirects."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..accounts.roles import ANNOTATOR, REVIEWER, at_least
from ..accounts.users import list_users
from ..annotation.annotations import FINISHED, annotations_of
from ..annotation.candidate_tabs import tab_choices
from ..annotation.comments import blind_to, open_requests, thread
from ..annotation.consensus import Said, consensus
from ..annotation.control import control_of
from ..foundation.vocabulary import QUEUE_STATUSES
from ..models import Annotation, Assignment, ControlPage, Extraction, ImportBatch, Page, Site
from ..results.control_figures import control_scores
from ..results.progress_figures import progress
from ..usecases.arrange_tabs import TabChoice, arrange_tabs
from ..usecases.assign import assign_pages, last_change, reassign_pages, unassign_pages, undo_assignment
from ..usecases.control_pages import end_control, give_control, make_control
from ..usecases.feedback import add_comment, request_changes
from ..usecases.outcome import Refused
from ..usecases.read_leaderboard import DEFAULT_METRIC
from ..web import app_settings
from ..web.acting import actor, current_role
from ..web.app_settings import settings
from ..web.bad_input import ID_MAX
from ..web.db import get_or_404, get_session
from ..web.query_args import PAGE_FILTER, filter_args, page_filter
from ..web.refusals import refuse
from ..web.request_input import TEXT, TEXTS, Form, one_of, posted, query, whole

bp = Blueprint("console", __name__)

def alert_below() -> float:
    """CONTROL_ALERT_F1: an annotator's F1 on control pages below it is shown as an alert."""
    return settings().serving.control_alert_f1


ASSIGN_FORM = Form({**PAGE_FILTER.fields, "pages": TEXT, "limit": whole(0, ID_MAX), "action": TEXT, "from": TEXT,
                    "to": TEXT}, {"pages": "", "action": "assign", "from": "", "to": ""})
"""Assign, re-assign or remove: the selected pages (ids in a text, and the queue's filters), how many a person
when assigning, from whom and to whom (names separated by commas)."""
CONTROL_FORM = Form({"page": TEXT, "to": TEXT}, {"page": "", "to": ""})
"""A control page (its id in a text) and whom to give it to (names separated by commas)."""
TABS_FORM = Form({"extractor": TEXTS})
COMMENT_FORM = Form({"body": TEXT, "line": TEXT, "about": TEXT}, {"body": ""})
CHANGES_FORM = Form({"annotator": TEXT, "body": TEXT}, {"annotator": "", "body": ""})


def tab_form(names: list[str]) -> Form:
    """The candidate tabs' form for these extractors: each one's state and position."""
    return Form({field: schema for name in names for field, schema in (
        (f"state-{name}", one_of("shown", "hidden", "pinned")), (f"position-{name}", whole(0, ID_MAX)))},
        {default: value for name in names for default, value in ((f"state-{name}", "shown"), (f"position-{name}", 0))})


def names_in(text: str | None) -> tuple[str, ...]:
    """Annotators' names, separated by commas (each as given, spaces around it dropped)."""
    return tuple(name.strip() for name in (text or "").split(",") if name.strip())


def page_ids_in(text: str | None) -> tuple[int, ...]:
    """Page ids separated by commas or spaces; 400 naming what is not one."""
    found = []
    for word in re.split(r"[\s,]+", (text or "").strip()):
        if not word:
            continue
        if not word.isdigit() or not 0 < int(word) <= ID_MAX:
            abort(400, description=f"{word!r} is not a page id: give page numbers separated by commas or spaces.")
        found.append(int(word))
    return tuple(found)


def known_names(session) -> list[str]:
    """The names offered in the forms: the users who are not disabled, else everyone with work recorded."""
    users = [u.name for u in list_users(session) if not u.disabled]
    if users:
        return users
    return sorted(set(session.scalars(select(Annotation.author).distinct()))
                  | set(session.scalars(select(Assignment.author).distinct())))


@bp.get("/team")
def index() -> str:
    session = get_session()
    names = known_names(session)
    metric = app_settings.metrics()[DEFAULT_METRIC]
    controls = list(session.execute(select(ControlPage.page_id, ControlPage.gold_version, ControlPage.author)
                                    .order_by(ControlPage.page_id)))
    given: dict[int, list[str]] = {}
    for page_id, name in session.execute(select(Assignment.page_id, Assignment.author)
                                         .where(Assignment.page_id.in_([c.page_id for c in controls]))
                                         .order_by(Assignment.id)):
        given.setdefault(page_id, []).append(name)
    extractors = sorted(set(session.scalars(select(Extraction.extractor).distinct())))
    return render_template(
        "console/index.html",
        names=names,
        progress=progress(session, [u.name for u in list_users(session) if not u.disabled and u.role == ANNOTATOR],
                          settings().overlap),
        scores=control_scores(session, metric, alert_below()),
        alert_below=alert_below(),
        controls=controls,
        given=given,
        requests=open_requests(session),
        last=last_change(session, actor().name),
        sites=session.scalars(select(Site.host).order_by(Site.host)).all(),
        batches=session.scalars(select(ImportBatch).order_by(ImportBatch.id.desc())).all(),
        page_types=settings().taxonomy.labels,
        statuses=QUEUE_STATUSES,
        extractors=extractors,
        tabs=tab_choices(session),
        overlap=settings().overlap,
        args=filter_args(),  # the queue's filters, when the queue's "Assign these pages" led here
    )


def done(message: str) -> Response:
    get_session().commit()
    flash(message)
    return redirect(url_for("console.index"))


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@bp.post("/team/assign")
def assign() -> Response:
    """Assign, re-assign or remove the assignments of the selected pages (the form's page ids and the
    queue's filters; ``limit`` per annotator when assigning)."""
    session, form = get_session(), posted(ASSIGN_FORM)
    selection, pages = page_filter(form), page_ids_in(form["pages"])
    limit = form["limit"] or None
    what = form["action"]
    try:
        if what == "remove":
            count = unassign_pages(session, actor(), names_in(form["from"]), selection, page_ids=pages)
            return done(f"{plural(count, 'assignment')} removed.")
        if what == "reassign":
            removed, made = reassign_pages(session, settings(), actor(), form["from"].strip(),
                                           names_in(form["to"]), selection, pages)
            return done(f"{plural(removed, 'assignment')} of {form['from'].strip()} removed, "
                        f"{plural(made, 'page')} re-assigned to {form['to']}.")
        count = assign_pages(session, settings(), actor(), names_in(form["to"]), selection, limit, pages)
    except Refused as error:
        refuse(error)
    return done(f"{plural(count, 'assignment')} made ({form['to']})." if count else
                "No assignment made: no selected page has a free place for them (see OVERLAP), or they have "
                "it already.")


@bp.post("/team/undo")
def undo() -> Response:
    try:
        removed, restored = undo_assignment(get_session(), actor())
    except Refused as error:
        refuse(error)
    return done(f"Undone: {plural(removed, 'assignment')} removed, {plural(restored, 'assignment')} restored.")


@bp.post("/team/controls")
def controls() -> Response:
    """Make a page a control page (unless it is one) and give it to the named annotators."""
    session = get_session()
    form = posted(CONTROL_FORM)
    pages = page_ids_in(form["page"])
    if len(pages) != 1:
        abort(400, description="Give one page id.")
    names = names_in(form["to"])
    try:
        if control_of(session, pages[0]) is None:
            make_control(session, actor(), pages[0])
        count = give_control(session, actor(), pages[0], names) if names else 0
    except Refused as error:
        refuse(error)
    return done(f"Page {pages[0]} is a control page, given to {plural(count, 'more annotator')}.")


@bp.post("/team/controls/<int:control_id>/end")
def end(control_id: int) -> Response:
    """End the control page (``control_id``: its page's id)."""
    try:
        end_control(get_session(), actor(), control_id)
    except Refused as error:
        refuse(error)
    return done(f"Page {control_id} is no longer a control page.")


@bp.post("/team/tabs")
def tabs() -> Response:
    """The candidate tabs' choices: per extractor (the form's ``extractor`` list) hidden, pinned, position."""
    names = posted(TABS_FORM)["extractor"]
    form = posted(tab_form(names))
    choices = [TabChoice(name, hidden=form[f"state-{name}"] == "hidden", pinned=form[f"state-{name}"] == "pinned",
                         position=form[f"position-{name}"]) for name in names]
    try:
        count = arrange_tabs(get_session(), actor(), choices)
    except Refused as error:
        refuse(error)
    return done(f"Candidate tabs arranged: {plural(count, 'tab')} hidden or pinned.")


@bp.get("/team/pages")
def find_page() -> Response:
    """The thread of the page the console's form names."""
    pages = page_ids_in(query(CONTROL_FORM)["page"])
    if len(pages) != 1:
        abort(400, description="Give one page id.")
    return redirect(url_for("console.page", page_id=pages[0]))


@bp.get("/pages/<int:page_id>/comments")
def page(page_id: int) -> str:
    """A page's thread: for a lead, its annotators, its disputed lines, every comment and the forms; for an
    annotator, the comments they may read (annotation/comments.py) and the form to add one."""
    session = get_session()
    found = get_or_404(session, Page, page_id)
    name, lead = actor().name, at_least(current_role(), REVIEWER)
    comments = thread(session, found, name, lead, settings().overlap)
    if not lead:
        about = name if blind_to(session, found, name, settings().overlap) else None
        return render_template("console/thread.html", page=found, comments=comments, about=about,
                               requests=open_requests(session, name, page_id))
    annotations = annotations_of(session, page_id)
    finished = [a for a in annotations if a.status in FINISHED]
    disputed = (consensus([Said(a.author, a.text, a.page_type) for a in finished]).disputed
                if len(finished) > 1 else [])
    return render_template(
        "console/page.html", page=found, annotations=annotations, disputed=disputed, comments=comments,
        requests=open_requests(session, page_id=page_id),
        gold_author=found.gold.author if found.gold is not None else None,
    )


@bp.post("/team/pages/<int:page_id>/comments")
def comment(page_id: int) -> Response:
    """Add a comment (leads, and annotators where the rules allow: usecases/feedback.py); back to where
    it was written."""
    session, form = get_session(), posted(COMMENT_FORM)
    try:
        add_comment(session, settings(), actor(), page_id, form["body"], form["line"], form["about"])
    except Refused as error:
        refuse(error)
    session.commit()
    flash("Comment added.")
    return redirect(url_for("console.page", page_id=page_id))


@bp.post("/team/pages/<int:page_id>/changes")
def changes(page_id: int) -> Response:
    session, form = get_session(), posted(CHANGES_FORM)
    annotator = form["annotator"]
    try:
        request_changes(session, settings(), actor(), page_id, annotator, form["body"])
    except Refused as error:
        refuse(error)
    session.commit()
    flash(f"Changes requested of {annotator}: page {page_id} is back in their queue with your comment.")
    return redirect(url_for("console.page", page_id=page_id))
