"""The annotate view (rendered page | candidates | gold editor), the history of a page's gold, and the
annotator's name."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from ..accounts.names import BadName, checked_name
from ..accounts.roles import REVIEWER, at_least
from ..annotation.annotations import annotation_of, is_blind
from ..annotation.article_metadata import FIELDS, expected
from ..annotation.boilerplate import BoilerplateCache, drop_lines, page_boilerplate
from ..annotation.candidate_tabs import arranged, tab_choices
from ..annotation.comments import open_requests, thread
from ..annotation.control import is_control_for
from ..annotation.effort_record import ACTIONS
from ..annotation.gold import HistoryPage, Record, history_page
from ..annotation.gold_markdown import editor_markdown, lines_markdown, plain_line, two_golds
from ..annotation.metadata_prefill import field_candidates, prefilled
from ..annotation.prefill import (
    FIXED_MODE,
    METRIC,
    RANDOM_MODE,
    SITE_BEST,
    Prefill,
    Ranking,
    choose,
    drawn,
    fixed,
    random_pool,
)
from ..annotation.provenance import summary, uniform
from ..annotation.type_signals import NO_SIGNAL, Suggestion, suggest_type
from ..corpus.date_shown import dates_shown
from ..corpus.site_names import known_site
from ..corpus.visible_text import browser_rules, visible_text
from ..db import get_or_404, get_session
from ..extractors.scored_output import scored_outputs
from ..models import Annotation, Extraction, Gold, Page
from ..results.effort_figures import pace
from ..results.extractions import current_named
from ..results.leaderboard_figures import board_extractors, page_scores
from ..results.site_ranking import site_ranking
from ..usecases.outcome import Refused
from ..usecases.restore import restore as restore_gold
from ..usecases.save import edit_refusal
from ..vocabulary import ARTICLE, GOLD_STATUSES, TEXT_SOURCES
from ..web import app_settings
from ..web.access import identity
from ..web.app_settings import settings
from ..web.guideline_panel import guideline_panel
from ..web.page_html import heavy
from ..web.page_variants import captured_variants, other_candidates
from .common import (
    ANNOTATOR,
    actor,
    annotator,
    current_role,
    filter_args,
    follow,
    idle_seconds,
    local_target,
    overlap,
    refuse,
)

bp = Blueprint("annotate", __name__)

NAME_MAX = 100


def candidates(session: Session, page_id: int, default: str) -> list[dict[str, Any]]:
    """The newest extraction of each extractor, the default extractor first, then by name, with the output scored
    for the page (extractors/scored_output.py: on its rendering in Chromium where the team chose to score that)
    and its cached per-page scores against the saved gold."""
    newest: dict[str, Extraction] = {}
    for row in session.scalars(
        select(Extraction).where(Extraction.page_id == page_id).order_by(Extraction.id)
    ):
        newest[row.extractor] = row
    ordered = sorted(newest.values(), key=lambda e: (e.extractor != default, e.extractor))
    saved = page_scores(session, app_settings.metrics(), page_id)
    outputs = scored_outputs(session, [e.id for e in ordered])
    return [
        {
            "name": e.extractor,
            "fingerprint": e.fingerprint,
            "text": outputs[e.id].text,
            "markdown": outputs[e.id].markdown,
            "accepted": outputs[e.id].accepted,
            "guard_reason": outputs[e.id].guard_reason,
            "duration_ms": round(outputs[e.id].duration_ms, 1),
            "error": outputs[e.id].error,
            "incomplete": e.incomplete,
            "on_rendering": outputs[e.id].on_rendering,
            "saved_scores": saved.get(e.fingerprint, {}).get("metrics", {}),
            "metadata": e.article_metadata or {},
        }
        for e in ordered
    ]


def editor_state(saved: Record | None, found: list[dict[str, Any]], prefill: Prefill | None,
                 boilerplate: frozenset[str] = frozenset(), suggested: Suggestion | None = None) -> dict[str, Any]:
    """What the gold editor starts from (as Markdown, which it edits: `text` below): the saved gold (or,
    while the page is blind, the annotator's own annotation), or on a first visit the chosen candidate's
    Markdown (see annotation/prefill.py) without the site's repeated boilerplate lines, and the page type its
    signals suggest (annotation/type_signals.py);
    with where it started from and each line's origin, for the provenance a save records
    (annotation/provenance.py)."""
    gold = saved
    if gold is not None:
        markdown = editor_markdown(gold)
        return {"text": markdown, "type": gold.page_type, "status": gold.status, "version": gold.version,
                "prefilled_from": None, "type_signal": None,
                "start": uniform({"source": "gold", "version": gold.version}, markdown, "gold")}
    chosen = next((c for c in found if prefill and c["name"] == prefill.extractor), None)
    markdown = (chosen["markdown"] or lines_markdown(chosen["text"])) if chosen else ""
    text = drop_lines(markdown, boilerplate, key=plain_line)[0]
    suggested = suggested or Suggestion(ARTICLE, NO_SIGNAL)
    start = uniform({"source": "none"}, text, "typed") if not chosen or prefill is None else uniform(
        {"source": "extractor", "name": chosen["name"], "fingerprint": chosen["fingerprint"],
         "basis": prefill.basis}, text, "prefill")
    return {"text": text, "type": suggested.page_type, "status": "done", "version": 0,
            "prefilled_from": chosen["name"] if chosen else None, "type_signal": suggested.signal, "start": start}


BOILERPLATE = "goldtext.boilerplate"


def site_boilerplate(session: Session, page: Page) -> frozenset[str]:
    """The page's site's repeated lines but its own title, from the process's cache (see
    annotation/boilerplate.py); none when the page's site is unknown."""
    if known_site(page.site.host) is None:
        return frozenset()
    cache = current_app.extensions.setdefault(BOILERPLATE, BoilerplateCache())
    return page_boilerplate(cache.lines(session, page.site_id), page.facts)


