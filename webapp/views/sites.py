"""Sites: the sites x extractors heatmap, the guard and its drift per site and batch, site rules at work."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from ..results.cache import ScoreCache
from ..web import figures
from ..web.board_form import form_context, unavailable
from ..web.charts import acceptance_lines

bp = Blueprint("sites", __name__, url_prefix="/sites")
bp.register_error_handler(figures.MetricUnavailable, unavailable)


@bp.get("")
def index() -> str:
    query = figures.board_options(bootstrap=figures.SITES_RESAMPLES)
    data = figures.computed(figures.sites_of(query))
    return render_template("sites/index.html", data=data, **form_context(query))


def with_chart(query: figures.BoardOptions, extractor: str) -> figures.Compute:
    """The guard figures and the chart of one extractor's acceptance per site over batches."""
    guard = figures.guard_of(query)

    def compute(session, cache: ScoreCache) -> dict[str, Any]:
        data = guard(session, cache)
        sites = data["acceptance_by_site_batch"].get(extractor, {})
        data["chart_extractor"] = extractor
        lines = {site: [(r["batch"], r["rate"]) for r in rows] for site, rows in sites.items()}
        data["chart"] = acceptance_lines(lines)
        return data

    return compute


@bp.get("/guard")
def guard() -> str:
    query = figures.board_options(bootstrap=0, needs_metric=False)
    extractor = request.args.get("chart") or figures.settings().default_extractor
    data = figures.computed(with_chart(query, extractor))
    return render_template("sites/guard.html", data=data, **form_context(query))


@bp.get("/rules")
def rules() -> str:
    query = figures.board_options(bootstrap=0)
    data = figures.computed(figures.rules_of(query))
    return render_template("sites/rules.html", data=data, **form_context(query))
