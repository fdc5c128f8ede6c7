"""Jobs in the browser: the list, one job's page, its progress as JSON (read from the job's row, so
any web process answers), cancelling, an export's download, and the health check for load balancers."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..jobs.broker import broker, describe_broker
from ..jobs.files import file_size, iter_file
from ..jobs.health import broker_reachable, database_writable
from ..jobs.records import STATUSES, list_jobs, live_workers
from ..models import Job
from ..usecases import cancel_job
from ..usecases.outcome import Refused
from ..web.acting import actor
from ..web.db import database, flask_app, get_or_404, get_session, readers
from ..web.json_error import json_error
from ..web.outputs.job_json import job_output, jobs_output
from ..web.refusals import refuse
from ..web.request_input import TEXT, Form, query

bp = Blueprint("jobs", __name__)

JOBS_QUERY = Form({"status": TEXT})
"""The status of the jobs listed (an unknown one: every job)."""


@bp.get("/jobs")
def index() -> str:
    session = get_session()
    status = query(JOBS_QUERY)["status"]
    rows = jobs_output(session, list_jobs(session, status if status in STATUSES else None))
    return render_template("jobs/index.html", jobs=rows, workers=live_workers(session), statuses=STATUSES,
                           status=status, broker=describe_broker(current_app))


@bp.get("/jobs/<int:job_id>")
def show(job_id: int) -> str:
    session = get_session()
    job = get_or_404(session, Job, job_id)
    return render_template("jobs/show.html", job=job_output(session, job))


@bp.get("/api/jobs/<int:job_id>")
def progress(job_id: int) -> Response:
    """The job's row as JSON: status, stage, done, total, errors, error, stalled (a reason, or null), busy
    (what a worker is doing for it now, or null)."""
    session = get_session()
    job = session.get(Job, job_id)
    if job is None:
        return json_error(404, f"no job {job_id}", finished=True, unknown=True)
    response = jsonify(job_output(session, job))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/jobs/<int:job_id>/cancel")
def cancel(job_id: int) -> Response:
    session = get_session()
    try:
        cancel_job.cancel(session, actor(), job_id)
    except Refused as error:
        refuse(error)
    session.commit()
    return redirect(url_for("jobs.show", job_id=job_id))


@bp.get("/jobs/<int:job_id>/download")
def download(job_id: int) -> Response:
    """A finished export's zip, streamed from the database a part at a time, always as an attachment."""
    session = get_session()
    job = get_or_404(session, Job, job_id)
    name = (job.result or {}).get("file")
    if job.kind != "export" or job.status != "done" or not name:
        abort(409, description=f"Job {job_id} has no finished export to download (status: {job.status}).")
    size = file_size(session, job_id, name)
    if size is None:
        abort(410, description=f"The archive of job {job_id} is no longer stored.")
    session.close()
    response = Response(iter_file(readers(), job_id, name), mimetype="application/zip")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Content-Length"] = str(size)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/health")
def health() -> tuple[Response, int]:
    """200 when the database takes a write within a short bound and the broker answers; 503 otherwise,
    with each part's status ("ok", or what failed)."""
    app = flask_app()
    checks = {"database": database_writable(lambda: database(app).engine),
              "broker": broker_reachable(lambda: broker(app))}
    healthy = all(value == "ok" for value in checks.values())
    response = jsonify(status="ok" if healthy else "failing", **checks)
    response.headers["Cache-Control"] = "no-store"
    return response, 200 if healthy else 503