def prefill_of(session: Session, page: Page, found: list[dict[str, Any]], who: str) -> Prefill:
    """The prefill of a page without gold (or of `who`'s own annotation) as the PREFILL setting says: the
    site's best extractor once the site has enough gold, else the default (its ranking computed once per
    epoch of the score change log); the default always; or one drawn for this page and annotator."""
    usable = {c["name"] for c in found if not c["error"]}
    if settings().prefill == FIXED_MODE:
        return fixed(settings().default_extractor, usable)
    if settings().prefill == RANDOM_MODE:
        with_text = [c["name"] for c in found if not c["error"] and c["text"].strip()]
        return drawn(page.id, who, *random_pool(with_text, [c["name"] for c in found if c["accepted"]],
                                                settings().prefill_pool))
    host = known_site(page.site.host)
    pages, ranked = (0, []) if host is None else ranked_site(session, host)
    return choose(ranked, pages, host, settings().min_site_pages, settings().default_extractor, usable)


def ranked_site(session: Session, host: str, metric_name: str = METRIC) -> tuple[int, Ranking]:
    """(gold pages, ranking) of a site by a metric, computed once per epoch of the score change log."""
    metric = app_settings.metrics()[metric_name]
    shared = app_settings.shared_scores()
    registered = current_named(session, app_settings.registry())
    with shared.synced(session):
        named = board_extractors(shared, metric_name, registered, False)
        return shared.remembered(("prefill", metric_name, host, tuple(named.items())),
                                 lambda: site_ranking(shared.cache, metric, named, host))


def field_rankings(session: Session, page: Page) -> dict[str, list[str]]:
    """Each metadata field's extractors best first on the page's site, by the field's metric (`title`,
    `authors`, `published`) where the leaderboard has one and the site has enough gold (PREFILL site-best);
    a field without is left out (annotation/metadata_prefill.py falls back to the text's prefill order)."""
    host = known_site(page.site.host)
    if settings().prefill != SITE_BEST or host is None:
        return {}
    found = {}
    for field in FIELDS:
        if field in app_settings.metrics():
            pages, ranked = ranked_site(session, host, field)
            if pages >= settings().min_site_pages:
                found[field] = [name for name, _ in ranked]
    return found


