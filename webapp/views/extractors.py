"""The extractors page: every registered extractor and user-defined variant, with the forms that add and
remove variants (the same services as `goldtext extractors add` and `remove`), and the form that exports the
leaderboard's choice as a datatrove pipeline (an export job, as `goldtext export --format datatrove`)."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..accounts.roles import ADMIN
from ..crawl.choice import NO_CHALLENGER, NoChoice, PipelineRequest
from ..db import get_session
from ..extractors.extraction_service import current_extractors
from ..extractors.options import settable
from ..extractors.registry import UnknownExtractor
from ..extractors.variants import BadVariant, add_variant, remove_variant, with_variants
from ..jobs.start import dispatch, new_job
from ..web import app_settings
from .common import LOCAL_ACTOR, annotator, current_role, record

bp = Blueprint("extractors", __name__, url_prefix="/extractors")


def page(error: str | None = None, status: int = 200, pipeline_error: str | None = None) -> tuple[str, int]:
    """The list and the add form, the form keeping what was sent with the error that stopped it."""
    session = get_session()
    registry = app_settings.registry()
    known = with_variants(session, registry)
    bases = {name: sorted(settable(extractor)) for name, extractor in registry.items()}
    runnable = [extractor.name for extractor in known.values() if extractor.available]
    html = render_template("extractors/index.html", extractors=known.values(), registered=set(registry),
                           runnable=runnable, no_challenger=NO_CHALLENGER,
                           bases={name: options for name, options in bases.items() if options},
                           error=error, pipeline_error=pipeline_error, sent=request.form, admin=current_role() == ADMIN)
    return html, status


@bp.get("")
def index() -> tuple[str, int]:
    return page()


@bp.post("/variants")
def add() -> Response | tuple[str, int]:
    pairs = [line.strip() for line in request.form.get("options", "").splitlines() if line.strip()]
    session = get_session()
    try:
        variant = add_variant(session, app_settings.registry(), request.form.get("name", "").strip(),
                              request.form.get("base", ""), pairs, created_by=annotator() or LOCAL_ACTOR)
    except BadVariant as error:
        session.rollback()
        return page(str(error), 400)
    record("variant.add", variant.name, {"base": request.form.get("base", ""), "options": pairs})
    session.commit()
    flash(f"Variant {variant.name} saved; the next extraction run computes it.")
    return redirect(url_for("extractors.index"))


@bp.post("/variants/<name>/remove")
def remove(name: str) -> Response | tuple[str, int]:
    session = get_session()
    try:
        remove_variant(session, name)
    except BadVariant as error:
        session.rollback()
        return page(str(error), 404)
    record("variant.remove", name)
    session.commit()
    flash(f"Variant {name} removed; its extractions are kept.")
    return redirect(url_for("extractors.index"))


def pipeline_request() -> PipelineRequest:
    """The pipeline the form asks for; NoChoice naming what does not fit."""
    form = request.form
    chosen = form.get("extractor", "")
    challenger = form.get("challenger", "") or None
    try:
        keep = int(form.get("keep_html_bytes", "0") or 0)
    except ValueError:
        raise NoChoice("keep the HTML up to a number of bytes") from None
    pipeline = PipelineRequest(None if chosen == "by-type" else chosen, "type" if chosen == "by-type" else None,
                               challenger, keep)
    pipeline.check()
    names = [n for n in (pipeline.extractor, challenger) if n and n != NO_CHALLENGER]
    try:
        current_extractors(get_session(), app_settings.registry(), names) if names else None
    except UnknownExtractor as error:
        raise NoChoice(str(error)) from error
    return pipeline


@bp.post("/pipeline")
def pipeline() -> Response | tuple[str, int]:
    """Start the export job that writes the pipeline; its page offers the zip when it is done."""
    try:
        chosen = pipeline_request()
    except NoChoice as error:
        return page(status=400, pipeline_error=str(error))
    session = get_session()
    job = new_job(session, current_app, "export", {"pipeline": asdict(chosen)}, annotator() or LOCAL_ACTOR)
    record("export", f"job {job.id}", {"format": "datatrove", **asdict(chosen)})
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("jobs.show", job_id=job.id))
