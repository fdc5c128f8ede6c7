"""Sites: the sites x extractors heatmap, the guard and its drift per site and batch, site rules at work and
the rule a site's gold pages teach (offered only where it beats the site's best extractor leave-one-out)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..accounts.roles import ADMIN, at_least
from ..annotation.prefill import METRIC
from ..results.cache import ScoreCache
from ..results.leaderboard_figures import LeaderboardOptions
from ..results.rule_proof import MIN_PAGES
from ..results.rule_proposal import gold_sites, site_proof
from ..usecases.accept_rule import accept_learned_rule, learned_proof
from ..usecases.outcome import Refused
from ..web import app_settings, figures, leaderboard_query, live_answers, request_input
from ..web.acting import actor, current_role
from ..web.app_settings import settings
from ..web.charts import acceptance_lines
from ..web.db import get_session, readers
from ..web.leaderboard_form import form_context, unavailable
from ..web.refusals import refuse

bp = Blueprint("sites", __name__, url_prefix="/sites")

CHART_QUERY = request_input.Form({"chart": request_input.TEXT})
"""The extractor whose acceptance the guard's chart draws (none: the default extractor)."""
SITE_FORM = request_input.Form({"site": request_input.TEXT}, {"site": ""})
"""The site whose learned rule is shown or accepted."""
bp.register_error_handler(leaderboard_query.MetricUnavailable, unavailable)


@bp.get("")
def index() -> str:
    query = leaderboard_query.leaderboard_options(bootstrap=leaderboard_query.SITES_RESAMPLES)
    data = live_answers.computed(figures.sites_of(query))
    return render_template("sites/index.html", data=data, **form_context(query))


def with_chart(query: LeaderboardOptions, extractor: str) -> live_answers.Compute:
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
    query = leaderboard_query.leaderboard_options(bootstrap=0, needs_metric=False)
    extractor = request_input.query(CHART_QUERY)["chart"] or app_settings.settings().default_extractor
    data = live_answers.computed(with_chart(query, extractor))
    return render_template("sites/guard.html", data=data, **form_context(query))


@bp.get("/rules")
def rules() -> str:
    query = leaderboard_query.leaderboard_options(bootstrap=0)
    data = live_answers.computed(figures.rules_of(query))
    learnable = gold_sites(get_session(), MIN_PAGES)
    return render_template("sites/rules.html", data=data, learnable=learnable, min_pages=MIN_PAGES,
                           **form_context(query))


@bp.get("/rules/learned")
def learned() -> str:
    """The rule the site's gold pages teach and its leave-one-out figures against the site's best
    extractor; the rule and its Accept only where it beats."""
    host = request_input.query(SITE_FORM)["site"].strip().lower()
    proof = site_proof(get_session(), settings().registry, settings().metrics[METRIC], host)
    return render_template("sites/learned.html", proof=proof, may_accept=at_least(current_role() or "", ADMIN))


@bp.post("/rules/learned")
def accept_learned() -> Response:
    """An admin accepts the site's learned rule (learned and proven again from the gold as it stands)."""
    session = get_session()
    host = request_input.posted(SITE_FORM)["site"].strip().lower()
    who = actor()
    session.rollback()  # learning takes seconds: no write lock is held meanwhile
    with readers()() as reading:
        proof = learned_proof(reading, settings(), host)
    try:
        _, proof = accept_learned_rule(session, who, host, proof)
    except Refused as error:
        refuse(error)
    session.commit()
    flash(f"The learned rule of {host} is its site rule now ({proof.reason}); "
          "run `goldtext extract --extractor site-rules` to apply it.")
    return redirect(url_for("sites.rules"))
