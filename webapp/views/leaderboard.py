"""The leaderboard (live), an extractor's pages worst first, and the head-to-head of two fingerprints."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ..annotation.page_filter import filter_choices
from ..db import get_session
from ..jobs.start import dispatch
from ..results.cache import ScoreCache
from ..results.extractions import stored_fingerprints
from ..results.leaderboard import f1_distribution
from ..web import figures
from ..web.charts import f1_boxes, precision_recall
from ..web.query_args import int_arg, page_filter
from .common import record

bp = Blueprint("leaderboard", __name__, url_prefix="/leaderboard")

PAGES_LIMIT = 100
CARRIED = ("metric", "average", "site", "kind", "batch", "annotator", "extractor", "bootstrap", "seed")


@bp.app_template_filter("pct")
def pct(value: float | None) -> str:
    """A share as a percentage with one decimal, a dash when undefined."""
    return "–" if value is None else f"{100 * value:.1f}%"


@bp.app_template_filter("ranked")
def ranked(extractors: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(name, figures) by F1, best first; undefined F1 last."""
    return sorted(extractors.items(), key=lambda item: (item[1]["f1"] is None, -(item[1]["f1"] or 0), item[0]))


@bp.app_template_global("carry")
def carry(args: MultiDict, *dropped: str) -> dict[str, list[str]]:
    """The leaderboard's query arguments present in `args` (minus `dropped`), to carry along in links."""
    return {name: args.getlist(name) for name in CARRIED if name not in dropped and args.get(name)}


def form_context(query: figures.BoardOptions) -> dict[str, Any]:
    """What the filter form needs: the choices, the current query, the query string to carry along."""
    return {
        "query": query,
        "metrics": figures.metrics(),
        "kinds": figures.settings().taxonomy.labels,
        "choices": filter_choices(get_session()),
        "args": request.args,
    }


def unavailable(error: figures.MetricUnavailable) -> tuple[str, int]:
    """The figures' pages for an unavailable metric: the filters, to choose another, and why."""
    query = figures.BoardOptions(metric=error.metric.name, average=None, filters=page_filter(request.args),
                                 extractors=(), bootstrap=0, seed=0)
    page = render_template("leaderboard/unavailable.html", metric=error.metric, message=error.description,
                           **form_context(query))
    return page, error.code or 400


bp.register_error_handler(figures.MetricUnavailable, unavailable)


def plots(query: figures.BoardOptions) -> figures.Compute:
    """The table's figures and, over the same pages, the precision-recall and per-page F1 plots."""
    table = figures.leaderboard_of(query)

    def compute(session, cache: ScoreCache) -> dict[str, Any]:
        data = table(session, cache)
        named = {name: extra["fingerprint"] for name, extra in data["extras"].items()}
        points = [{"name": name, **f} for name, f in data["extractors"].items()]
        data["pr_chart"] = precision_recall(points)
        key = ("f1 distribution", query.metric, tuple(named.items()), query.filters)
        spread = figures.shared_scores().remembered(
            key, lambda: f1_distribution(cache, query.metric, named, query.filters)
        )
        data["f1_chart"] = f1_boxes(spread, data["ceiling"]["f1"] if data["ceiling"] else None)
        return data

    return compute


@bp.get("")
def index() -> str:
    query = figures.board_options()
    board = figures.computed(plots(query))
    return render_template("leaderboard/index.html", board=board, **form_context(query))


@bp.get("/table")
def table() -> Response:
    """The live part of the leaderboard (table and drift flags), with an ETag: the page polls it."""
    query = figures.board_options()
    return figures.conditional(
        figures.leaderboard_of(query),
        lambda board: Response(render_template("leaderboard/_board.html", board=board, args=request.args)),
    )


@bp.post("/refresh")
def refresh() -> Response:
    """Start the refresh job of a lazy metric's missing counts (or join the open one), audited; back to
    the leaderboard, which shows the counts as they arrive."""
    session = get_session()
    metric = request.form.get("metric") or ""
    job, created = figures.start_refresh(session, metric)
    session.flush()
    record("refresh", f"job {job.id}", {"metric": metric, "created": created})
    session.commit()
    if created:
        dispatch(current_app, session, job)
    return redirect(url_for("leaderboard.index", metric=metric))


@bp.get("/pages")
def pages() -> str:
    query = figures.board_options(bootstrap=0)
    ref = request.args.get("extractor") or ""
    found = figures.computed(figures.pages_of(query, ref, PAGES_LIMIT)) if ref else None
    return render_template("leaderboard/pages.html", found=found, ref=ref, **form_context(query))


@bp.get("/compare")
def compare() -> str:
    query = figures.board_options()
    a, b = request.args.get("a") or "", request.args.get("b") or ""
    top = int_arg("top", 20, 0, figures.TOP_MAX)
    result = figures.computed(figures.compare_of(query, a, b, top)) if a and b else None
    return render_template("leaderboard/compare.html", result=result, a=a, b=b, top=top,
                           stored=stored_fingerprints(get_session()), **form_context(query))
