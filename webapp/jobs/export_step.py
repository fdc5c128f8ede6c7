"""The step of an export job: write the export (or, with the parameter "pipeline", the leaderboard's choice as a
datatrove pipeline: webapp/crawl/) into a temporary folder, pack it into one zip, and keep the zip in the
database, where any web process can send it (`GET /exports/<job>/download`)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ..crawl.choice import PipelineRequest
from ..crawl.export import export_pipeline
from ..exports.archive import zip_folder
from ..exports.export_service import ExportRequest, run_export
from ..models import Job
from ..results.store import refresh_scores
from ..scoring import resolve_metric
from .context import Context
from .extraction_steps import Follow
from .files import store_path


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
        refresh_scores(session, {request.metric: resolve_metric(metrics, request.metric)},
                       no_content=ctx.settings.taxonomy.no_content)
        session.commit()
    with tempfile.TemporaryDirectory(prefix=f"goldtext-job-{ctx.job_id}-") as tmp:
        out = Path(tmp) / name
        with ctx.reader() as session:
            export_pipeline(session, ctx.settings.registry, metrics, request, ctx.settings.run,
                            ctx.settings.taxonomy.page_types, out, request.command(name))
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
            refresh_scores(session, metrics, no_content=ctx.settings.taxonomy.no_content)
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
        keep_archive(ctx, out, name, {"pages": tally.pages})
    return []
