"""The step of an export job: write the export (or, with the parameter "pipeline", the leaderboard's choice as a
datatrove pipeline: webapp/crawl/) into a temporary folder, pack it into one zip, and keep the zip in the
database, where any web process can send it (`GET /exports/<job>/download`)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ..crawl.choice import PipelineRequest
from ..exports.archive import zip_folder
from ..exports.export_service import ExportRequest
from ..jobs.context import Context, Follow
from ..jobs.files import store_path
from ..models import Job
from ..scoring import resolve_metric
from ..usecases.export_pages import export_pages, export_pipeline_choice
from ..usecases.outcome import Actor
from ..usecases.refresh import refresh_counts


def export_request(params: dict) -> ExportRequest:
    fields = dict(params["request"])
    if "kinds" in fields:  # queued before the page type had one name (one release)
        fields["page_types"] = fields.pop("kinds")
    values: dict[str, Any] = {key: tuple(v) if isinstance(v, list) else v for key, v in fields.items()}
    return ExportRequest(**values)


def archive_name(job_id: int, fmt: str) -> str:
    return f"goldtext-{fmt}-{job_id}"


def pipeline_step(ctx: Context) -> Follow:
    """The datatrove pipeline of the leaderboard's choice, zipped: pipeline.py and pipeline.json."""
    request = PipelineRequest(**ctx.params["pipeline"])
    name = archive_name(ctx.job_id, "datatrove")
    metrics = ctx.settings.metrics
    with ctx.writer() as session:
        ctx.check(session)
        refresh_counts(session, ctx.settings, Actor.of_job(session, ctx.job_id),
                              {request.metric: resolve_metric(metrics, request.metric)})
        session.commit()
    with tempfile.TemporaryDirectory(prefix=f"goldtext-job-{ctx.job_id}-") as tmp:
        out = Path(tmp) / name
        with ctx.reader() as session:
            export_pipeline_choice(session, ctx.settings, Actor.of_job(session, ctx.job_id), request, metrics, out,
                                   request.command(name), job=ctx.job_id)
        keep_archive(ctx, out, name, {})
    return []


def keep_archive(ctx: Context, out: Path, name: str, result: dict) -> None:
    """Zip the folder, store the zip for download and record it as the job's result."""
    archive = zip_folder(out, out.parent / f"{name}.zip")
    with ctx.reader() as session:
        ctx.check(session)
    size = store_path(ctx.writer, ctx.job_id, archive.name, archive)
    with ctx.writer() as session:
        ctx.check(session)
        job = session.get(Job, ctx.job_id)
        assert job is not None  # ctx.check found it open
        job.result = {"file": f"{name}.zip", "size": size, **result}
        session.commit()


def export_step(ctx: Context) -> Follow:
    if "pipeline" in ctx.params:
        return pipeline_step(ctx)
    request = export_request(ctx.params)
    name = archive_name(ctx.job_id, request.fmt)
    metrics = ctx.settings.eager
    if request.fmt == "csv":
        with ctx.writer() as session:
            ctx.check(session)
            refresh_counts(session, ctx.settings, Actor.of_job(session, ctx.job_id), metrics)
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
            tally = export_pages(session, ctx.settings, Actor.of_job(session, ctx.job_id), request, out,
                                 metrics=metrics, predictions=ctx.params.get("predictions") or {}, progress=progress,
                                 command=request.command(name), job=ctx.job_id)
        keep_archive(ctx, out, name, {"pages": tally.pages})
    return []
