"""The first step of a capture's job: fetch each URL (webapp/capture), with its styled snapshot's requisites
and, for the URLs asked, its rendering in Chromium, then hand on to the import step (the upload's) and the
extraction.

Each URL's WARC records are stored as a job file as soon as it is fetched, and its report row in the
job's result, in one transaction: a capture killed midway starts again after the last URL it stored.
When every URL is done, the capture's WARC is written to the instance folder (`captures/capture-JOB.warc.gz`:
a `warcinfo` record, then each URL's records in the order of the list), and replaces the parts as the
job's one file, which the import step reads as any uploaded WARC. The URLs are fetched as the user who started
the capture (usecases/capture_pages.py `capture_urls`).
"""

from __future__ import annotations

import io
import os
from contextlib import closing
from pathlib import Path

from sqlalchemy.orm import Session

from ..jobs.context import Context, Follow
from ..jobs.files import drop_files, file_names, iter_file, store_file
from ..models import Job
from ..usecases.capture_pages import begin_warc, capture_urls
from ..usecases.outcome import Actor

CAPTURING = "capturing"
CAPTURES = "captures"
"""The instance folder's folder of capture WARCs."""
REPORT = "capture"
"""Where the job's result keeps the capture's report rows."""


def part_name(index: int) -> str:
    return f"part-{index:06d}.warc.gz"


def warc_path(instance_path: str, job_id: int) -> Path:
    return Path(instance_path) / CAPTURES / f"capture-{job_id}.warc.gz"


def _job(session: Session, ctx: Context) -> Job:
    job = session.get(Job, ctx.job_id)
    if job is None:
        raise LookupError(f"capture job {ctx.job_id} no longer exists")
    return job


def capture_step(ctx: Context) -> Follow:
    urls = [str(u) for u in ctx.params["urls"]]
    with ctx.reader() as session:
        done = {int(row["index"]) for row in _job(session, ctx).result.get(REPORT, [])}
        actor = Actor.of_job(session, ctx.job_id)
    ctx.stage(CAPTURING, len(urls))
    rendered = set(ctx.params.get("render", []))
    outcomes = capture_urls(ctx.settings, actor, [(i, u) for i, u in enumerate(urls) if i not in done],
                            [i for i, u in enumerate(urls) if u in rendered], bool(ctx.params.get("obey_robots", True)))
    with closing(outcomes):
        for outcome in outcomes:
            with ctx.writer() as session:
                ctx.check(session)
                if outcome.part:
                    store_file(session, ctx.job_id, part_name(outcome.index), io.BytesIO(outcome.part))
                job = _job(session, ctx)
                job.result = {**job.result, REPORT: [*job.result.get(REPORT, []), outcome.row()]}
                ctx.progress(1, errors=int(outcome.status != "fetched"), session=session)
                session.commit()
    kept = write_warc(ctx, urls)
    with ctx.writer() as session:
        ctx.check(session)
        drop_files(session, ctx.job_id)
        with kept.open("rb") as stream:
            store_file(session, ctx.job_id, kept.name, stream)
        job = _job(session, ctx)
        job.result = {**job.result, "warc": str(kept)}
        fetched = any(row["status"] == "fetched" for row in job.result.get(REPORT, []))
        session.commit()
    return [("import", [])] if fetched else []  # nothing fetched: the report says why, nothing to import


def write_warc(ctx: Context, urls: list[str]) -> Path:
    """The capture's WARC in the instance folder, written whole under a temporary name, then renamed."""
    path = warc_path(ctx.host.instance_path, ctx.job_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with ctx.reader() as session:
        names = set(file_names(session, ctx.job_id))
    with partial.open("wb") as stream:
        begin_warc(ctx.settings, stream, path.name, bool(ctx.params.get("obey_robots", True)))
        for index in range(len(urls)):
            if part_name(index) in names:
                for data in iter_file(ctx.reader, ctx.job_id, part_name(index)):
                    stream.write(data)
    os.replace(partial, path)
    return path
