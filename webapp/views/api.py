"""JSON API of the workbench: read and save a page's gold (optimistic concurrency, idempotent retries).

With overlap above 1, while a page is blind (not adjudicated) the gold endpoints read and save the
caller's own annotation instead (see annotation/annotations.py). Every rule of a save is in its use case
(usecases/save.py): this view parses, calls, commits and answers."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, url_for
from werkzeug.wrappers import Response

from ..annotation.annotations import annotation_of, is_blind
from ..annotation.article_metadata import differing
from ..annotation.control import is_control_for
from ..jobs.start import dispatch
from ..models import Page
from ..results.agreement_figures import corpus_agreement
from ..results.effort_figures import effort_figures
from ..results.leaderboard_figures import page_scores
from ..results.structure_test_figures import page_tests
from ..usecases.bodies import PREVIEW, validated
from ..usecases.extract import extraction_request, start_extraction
from ..usecases.open_page import open_page
from ..usecases.outcome import Refused
from ..usecases.save import save, save_request
from ..web import app_settings, figures, leaderboard_query, live_answers
from ..web.acting import actor, annotator
from ..web.app_settings import overlap, settings
from ..web.boilerplate_cache import boilerplate_cache
from ..web.check_dispatch import follow
from ..web.db import get_or_404, get_session
from ..web.effort_scope import effort_scope
from ..web.leaderboard_query import AGREEMENT_QUERY, COMPARE_QUERY, PAGES_QUERY, STRUCTURE_TESTS_QUERY
from ..web.markdown import render_gold
from ..web.outputs.gold_json import gold_output
from ..web.refusals import refuse
from ..web.request_input import json_body, query

bp = Blueprint("api", __name__, url_prefix="/api")

@bp.get("/pages/<int:page_id>/gold")
def read_gold(page_id: int) -> Response:
    """The page's gold; while the page is blind (or a control page given to the caller), the caller's own
    annotation."""
    session = get_session()
    page = get_or_404(session, Page, page_id)
    if is_blind(page, overlap()) or is_control_for(session, page_id, annotator() or ""):
        name = annotator()
        return jsonify(gold_output(annotation_of(session, page_id, name) if name else None))
    return jsonify(gold_output(page.gold))


@bp.get("/pages/<int:page_id>/editor")
def editor_json(page_id: int) -> Response:
    """What the annotate view's gold editor starts from for the caller (usecases/open_page.py): the editor's
    state, the metadata fields', the prefill and the site's boilerplate it left out."""
    try:
        opened = open_page(get_session(), settings(), actor(), page_id, boilerplate_cache())
    except Refused as error:
        refuse(error)
    return jsonify(opened.as_dict())


@bp.post("/pages/<int:page_id>/gold")
def write_gold(page_id: int) -> tuple[Response, int]:
    """Save: 200 when applied (or already applied), 409 with the current gold when the edit was stale, and
    the metadata fields on which the stale save and the current gold differ (``fields``)."""
    author = annotator()
    if author is None:
        abort(400, description="Give your name first (every revision records it).")
    session = get_session()
    try:
        saved = save(session, settings(), actor(author), page_id,
                     save_request(settings(), json_body()))
    except Refused as error:
        refuse(error)
    session.commit()
    follow(session, saved.check)
    outcome = saved.outcome
    if outcome.conflict:
        return jsonify(conflict=True, revision=outcome.revision.id, current=gold_output(outcome.record),
                       fields=differing(outcome.revision.article_metadata, outcome.record.article_metadata)), 409
    return (
        jsonify(
            conflict=False,
            revision=outcome.revision.id,
            version=outcome.revision.version,
            replayed=outcome.replayed,
            current_version=outcome.record.version,
        ),
        200,
    )


@bp.post("/extractions")
def start_extraction_json() -> tuple[Response, int]:
    """Start an extraction job (`goldtext extract --background`): 202 with the job's id and where to follow it."""
    session = get_session()
    try:
        job = start_extraction(session, settings(), actor(), extraction_request(json_body()))
    except Refused as error:
        refuse(error)
    session.commit()
    dispatch(current_app, session, job)
    return jsonify(job=job.id, progress=url_for("jobs.progress", job_id=job.id)), 202


