"""The Checks page and GET /api/checks: the pages whose gold failed a check when the checks last ran,
with the reasons (scoring/gold_checks.py), when each page was last checked and against which gold version,
the pages not checked since their last change (never shown as passing), and a button that runs them again
as a job."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..jobs.start import dispatch
from ..results.gold_check_runs import Failed, PageCheck, failing_by_check, overview, report
from ..scoring.gold_checks import CHECKS
from ..usecases.outcome import Refused
from ..usecases.run_checks import run_checks
from ..web.acting import actor
from ..web.app_settings import settings
from ..web.db import get_session
from ..web.refusals import refuse

bp = Blueprint("checks", __name__)


def current_report(pages: list[PageCheck]) -> dict:
    """The report of the pages checked since their last change (report()), and `stale`: the ids of the pages
    not checked since."""
    checked = [page for page in pages if not page.stale]
    failing = [Failed(page.page_id, page.url, page.reasons) for page in checked if page.reasons]
    return {**report(len(checked), failing), "stale": [page.page_id for page in pages if page.stale]}


@bp.get("/checks")
def index() -> str:
    pages = overview(get_session())
    result = current_report(pages)
    counts = failing_by_check(result)
    return render_template("checks/index.html", result=result, checks=CHECKS, counts=counts,
                           runs={page.page_id: page for page in pages},
                           stale=[page for page in pages if page.stale],
                           passing=[page for page in pages if not page.stale and not page.reasons],
                           settings=settings().check_settings())


@bp.post("/checks/run")
def run() -> Response:
    session = get_session()
    try:
        job = run_checks(session, settings(), actor())
    except Refused as error:
        refuse(error)
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("jobs.show", job_id=job.id))


@bp.get("/api/checks")
def report_json() -> Response:
    """`goldtext check --format json` as the checks last ran on the pages checked since their last change
    (the command runs them anew), and `stale`: the pages not checked since their last change."""
    return jsonify(current_report(overview(get_session())))
