"""Exports from the browser: a form, a job with a progress bar, and the zip as a download (served by
the jobs blueprint from the database, so whichever web process answers can send it)."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..db import get_session
from ..exports.export_service import FORMATS, ExportRequest
from ..extractors.registry import build_registry
from ..jobs.start import dispatch, new_job
from ..models import Site
from ..results.extractions import current_named
from ..vocabulary import GOLD_STATUSES
from ..web.app_settings import settings
from .common import LOCAL_ACTOR, annotator, record

bp = Blueprint("exports", __name__)

def request_from_form() -> ExportRequest:
    """The export the form asks for, or 400 naming what does not fit."""
    form = request.form
    export = ExportRequest(
        form.get("format", ""),
        tuple(s for s in form.getlist("status") if s in GOLD_STATUSES),
        tuple(form.getlist("site")),
        tuple(k for k in form.getlist("type") if k),
        with_html=form.get("html", "with") != "without",
        with_extractions=form.get("extractions") == "on",
        predictions=form.get("predictions") == "on",
        adjudicated=form.get("adjudicated") == "on",
    )
    try:
        export.check(settings().taxonomy)
    except ValueError as error:
        abort(400, description=str(error))
    return export


@bp.get("/exports")
def form() -> str:
    hosts = get_session().scalars(select(Site.host).order_by(Site.host)).all()
    return render_template("exports/form.html", formats=FORMATS, statuses=GOLD_STATUSES,
                           page_types=settings().taxonomy.labels, hosts=hosts)


@bp.post("/exports")
def start() -> Response:
    export = request_from_form()
    session = get_session()
    named = current_named(session, build_registry()) if export.predictions else {}
    job = new_job(session, current_app, "export", {"request": asdict(export), "predictions": named},
                  annotator() or LOCAL_ACTOR)
    record("export", f"job {job.id}", asdict(export))
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("jobs.show", job_id=job.id))
