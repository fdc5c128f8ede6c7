"""Exports from the browser: a form, a background job with a progress bar, and the zip as a download."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, send_file, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..db import get_session, sessions
from ..exports.job import ExportJob, start_export
from ..exports.service import FORMATS, ExportRequest
from ..extractors.registry import build_registry
from ..kinds import GOLD_STATUSES, PAGE_KINDS
from ..models import Site
from ..standings import current_named

bp = Blueprint("exports", __name__)

EXPORT_JOBS = "goldtext.export_jobs"
EXPORTS = "exports"


def export_jobs() -> dict[str, ExportJob]:
    return current_app.extensions.setdefault(EXPORT_JOBS, {})


def job_or_404(job_id: str) -> ExportJob:
    job = export_jobs().get(job_id)
    if job is None:
        abort(404)
    return job


def request_from_form() -> ExportRequest:
    """The export the form asks for, or 400 naming what does not fit."""
    form = request.form
    export = ExportRequest(
        form.get("format", ""),
        tuple(s for s in form.getlist("status") if s in GOLD_STATUSES),
        tuple(form.getlist("site")),
        tuple(k for k in form.getlist("kind") if k in PAGE_KINDS),
        with_html=form.get("html", "with") != "without",
        with_extractions=form.get("extractions") == "on",
        predictions=form.get("predictions") == "on",
    )
    try:
        export.check()
    except ValueError as error:
        abort(400, description=str(error))
    return export


@bp.get("/exports")
def form() -> str:
    hosts = get_session().scalars(select(Site.host).order_by(Site.host)).all()
    return render_template("exports/form.html", formats=FORMATS, statuses=GOLD_STATUSES, kinds=PAGE_KINDS,
                           hosts=hosts)


@bp.post("/exports")
def start() -> Response:
    export = request_from_form()
    named = current_named(get_session(), build_registry()) if export.predictions else {}
    root = Path(current_app.instance_path) / EXPORTS
    job = start_export(export, sessions(), root, named)
    export_jobs()[job.id] = job
    return redirect(url_for("exports.status", job_id=job.id))


@bp.get("/exports/<job_id>")
def status(job_id: str) -> str:
    return render_template("exports/status.html", job=job_or_404(job_id))


@bp.get("/exports/<job_id>/progress")
def progress(job_id: str) -> Response:
    return jsonify(job_or_404(job_id).as_dict())


@bp.get("/exports/<job_id>/download")
def download(job_id: str) -> Response:
    """The export's zip, always as an attachment (never rendered)."""
    job = job_or_404(job_id)
    if not job.ready:
        abort(409, description="The export is not finished yet.")
    response = send_file(job.archive, mimetype="application/zip", as_attachment=True,
                         download_name=job.archive.name, max_age=0)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"
    return response
