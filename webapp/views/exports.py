"""Exports from the browser: a form, a job with a progress bar, and the zip as a download (served by
the jobs blueprint from the database, so whichever web process answers can send it)."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..exports.export_service import FORMATS, ExportRequest
from ..foundation.vocabulary import GOLD_STATUSES
from ..jobs.start import dispatch
from ..models import Site
from ..usecases.outcome import Refused
from ..usecases.start_export import start_export
from ..web.acting import actor
from ..web.app_settings import settings
from ..web.db import get_session
from ..web.refusals import refuse
from ..web.request_input import FLAG, TEXT, TEXTS, Form, posted

bp = Blueprint("exports", __name__)

EXPORT_FORM = Form({"format": TEXT, "status": TEXTS, "site": TEXTS, "type": TEXTS, "html": TEXT, "extractions": FLAG,
                    "predictions": FLAG, "adjudicated": FLAG}, {"format": "", "html": "with"})
"""The export the form asks for: the format, the pages (statuses, sites, types), what goes with them."""


def request_from_form() -> ExportRequest:
    """The export the form asks for (the use case checks it)."""
    form = posted(EXPORT_FORM)
    return ExportRequest(
        form["format"],
        tuple(s for s in form["status"] if s in GOLD_STATUSES),
        tuple(form["site"]),
        tuple(form["type"]),
        with_html=form["html"] != "without",
        with_extractions=form["extractions"],
        predictions=form["predictions"],
        adjudicated=form["adjudicated"],
    )


@bp.get("/exports")
def form() -> str:
    hosts = get_session().scalars(select(Site.host).order_by(Site.host)).all()
    return render_template("exports/form.html", formats=FORMATS, statuses=GOLD_STATUSES,
                           page_types=settings().taxonomy.labels, hosts=hosts)


@bp.post("/exports")
def start() -> Response:
    session = get_session()
    try:
        job = start_export(session, settings(), actor(), request_from_form())
    except Refused as error:
        refuse(error)
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("jobs.show", job_id=job.id))
