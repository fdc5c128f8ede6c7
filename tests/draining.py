"""Running every open job to its end in the test's own process, oldest first (the `run_jobs` fixture,
conftest.py, and the outage tests): each with `webapp.jobs.workers.run_here`, as `goldtext extract` runs
its job."""

from __future__ import annotations

from sqlalchemy import select

from webapp.jobs.host import Host, database_of
from webapp.jobs.records import OPEN
from webapp.jobs.workers import run_here
from webapp.models import Job


def drain(host: Host, threads: int = 1) -> list[int]:
    """Run every open job to its end; returns the jobs run."""
    ran: list[int] = []
    while True:
        with database_of(host).reader() as session:
            job_id = session.scalar(select(Job.id).where(Job.status.in_(OPEN)).order_by(Job.id).limit(1))
        if job_id is None or job_id in ran:
            return ran
        run_here(host, job_id, threads)
        ran.append(job_id)
