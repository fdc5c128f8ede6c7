"""The annotate view (rendered page | candidates | gold editor), the history of a page's gold, and the
annotator's name."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..accounts.names import BadName, checked_name
from ..accounts.roles import REVIEWER, at_least
from ..annotation.annotations import annotation_of, is_blind
from ..annotation.candidate_tabs import arranged, tab_choices
from ..annotation.comments import open_requests, thread
from ..annotation.control import is_control_for
from ..annotation.effort_record import ACTIONS
from ..annotation.gold import HistoryPage, history_page
from ..annotation.gold_markdown import two_golds
from ..corpus.visible_text import browser_rules
from ..foundation.vocabulary import GOLD_STATUSES, TEXT_SOURCES
from ..models import Annotation, Gold, Page
from ..results.effort_figures import pace
from ..usecases.open_page import open_page
from ..usecases.outcome import Refused
from ..usecases.restore import restore as restore_gold
from ..usecases.save import edit_refusal
from ..web.access import identity
from ..web.acting import ANNOTATOR, actor, annotator, current_role
from ..web.app_settings import overlap, settings
from ..web.boilerplate_cache import boilerplate_cache
from ..web.check_dispatch import follow
from ..web.db import get_or_404, get_session
from ..web.effort_scope import idle_seconds
from ..web.guideline_panel import guideline_panel
from ..web.outputs.gold_json import revision_output
from ..web.page_html import heavy
from ..web.page_variants import captured_variants, other_candidates
from ..web.query_args import filter_args
from ..web.redirects import asked_target
from ..web.refusals import refuse
from ..web.request_input import TEXT, Form, posted, query, whole

bp = Blueprint("annotate", __name__)

NAME_MAX = 100
HISTORY_QUERY = Form({"before": whole()})
"""Where a page of the history starts: the revisions with an id below ``before`` (none: the newest)."""
NAME_FORM = Form({"name": TEXT}, {"name": ""})
"""The name an annotator gives in local mode."""


def type_choices(page_type: str) -> dict[str, str]:
    """The page types in force, and the gold's own type when the settings no longer name it: shown as it
    is, so that a save has to choose one of the others."""
    labels = settings().taxonomy.labels
    return labels if page_type in labels else {**labels, page_type: f"{page_type} (not in the configured page types)"}


def safe_link(url: str | None) -> str | None:
    """The URL if it may be rendered as a link (http or https), else None."""
    if url and urlsplit(url).scheme.lower() in ("http", "https"):
        return url
    return None


@bp.get("/pages/<int:page_id>")
def page(page_id: int) -> Response | str:
    if annotator() is None:
        return redirect(url_for("annotate.name", next=request.full_path))
    session = get_session()
    try:
        opened = open_page(session, settings(), actor(annotator()), page_id, boilerplate_cache())
    except Refused as error:
        refuse(error)
    found, saved, editor = opened.page, opened.saved, opened.editor
    return render_template(
        "annotate/page.html",
        page=found,
        saved=saved,
        two_golds=two_golds(saved) if saved is not None else None,
        blind=opened.blind and overlap() > 1,  # with overlap 1 no page says it is blind, so a control page does not
        adjudicated=overlap() > 1 and not opened.blind,
        read_only=edit_refusal(session, settings(), found, annotator() or ""),
        link=safe_link(found.url),
        candidates=arranged(opened.candidates + other_candidates(page_id), tab_choices(session)),
        editor=editor,
        comments=len(thread(session, found, annotator() or "", at_least(current_role(), REVIEWER), overlap())),
        requests=open_requests(session, annotator() or "", page_id),
        prefill=opened.prefill.as_dict() if opened.prefill else None,
        boilerplate=sorted(opened.boilerplate),
        page_types=type_choices(editor["type"]),
        statuses=GOLD_STATUSES,
        args=filter_args(),
        block_rules=browser_rules(),
        flattened=heavy(page_id, found.sha256, found.encoding),
        variants={**captured_variants(page_id), "choose": at_least(current_role(), REVIEWER)},
        effort={"idleSeconds": idle_seconds(), "actions": list(ACTIONS),
                **pace(session, annotator() or "", page_id)},
        guidelines=guideline_panel(session, settings().taxonomy),
        metadata=opened.metadata,
    )


@bp.get("/pages/<int:page_id>/history")
def history(page_id: int) -> str:
    """The revisions newest first, HISTORY_PAGE at a time: ``?before=<revision id>`` shows older ones. While
    the page is blind, the viewer's own annotation's (nobody else's); else the gold's, with Restore only
    where a restore can work (usecases/save.py `edit_refusal`), and on an adjudicated page, for reviewers,
    adjudication from an earlier version instead."""
    session = get_session()
    found = get_or_404(session, Page, page_id)
    before = query(HISTORY_QUERY)["before"]
    name = annotator() or ""
    own = is_blind(found, overlap())
    if is_control_for(session, page_id, name):  # a control page given to the reader is blind to them
        shown = HistoryPage([], None)
    elif own:
        mine = annotation_of(session, page_id, name)
        shown = history_page(session, mine.id, before, record_type=Annotation) if mine else HistoryPage([], None)
    else:
        gold_id = session.scalar(select(Gold.id).where(Gold.page_id == page_id))
        shown = history_page(session, gold_id, before) if gold_id is not None else HistoryPage([], None)
    rows = [revision_output(revision, applied) for revision, applied in shown.revisions]
    no_restore = "" if own else edit_refusal(session, settings(), found, name)
    return render_template("annotate/history.html", page=found, revisions=rows, older=shown.older,
                           newer=before is not None, text_sources=TEXT_SOURCES, own=own, no_restore=no_restore,
                           adjudicate_from=not own and overlap() > 1 and at_least(current_role(), REVIEWER))


@bp.post("/pages/<int:page_id>/history/<int:revision_id>/restore")
def restore(page_id: int, revision_id: int) -> Response:
    """Restore a revision of the gold (usecases/restore.py: a save's rules); a refusal is shown on the history."""
    author = annotator()
    if author is None:
        abort(400, description="Give your name first.")
    session = get_session()
    try:
        restored = restore_gold(session, settings(), actor(author), page_id, revision_id)
    except Refused as error:
        if error.status == 404:
            refuse(error)
        flash(f"Revision {revision_id} was not restored: {error.reason} Restore another, or edit the page.")
        return redirect(url_for("annotate.history", page_id=page_id))
    session.commit()
    follow(session, restored.check)
    flash(f"Revision {revision_id} restored as version {restored.revision.version}.")
    return redirect(url_for("annotate.history", page_id=page_id))


@bp.route("/annotator", methods=["GET", "POST"])
def name() -> Response | str:
    """Ask the annotator's name once; every revision records it. With accounts, the name is the user's."""
    target = asked_target() or url_for("queue.index")
    if not identity().local:
        return redirect(target)
    if request.method == "POST":
        given = " ".join(posted(NAME_FORM)["name"].split())[:NAME_MAX]
        if not given:
            flash("Please give a name: every saved revision records it.")
        else:
            try:
                session[ANNOTATOR] = checked_name(given)
                return redirect(target)
            except BadName as error:
                flash(f"That name cannot be used: {error}.")
    return render_template("annotate/name.html", target=target, current=annotator())
