"""Import from the browser: the request stores the files and the empty import batch and enqueues a job;
a worker imports the files with the same service as `goldtext import` and extracts the new pages. The
report page follows the job's progress, read from its row by whichever web process answers."""

from __future__ import annotations

from collections import Counter
from typing import BinaryIO, cast

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.datastructures import FileStorage
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response

from ..corpus.importer import SITE_FROM, start_batch
from ..corpus.layout import GOLD_SUFFIX, INDEX_NAMES, URL_SUFFIX, page_stem
from ..corpus.readers import FORMATS
from ..db import get_or_404, get_session
from ..jobs.files import store_file
from ..jobs.records import describe
from ..jobs.start import dispatch, new_job
from ..jobs.upload_step import IMPORTING, PAGES
from ..models import ImportBatch, Job
from ..usecases.extract import checked_extractors
from ..usecases.outcome import Refused
from ..web.app_settings import settings
from .common import LOCAL_ACTOR, annotator, record

bp = Blueprint("upload", __name__)


def is_layout_file(name: str) -> bool:
    """A loose file of the folder layout (page, gold, URL, index): these are read together."""
    lower = name.lower()
    return (page_stem(name) is not None or lower.endswith((GOLD_SUFFIX, URL_SUFFIX))
            or lower in INDEX_NAMES)


def stored_names(files: list[FileStorage]) -> list[str]:
    """Where the job keeps each uploaded file: loose layout files together under pages/, archives alone.
    A loose file whose name came earlier in the upload (two `source.html` picked from two folders) is
    kept as its k-th occurrence, `source~2.html`, so both are imported; `source.gold.txt` picked twice
    becomes `source~2.gold.txt` the same way, so each gold stays with the page of its occurrence."""
    names: list[str] = []
    seen: Counter[str] = Counter()
    for number, upload in enumerate(files):
        name = secure_filename(upload.filename or "") or f"upload-{number}"
        if not is_layout_file(name):
            names.append(f"{number}-{name}")
            continue
        seen[name] += 1
        names.append(f"{PAGES}/{occurrence(name, seen[name])}")
    return names


def occurrence(name: str, k: int) -> str:
    """NAME~k.SUFFIX for the k-th file of this name (k > 1), keeping the layout's suffix whole."""
    if k == 1:
        return name
    lower = name.lower()
    suffix = next((s for s in (GOLD_SUFFIX, URL_SUFFIX) if lower.endswith(s)), None)
    if suffix is None:
        stem = page_stem(name)
        suffix = name[len(stem):] if stem is not None else ""
    stem = name[: len(name) - len(suffix)]
    return f"{stem}~{k}{suffix}"


def job_of_batch(batch_id: int) -> Job | None:
    """The upload job that fills this batch (None for a batch imported by `goldtext import`)."""
    return get_session().scalars(select(Job).where(Job.batch_id == batch_id).order_by(Job.id.desc()).limit(1)).first()


@bp.get("/upload")
def form() -> str:
    return render_template("upload/form.html", formats=FORMATS, site_from=SITE_FROM)


@bp.post("/upload")
def receive() -> Response:
    files = [f for f in request.files.getlist("files") if f.filename]
    fmt = request.form.get("format", "auto")
    site_from = request.form.get("site_from", "url")
    if fmt not in FORMATS or site_from not in SITE_FROM:
        abort(400, description="Unknown format or site source.")
    if not files:
        flash("Choose at least one file to import.")
        return redirect(url_for("upload.form"))
    names = current_app.config.get("UPLOAD_EXTRACTORS") or ()
    session = get_session()
    try:
        checked_extractors(session, settings(), names)
    except Refused as error:
        abort(500, description=f"UPLOAD_EXTRACTORS names an unknown extractor: {error.reason}")
    who = annotator() or LOCAL_ACTOR
    batch = start_batch(session, ", ".join(f.filename or "" for f in files), fmt, who)
    job = new_job(session, current_app, "upload",
                  {"batch": batch.id, "format": fmt, "site_from": site_from, "extractors": list(names)}, who)
    job.batch_id = batch.id
    for name, upload in zip(stored_names(files), files):
        store_file(session, job.id, name, cast(BinaryIO, upload.stream))  # werkzeug types it IO[bytes]
    record("import", f"batch {batch.id}", {"files": [f.filename for f in files], "format": fmt, "job": job.id})
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("upload.report", batch_id=batch.id))


@bp.get("/upload/<int:batch_id>")
def report(batch_id: int) -> str:
    session = get_session()
    batch = get_or_404(session, ImportBatch, batch_id)
    job = job_of_batch(batch_id)
    described = describe(session, job) if job else None
    importing = described is not None and not described["finished"] and described["stage"] in ("", IMPORTING)
    return render_template("upload/report.html", batch=batch, job=described,
                           reload_after=IMPORTING if importing else None)
