"""The leaderboard (live), an extractor's pages worst first, and the head-to-head of two fingerprints."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..jobs.start import dispatch
from ..results.cache import ScoreCache
from ..results.extractions import stored_fingerprints
from ..results.leaderboard_figures import LeaderboardOptions, f1_distribution
from ..results.suggestion_figures import suggestion_figures
from ..usecases.outcome import Refused
from ..usecases.read_leaderboard import MetricUnavailable
from ..usecases.refresh import start_refresh
from ..web import app_settings, figures, leaderboard_query, live_answers, request_input
from ..web.acting import actor
from ..web.charts import f1_boxes, precision_recall
from ..web.db import get_session
from ..web.leaderboard_form import form_context, unavailable

bp = Blueprint("leaderboard", __name__, url_prefix="/leaderboard")

PAGES_LIMIT = 100
REFRESH_FORM = request_input.Form({"metric": request_input.TEXT}, {"metric": ""})

bp.register_error_handler(leaderboard_query.MetricUnavailable, unavailable)


def plots(query: LeaderboardOptions) -> live_answers.Compute:
    """The table's figures and, over the same pages, the precision-recall and per-page F1 plots."""
    table = figures.leaderboard_of(query)

    def compute(session, cache: ScoreCache) -> dict[str, Any]:
        data = table(session, cache)
        named = {name: extra["fingerprint"] for name, extra in data["extras"].items()}
        points = [{"name": name, **f} for name, f in data["extractors"].items()]
        data["pr_chart"] = precision_recall(points)
        key = ("f1 distribution", query.metric, tuple(named.items()), query.filters)
        spread = app_settings.shared_scores().remembered(
            key, lambda: f1_distribution(cache, query.metric, named, query.filters)
        )
        data["f1_chart"] = f1_boxes(spread, data["ceiling"]["f1"] if data["ceiling"] else None)
        return data

    return compute


@bp.get("")
def index() -> str:
    query = leaderboard_query.leaderboard_options()
    board = live_answers.computed(plots(query))
    suggestion = suggestion_figures(get_session(), app_settings.settings().taxonomy)
    return render_template("leaderboard/index.html", board=board, suggestion=suggestion, **form_context(query))


@bp.get("/metadata")
def metadata() -> str:
    """The Metadata view: which extractor gets the title, the authors and the date right, per page type."""
    query = leaderboard_query.leaderboard_options()
    fields = live_answers.computed(figures.metadata_of(query))["fields"]
    return render_template("leaderboard/metadata.html", fields=fields, **form_context(query))


@bp.get("/table")
def table() -> Response:
    """The live part of the leaderboard (table and drift flags), with an ETag: the page polls it."""
    query = leaderboard_query.leaderboard_options()
    return live_answers.conditional(
        figures.leaderboard_of(query),
        lambda board: Response(render_template("leaderboard/_board.html", board=board, args=request_input.carried())),
    )


@bp.post("/refresh")
def refresh() -> Response:
    """Start the refresh job of a lazy metric's missing counts (or join the open one), audited; back to
    the leaderboard, which shows the counts as they arrive."""
    session = get_session()
    metric = request_input.posted(REFRESH_FORM)["metric"]
    try:
        job, created = start_refresh(session, app_settings.settings(), actor(), metric)
    except MetricUnavailable as refused:
        raise leaderboard_query.MetricUnavailable(refused) from None
    except Refused as refused:
        abort(refused.status, description=refused.reason)
    session.commit()
    if created:
        dispatch(current_app, session, job)
    return redirect(url_for("leaderboard.index", metric=metric))


@bp.get("/pages")
def pages() -> str:
    query = leaderboard_query.leaderboard_options(bootstrap=0)
    ref = request_input.query(leaderboard_query.PAGES_QUERY)["extractor"]
    found = live_answers.computed(figures.pages_of(query, ref, PAGES_LIMIT)) if ref else None
    return render_template("leaderboard/pages.html", found=found, ref=ref, **form_context(query))


@bp.get("/compare")
def compare() -> str:
    query = leaderboard_query.leaderboard_options()
    asked = request_input.query(leaderboard_query.COMPARE_QUERY)
    a, b, top = asked["a"], asked["b"], asked["top"]
    result = live_answers.computed(figures.compare_of(query, a, b, top)) if a and b else None
    return render_template("leaderboard/compare.html", result=result, a=a, b=b, top=top,
                           stored=stored_fingerprints(get_session()), **form_context(query))
