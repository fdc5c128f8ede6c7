"""Import from the browser: the same import service as `goldtext import`, then extraction of the new
pages in the background with a progress endpoint the report page polls."""

from __future__ import annotations

import secrets
import shutil
from pathlib import Path

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response

from ..corpus.importer import SITE_FROM, import_documents, start_batch
from ..corpus.layout import GOLD_SUFFIX, INDEX_NAMES, URL_SUFFIX, page_stem
from ..corpus.readers import FORMATS, iter_documents
from ..db import get_or_404, get_session, sessions
from ..extraction import current_extractors
from ..extractors.registry import UnknownExtractor, build_registry
from ..jobs import ExtractionJob, start_extraction
from ..models import Extraction, ImportBatch, Page
from ..settings import import_limits, run_settings

bp = Blueprint("upload", __name__)

JOBS = "goldtext.jobs"
UPLOADS = "uploads"


def jobs() -> dict[int, ExtractionJob]:
    return current_app.extensions[JOBS]


def is_layout_file(name: str) -> bool:
    """A loose file of the folder layout (page, gold, URL, index): these are read together."""
    lower = name.lower()
    return (page_stem(name) is not None or lower.endswith((GOLD_SUFFIX, URL_SUFFIX))
            or lower in INDEX_NAMES)


def save_uploads(files: list[FileStorage], folder: Path) -> list[str]:
    """Store the files under folder: loose layout files together in folder/pages, archives on their
    own; returns the paths to import."""
    pages = folder / "pages"
    paths: list[str] = []
    for number, upload in enumerate(files):
        name = secure_filename(upload.filename or "") or f"upload-{number}"
        if is_layout_file(name):
            pages.mkdir(parents=True, exist_ok=True)
            upload.save(pages / name)
            continue
        target = folder / f"{number}-{name}"
        upload.save(target)
        paths.append(str(target))
    return ([str(pages)] if pages.exists() else []) + paths


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
    folder = Path(current_app.instance_path) / UPLOADS / secrets.token_hex(8)
    folder.mkdir(parents=True)
    session = get_session()
    try:
        paths = save_uploads(files, folder)
        batch = start_batch(session, ", ".join(f.filename or "" for f in files), fmt)
        outcomes = list(
            import_documents(session, batch, iter_documents(paths, fmt, import_limits()), site_from)
        )
        session.commit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    page_ids = [o.page_id for o in outcomes if o.status == "imported" and o.page_id is not None]
    if page_ids:
        start_job(batch.id, page_ids)
    return redirect(url_for("upload.report", batch_id=batch.id))


def start_job(batch_id: int, page_ids: list[int]) -> None:
    """Extract the new pages in the background with the configured extractors (all by default)."""
    names = current_app.config.get("UPLOAD_EXTRACTORS") or ()
    try:
        extractors = current_extractors(get_session(), build_registry(), names)
    except UnknownExtractor as error:
        flash(f"Pages imported, but not extracted: {error}")
        return
    jobs()[batch_id] = start_extraction(
        batch_id, sessions(), page_ids, extractors, run_settings()
    )


@bp.get("/upload/<int:batch_id>")
def report(batch_id: int) -> str:
    batch = get_or_404(get_session(), ImportBatch, batch_id)
    return render_template("upload/report.html", batch=batch, job=jobs().get(batch_id))


@bp.get("/upload/<int:batch_id>/progress")
def progress(batch_id: int) -> Response:
    """The background extraction's progress; without a job in this process, what the database holds."""
    session = get_session()
    get_or_404(session, ImportBatch, batch_id)
    job = jobs().get(batch_id)
    if job is not None:
        return jsonify(job.as_dict())
    stored = session.scalar(
        select(func.count(Extraction.id)).join(Page, Extraction.page_id == Page.id)
        .where(Page.batch_id == batch_id)
    )
    return jsonify(batch=batch_id, total=None, done=stored, errors=None, failure=None, finished=True)
