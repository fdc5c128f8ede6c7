"""The extractors page: every registered extractor, user-defined variant and composition, with the forms that add
and remove variants and compositions (the same use cases as `goldtext extractors add`, `compose` and `remove`),
and the form that exports the leaderboard's choice as a datatrove pipeline (an export job, as `goldtext export
--format datatrove`)."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..accounts.roles import ADMIN
from ..crawl.choice import NO_CHALLENGER, NoChoice, PipelineRequest
from ..crawl.plan import EXECUTORS
from ..extractors.composing import KINDS, ROUTE, ROUTE_BY
from ..extractors.extraction_service import known_now
from ..extractors.options import settable
from ..jobs.start import dispatch
from ..usecases.manage_compositions import CompositionRequest, compose_extractors, remove_composed
from ..usecases.manage_variants import add_extractor_variant, remove_extractor_variant
from ..usecases.outcome import Refused
from ..usecases.start_export import start_pipeline_export
from ..web import app_settings
from ..web.acting import actor, current_role
from ..web.db import get_session
from ..web.refusals import refuse
from ..web.request_input import TEXT, BadField, Form, posted, sent_back, whole

bp = Blueprint("extractors", __name__, url_prefix="/extractors")

VARIANT_FORM = Form({"name": TEXT, "base": TEXT, "options": TEXT}, {"name": "", "base": "", "options": ""})
"""A variant: its name, the extractor it varies and its options (`KEY=VALUE` a line)."""
COMPOSITION_FORM = Form({"name": TEXT, "kind": TEXT, "parts": TEXT, "by": TEXT, "table": TEXT},
                        {"name": "", "kind": "", "parts": "", "table": ""})
"""A composition: its name and kind, its parts (one a line, or comma-separated), a route's key and table."""
PIPELINE_FORM = Form({"extractor": TEXT, "challenger": TEXT, "executor": TEXT,
                      "keep_html_bytes": whole(0, what="a number of bytes: a whole number")},
                     {"extractor": "", "executor": EXECUTORS[0], "keep_html_bytes": 0})
"""The crawl pipeline: its extractor (or by-type), a challenger, the executor, how much HTML to keep."""


def page(error: str | None = None, status: int = 200, pipeline_error: str | None = None,
         compose_error: str | None = None) -> tuple[str, int]:
    """The list and the add form, the form keeping what was sent with the error that stopped it."""
    session = get_session()
    registry = app_settings.registry()
    known = known_now(session, registry)
    bases = {name: sorted(settable(extractor)) for name, extractor in registry.items()}
    runnable = [extractor.name for extractor in known.values() if extractor.available]
    parts = [name for name in runnable if not known[name].parts]
    html = render_template("extractors/index.html", extractors=known.values(), registered=set(registry),
                           runnable=runnable, parts=parts, kinds=KINDS, route_by=ROUTE_BY, no_challenger=NO_CHALLENGER,
                           executors=EXECUTORS,
                           bases={name: options for name, options in bases.items() if options},
                           error=error, pipeline_error=pipeline_error, compose_error=compose_error, sent=sent_back(),
                           admin=current_role() == ADMIN)
    return html, status


@bp.get("")
def index() -> tuple[str, int]:
    return page()


@bp.post("/variants")
def add() -> Response | tuple[str, int]:
    form = posted(VARIANT_FORM)
    pairs = [line.strip() for line in form["options"].splitlines() if line.strip()]
    session = get_session()
    try:
        variant = add_extractor_variant(session, app_settings.settings(), actor(), form["name"], form["base"], pairs)
    except Refused as error:
        session.rollback()
        return page(error.reason, error.status)
    session.commit()
    flash(f"Variant {variant.name} saved; the next extraction run computes it.")
    return redirect(url_for("extractors.index"))


@bp.post("/variants/<name>/remove")
def remove(name: str) -> Response | tuple[str, int]:
    session = get_session()
    try:
        remove_extractor_variant(session, actor(), name)
    except Refused as error:
        session.rollback()
        return page(error.reason, error.status)
    session.commit()
    flash(f"Variant {name} removed; its extractions are kept.")
    return redirect(url_for("extractors.index"))


def composition_request() -> CompositionRequest:
    """The composition the form asks for: its parts one a line (or comma-separated), a route's table
    `KEY=EXTRACTOR` a line (none: the leaderboard's winners)."""
    form = posted(COMPOSITION_FORM)
    kind = form["kind"]
    parts = tuple(name.strip() for name in form["parts"].replace(",", "\n").splitlines() if name.strip())
    lines = [line.strip() for line in form["table"].splitlines() if line.strip()]
    table = {key.strip(): part.strip() for key, _, part in (line.partition("=") for line in lines)} if lines else None
    return CompositionRequest(form["name"], kind, parts if kind != ROUTE else (),
                              form["by"] if kind == ROUTE else None, table if kind == ROUTE else None)


@bp.post("/compositions")
def compose() -> Response | tuple[str, int]:
    """Store a composition and start the job that derives and scores its extractions."""
    session = get_session()
    try:
        done = compose_extractors(session, app_settings.settings(), actor(), composition_request())
    except Refused as error:
        session.rollback()
        if error.status != 400:
            refuse(error)
        return page(status=400, compose_error=error.reason)
    session.commit()
    dispatch(current_app, session, done.job)
    flash(f"Composition {done.extractor.name} saved ({done.extractor.description}); its extractions are being "
          "derived from its parts' and scored.")
    return redirect(url_for("extractors.index"))


@bp.post("/compositions/<composition>/remove")
def remove_composition(composition: str) -> Response | tuple[str, int]:
    session = get_session()
    try:
        remove_composed(session, actor(), composition)
    except Refused as error:
        session.rollback()
        return page(error.reason, error.status)
    session.commit()
    flash(f"Composition {composition} removed; its extractions are kept.")
    return redirect(url_for("extractors.index"))


def pipeline_request() -> PipelineRequest:
    """The pipeline the form asks for; NoChoice naming what does not fit."""
    form = posted(PIPELINE_FORM)
    chosen = form["extractor"]
    return PipelineRequest(None if chosen == "by-type" else chosen, "type" if chosen == "by-type" else None,
                           form["challenger"], form["keep_html_bytes"], executor=form["executor"])


@bp.post("/pipeline")
def pipeline() -> Response | tuple[str, int]:
    """Start the export job that writes the pipeline; its page offers the zip when it is done."""
    session = get_session()
    try:
        job = start_pipeline_export(session, app_settings.settings(), actor(), pipeline_request())
    except (NoChoice, BadField) as error:
        return page(status=400, pipeline_error=error.description if isinstance(error, BadField) else str(error))
    except Refused as error:
        session.rollback()
        if error.status != 400:
            refuse(error)
        return page(status=400, pipeline_error=error.reason)
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("jobs.show", job_id=job.id))
