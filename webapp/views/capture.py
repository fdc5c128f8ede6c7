"""Capture from the browser (admins): the Add URLs form starts a capture job through the same use case as
`goldtext capture`; its page follows the job and shows each URL fetched, refused or failed, with the
reason, and offers the capture's WARC."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, redirect, render_template, send_file, url_for
from werkzeug.wrappers import Response

from ..jobs.start import dispatch
from ..models import Job
from ..steps.capture_step import CAPTURING, REPORT, warc_path
from ..usecases.capture_pages import CaptureRequest, render_lines, start_capture, url_lines
from ..usecases.outcome import Refused
from ..web.acting import actor
from ..web.app_settings import settings
from ..web.db import get_or_404, get_session
from ..web.outputs.job_json import job_output
from ..web.refusals import refuse
from ..web.request_input import FLAG, TEXT, Form, posted

bp = Blueprint("capture", __name__, url_prefix="/capture")

CAPTURE_FORM = Form({"urls": TEXT, "ignore_robots": FLAG, "render_all": FLAG}, {"urls": ""})
"""The addresses to capture (one a line), whether robots.txt is ignored and every page rendered."""


@bp.get("")
def form() -> str:
    return render_template("capture/form.html", max_urls=settings().capture.max_urls, urls="", error=None)


@bp.post("")
def start() -> Response | tuple[str, int]:
    form = posted(CAPTURE_FORM)
    text, obey_robots = form["urls"], not form["ignore_robots"]
    urls = tuple(url_lines(text))
    render = urls if form["render_all"] else tuple(render_lines(text))
    session = get_session()
    try:
        job = start_capture(session, settings(), actor(), CaptureRequest(urls, obey_robots, render=render))
    except Refused as error:
        if error.status != 400:
            refuse(error)
        return render_template("capture/form.html", max_urls=settings().capture.max_urls, urls=text,
                               error=error.reason), 400
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("capture.report", job_id=job.id))


def capture_job(job_id: int) -> Job:
    job = get_or_404(get_session(), Job, job_id)
    if job.kind != "capture":
        abort(404, description=f"Job {job_id} is not a capture.")
    return job


@bp.get("/<int:job_id>")
def report(job_id: int) -> str:
    job = capture_job(job_id)
    rows = sorted((job.result or {}).get(REPORT, []), key=lambda row: int(row["index"]))
    waiting = job.status == "queued" or job.stage in ("", CAPTURING)
    return render_template("capture/report.html", job=job_output(get_session(), job), rows=rows,
                           urls=job.params.get("urls", []), obey_robots=job.params.get("obey_robots", True),
                           batch_id=job.batch_id,
                           reload_after=CAPTURING if waiting else None,
                           warc=Path(job.result["warc"]).name if (job.result or {}).get("warc") else None)


@bp.get("/<int:job_id>/warc")
def warc(job_id: int) -> Response:
    """The capture's WARC from the instance folder, as an attachment."""
    job = capture_job(job_id)
    path = warc_path(current_app.instance_path, job.id)
    if not (job.result or {}).get("warc") or not path.is_file():
        abort(409, description=f"Capture {job_id} has no WARC yet (status: {job.status}).")
    get_session().close()
    response = send_file(path, mimetype="application/warc", as_attachment=True, download_name=path.name)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