@bp.get("/leaderboard")
def leaderboard_json() -> Response:
    """`goldtext score --format json` (same options) plus extras and drift; ETag, 304 when unchanged."""
    return live_answers.conditional(figures.leaderboard_of(leaderboard_query.leaderboard_options()))


@bp.get("/leaderboard/metadata")
def leaderboard_metadata_json() -> Response:
    """The Metadata view: `goldtext score --metric title|authors|published --by type --format json`, one board a
    field, under "fields"; ETag, 304 when unchanged."""
    return live_answers.conditional(figures.metadata_of(leaderboard_query.leaderboard_options()))


@bp.get("/leaderboard/pages")
def leaderboard_pages_json() -> Response:
    """One extractor's pages worst first (`extractor`: a name or a stored fingerprint)."""
    asked = query(PAGES_QUERY)
    if not asked["extractor"]:
        abort(400, description="Name an extractor: a name or a stored fingerprint.")
    return live_answers.conditional(figures.pages_of(leaderboard_query.leaderboard_options(bootstrap=0),
                                                     asked["extractor"], asked["limit"]))


@bp.get("/sites")
def sites_json() -> Response:
    """`goldtext score --by site --format json` plus one row per site (judged, best, heat)."""
    return live_answers.conditional(figures.sites_of(leaderboard_query.leaderboard_options(
        bootstrap=leaderboard_query.SITES_RESAMPLES)))


@bp.get("/compare")
def compare_json() -> Response:
    """`goldtext compare A B --format json` (same options) plus both texts of each listed page."""
    asked = query(COMPARE_QUERY)
    if not asked["a"] or not asked["b"]:
        abort(400, description="Name two extractors or fingerprints: a and b.")
    return live_answers.conditional(figures.compare_of(leaderboard_query.leaderboard_options(), asked["a"],
                                                       asked["b"], asked["top"]))


@bp.get("/guard")
def guard_json() -> Response:
    """`goldtext guard --format json` plus acceptance per site per batch and the drift flags."""
    return live_answers.conditional(figures.guard_of(leaderboard_query.leaderboard_options(bootstrap=0)))


@bp.get("/site-rules")
def site_rules_json() -> Response:
    return live_answers.conditional(figures.rules_of(leaderboard_query.leaderboard_options(bootstrap=0)))


@bp.get("/agreement")
def agreement_json() -> Response:
    """`goldtext agreement --format json` (``by``: site, type or annotator)."""
    try:
        return jsonify(corpus_agreement(get_session(), query(AGREEMENT_QUERY)["by"]))
    except ValueError as error:
        abort(400, description=str(error))


@bp.get("/effort")
def effort_json() -> Response:
    """The Effort page's figures (``annotator``: one's only; an annotator gets their own)."""
    return jsonify(effort_figures(get_session(), effort_scope()))


@bp.get("/pages/<int:page_id>/scores")
def page_scores_json(page_id: int) -> Response:
    """The page's cached per-page precision, recall and F1, by fingerprint then metric (none, as for a page
    without gold, on a control page given to the caller: annotation/control.py)."""
    session = get_session()
    get_or_404(session, Page, page_id)
    if is_control_for(session, page_id, annotator() or ""):
        return jsonify({})
    return jsonify(page_scores(session, app_settings.metrics(), page_id))


@bp.post("/preview")
def preview_json() -> Response:
    """The gold editor's preview: ``{"markdown"}`` in, ``{"html"}`` out (safe HTML, web/markdown.py)."""
    try:
        markdown = validated(PREVIEW, json_body())["markdown"]
    except Refused as error:
        refuse(error)
    if len(markdown.encode()) > settings().gold_max_bytes:
        abort(413, description=f"The Markdown is larger than GOLD_MAX_BYTES ({settings().gold_max_bytes:,} bytes).")
    return jsonify({"html": str(render_gold(markdown))})


@bp.get("/pages/<int:page_id>/structure-tests")
def page_structure_tests_json(page_id: int) -> Response:
    """The structure tests of the page's Markdown gold, each with whether the newest extraction of each
    extractor (those named by ``extractor``, or all) passes it; none for a page without gold (a blind page
    has none)."""
    session = get_session()
    page = get_or_404(session, Page, page_id)
    named = query(STRUCTURE_TESTS_QUERY)["extractor"]
    return jsonify({"page_id": page_id, "tests": page_tests(session, page, named or None)})
