"""Sending a job to the workers: the one function views and commands call after the commit that created
the job (jobs are made by `records.create_job`, called by the use case that starts them)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Job, JobChunk
from .broker import send
from .host import Host


def dispatch(host: Host, session: Session, job: Job) -> None:
    """Send the job's queued chunks to the workers: call right after the commit that created it. A job whose
    params name a `delay` (a follow-up check, jobs/follow_checks.py) reaches them that many seconds later."""
    send(host, list(session.scalars(select(JobChunk.id).where(JobChunk.job_id == job.id,
                                                             JobChunk.status == "queued"))),
         float(job.params.get("delay", 0)))
