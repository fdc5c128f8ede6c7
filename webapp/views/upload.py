"""Import from the browser: the request stores the files and the empty import batch and enqueues a job;
a worker imports the files with the same service as `goldtext import` and extracts the new pages. The
report page follows the job's progress, read from its row by whichever web process answers."""

from __future__ import annotations

from collections import Counter
from typing import BinaryIO, cast

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.datastructures import FileStorage
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response

from ..corpus.importer import SITE_FROM
from ..corpus.layout import GOLD_SUFFIX, INDEX_NAMES, URL_SUFFIX, page_stem
from ..corpus.readers import FORMATS
from ..jobs.start import dispatch
from ..models import ImportBatch, Job
from ..steps.upload_step import IMPORTING, PAGES
from ..usecases.outcome import Refused
from ..usecases.start_upload import Upload, start_upload
from ..web.acting import actor
from ..web.app_settings import settings
from ..web.db import get_or_404, get_session
from ..web.outputs.job_json import job_output
from ..web.refusals import refuse
from ..web.request_input import TEXT, Form, posted, sent_files

bp = Blueprint("upload", __name__)

UPLOAD_FORM = Form({"format": TEXT, "site_from": TEXT}, {"format": "auto", "site_from": "url"})
"""How the uploaded files are read (a layout, or auto) and where each page's site comes from."""


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
    files = sent_files("files")
    if not files:
        flash("Choose at least one file to import.")
        return redirect(url_for("upload.form"))
    uploads = [Upload(f.filename or "", stored, cast(BinaryIO, f.stream))  # werkzeug types it IO[bytes]
               for f, stored in zip(files, stored_names(files))]
    session, form = get_session(), posted(UPLOAD_FORM)
    try:
        job = start_upload(session, settings(), actor(), uploads, form["format"], form["site_from"],
                           settings().upload_extractors)
    except Refused as error:
        session.rollback()
        refuse(error)
    session.commit()
    dispatch(current_app, session, job)
    return redirect(url_for("upload.report", batch_id=job.batch_id))


@bp.get("/upload/<int:batch_id>")
def report(batch_id: int) -> str:
    session = get_session()
    batch = get_or_404(session, ImportBatch, batch_id)
    job = job_of_batch(batch_id)
    described = job_output(session, job) if job else None
    importing = described is not None and not described["finished"] and described["stage"] in ("", IMPORTING)
    return render_template("upload/report.html", batch=batch, job=described,
                           reload_after=IMPORTING if importing else None)
