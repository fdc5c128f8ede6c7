"""Starting jobs: the one function views and commands call to create a job, and the one they call
after their commit to send its first chunks to the workers."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Job, JobChunk
from ..settings import settings_of
from .broker import send
from .host import Host
from .records import FIRST_STEP, create_job


def new_job(session: Session, host: Host, kind: str, params: dict[str, Any], started_by: str,
            works: list[Any] | None = None) -> Job:
    """A queued job with its first step's chunks (one, or one per item of `works`); not committed."""
    return create_job(session, kind, params, started_by, FIRST_STEP[kind], works if works is not None else [[]],
                      settings_of(host).lease.until())


def dispatch(host: Host, session: Session, job: Job) -> None:
    """Send the job's queued chunks to the workers: call right after the commit that created it. A job whose
    params name a `delay` (a follow-up check, jobs/follow_checks.py) reaches them that many seconds later."""
    send(host, list(session.scalars(select(JobChunk.id).where(JobChunk.job_id == job.id,
                                                             JobChunk.status == "queued"))),
         float(job.params.get("delay", 0)))