def metadata_editor(session: Session, page: Page, saved: Record | None, found: list[dict[str, Any]],
                    prefill: Prefill | None, page_type: str) -> dict[str, Any]:
    """What the metadata fields above the gold editor start from (annotation/metadata_prefill.py): the saved
    fields (their origin "gold"), or each field from its best candidate; every candidate's values; each date
    as the page shows it (corpus/date_shown.py); the fields the page type expects."""
    usable = [{"name": c["name"], "metadata": c["metadata"]} for c in found if not c["error"]]
    if saved is not None:
        start = saved.article_metadata or {}
        chosen = {field: {"value": value, "from": "gold"} for field, value in start.items()}
    else:
        fallback = [prefill.extractor] if prefill is not None and prefill.extractor else []
        chosen = prefilled(usable, field_rankings(session, page), fallback)
    values = field_candidates(usable)
    dates = [v for v in [(chosen.get("published") or {}).get("value"), *(c["value"] for c in values["published"])]
             if isinstance(v, str)]
    lines = visible_text(session.scalar(select(Page.html).where(Page.id == page.id)) or "").split("\n") if dates else []
    return {"start": {field: said["value"] for field, said in chosen.items()},
            "origins": {field: said["from"] for field, said in chosen.items()},
            "candidates": values, "shown": dates_shown(dates, lines), "expected": list(expected(page_type)),
            "fields": list(FIELDS)}


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
    found = get_or_404(session, Page, page_id)  # raw and html are deferred: the frame loads them
    cands = candidates(session, page_id, settings().default_extractor)
    control = is_control_for(session, page_id, annotator() or "")  # blind to them: annotation/control.py
    blind = is_blind(found, overlap()) or control
    if control:
        cands = [{**c, "saved_scores": {}} for c in cands]
    saved = annotation_of(session, page_id, annotator() or "") if blind else found.gold
    prefill = prefill_of(session, found, cands, annotator() or "") if saved is None else None
    boilerplate = site_boilerplate(session, found)
    verdicts = [(c["accepted"], c["guard_reason"]) for c in cands if not c["error"]]
    suggested = suggest_type(found.facts or {}, found.url, settings().taxonomy, verdicts) if saved is None else None
    editor = editor_state(saved, cands, prefill, boilerplate, suggested)
    metadata = metadata_editor(session, found, saved, cands, prefill, editor["type"])
    return render_template(
        "annotate/page.html",
        page=found,
        saved=saved,
        two_golds=two_golds(saved) if saved is not None else None,
        blind=blind and overlap() > 1,  # with overlap 1 no page says it is blind, so a control page does not
        adjudicated=overlap() > 1 and not blind,
        read_only=edit_refusal(session, settings(), found, annotator() or ""),
        link=safe_link(found.url),
        candidates=arranged(cands + other_candidates(page_id), tab_choices(session)),
        editor=editor,
        comments=len(thread(session, found, annotator() or "", at_least(current_role(), REVIEWER), overlap())),
        requests=open_requests(session, annotator() or "", page_id),
        prefill=prefill.as_dict() if prefill else None,
        boilerplate=sorted(boilerplate),
        page_types=type_choices(editor["type"]),
        statuses=GOLD_STATUSES,
        args=filter_args(request.args),
        block_rules=browser_rules(),
        flattened=heavy(page_id, found.sha256, found.encoding),
        variants={**captured_variants(page_id), "choose": at_least(current_role(), REVIEWER)},
        effort={"idleSeconds": idle_seconds(), "actions": list(ACTIONS),
                **pace(session, annotator() or "", page_id)},
        guidelines=guideline_panel(session, settings().taxonomy),
        metadata=metadata,
    )


@bp.get("/pages/<int:page_id>/history")
def history(page_id: int) -> str:
    """The revisions newest first, HISTORY_PAGE at a time: ``?before=<revision id>`` shows older ones. While
    the page is blind, the viewer's own annotation's (nobody else's); else the gold's, with Restore only
    where a restore can work (usecases/save.py `edit_refusal`), and on an adjudicated page, for reviewers,
    adjudication from an earlier version instead."""
    session = get_session()
    found = get_or_404(session, Page, page_id)
    before = request.args.get("before", type=int)
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
    rows = [
        {"id": r.id, "version": r.version, "author": r.author, "created_at": r.created_at.isoformat(),
         "type": r.page_type, "status": r.status, "text": r.text, "markdown": r.markdown,
         "text_source": r.text_source, "applied": applied,
         "provenance": summary(r.provenance), "origins": (r.provenance or {}).get("lines"),
         "guideline_version": r.guideline_version, "metadata": r.article_metadata or {}}
        for r, applied in shown.revisions
    ]
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
    target = local_target(request.values.get("next")) or url_for("queue.index")
    if not identity().local:
        return redirect(target)
    if request.method == "POST":
        given = " ".join(request.form.get("name", "").split())[:NAME_MAX]
        if not given:
            flash("Please give a name: every saved revision records it.")
        else:
            try:
                session[ANNOTATOR] = checked_name(given)
                return redirect(target)
            except BadName as error:
                flash(f"That name cannot be used: {error}.")
    return render_template("annotate/name.html", target=target, current=annotator())
