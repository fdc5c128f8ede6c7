"""The Checks page and GET /api/checks: the pages whose gold failed a check when the checks last ran,
with the reasons (scoring/gold_checks.py), and a button that runs them again as a job."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..db import get_session
from ..jobs.start import dispatch, new_job
from ..results.gold_check_runs import failing_by_check, kept, report
from ..scoring.gold_checks import CHECKS
from .common import LOCAL_ACTOR, annotator, record

bp = Blueprint("checks", __name__)


@bp.get("/checks")
def index() -> str:
    result = report(*kept(get_session()))
    counts = failing_by_check(result)
    return render_template("checks/index.html", result=result, checks=CHECKS, counts=counts,
                           settings={key: current_app.config[key] for key in sorted(current_app.config)
                                     if key.startswith("CHECK_")})


@bp.post("/checks/run")
def run() -> Response:
    session = get_session()
    job = new_job(session, current_app, "check", {}, annotator() or LOCAL_ACTOR)
    record("check", f"job {job.id}")
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("jobs.show", job_id=job.id))


@bp.get("/api/checks")
def report_json() -> Response:
    """`goldtext check --format json`, as the checks last ran (the command runs them anew)."""
    return jsonify(report(*kept(get_session())))
