"""The step of an export job: write the export into a temporary folder, pack it into one zip, and keep
the zip in the database, where any web process can send it (`GET /exports/<job>/download`)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..exports.archive import zip_folder
from ..exports.service import ExportRequest, run_export
from ..models import Job
from ..results.store import refresh_scores
from ..scoring import app_metrics, eager
from .context import Context
from .extraction_steps import Follow
from .files import store_path


def export_request(params: dict) -> ExportRequest:
    fields = dict(params["request"])
    return ExportRequest(**{key: tuple(v) if isinstance(v, list) else v for key, v in fields.items()})


def archive_name(job_id: int, fmt: str) -> str:
    return f"goldtext-{fmt}-{job_id}"


def export_step(ctx: Context) -> Follow:
    request = export_request(ctx.params)
    name = archive_name(ctx.job_id, request.fmt)
    metrics = eager(app_metrics(ctx.app))
    if request.fmt == "csv":
        with ctx.writer() as session:
            ctx.check(session)
            refresh_scores(session, metrics)
            session.commit()
    reported: int | None = None

    def progress(pages: int, total: int) -> None:
        nonlocal reported
        if reported is None:
            ctx.stage("exporting", total)
            reported = 0
        if pages == total or ctx.due():
            ctx.progress(done=pages - reported)
            reported = pages

    with tempfile.TemporaryDirectory(prefix=f"goldtext-job-{ctx.job_id}-") as tmp:
        out = Path(tmp) / name
        with ctx.reader() as session:
            tally = run_export(session, request, out, predictions=ctx.params.get("predictions") or {},
                               metrics=metrics, command=request.command(name), progress=progress)
        archive = zip_folder(out, Path(tmp) / f"{name}.zip")
        with ctx.reader() as session:
            ctx.check(session)
        size = store_path(ctx.writer, ctx.job_id, archive.name, archive)
    with ctx.writer() as session:
        ctx.check(session)
        job = session.get(Job, ctx.job_id)
        job.result = {"file": f"{name}.zip", "size": size, "pages": tally.pages}
        session.commit()
    return []
