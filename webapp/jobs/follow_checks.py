"""Checks that follow the gold: every change of a page's gold or annotations asks for a check job, and
several changes in a short time make one run. The first change queues a job (params `follow`) whose chunk
the face sends to the workers CHECK_DELAY_SECONDS after its commit (`start.dispatch`); every change
until a worker takes it finds it queued and adds nothing. When it runs, it checks the pages whose gold or
annotations changed since their last check (results/gold_check_runs.py `stale_pages`), so it also covers
the changes that came after it was queued. The use cases queue it as the system actor (usecases/follow_up_checks.py),
who audits it and whose role the check step's use case accepts."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..foundation.settings import Settings
from ..models import Job, utcnow
from .records import create_job


def queue_follow_up(session: Session, settings: Settings, started_by: str) -> Job | None:
    """A new follow-up check job (not committed; the face dispatches it after its commit), or None when one
    is queued already. The queued job's row is locked (PostgreSQL) until the caller's commit, so a worker
    cannot start it between this look and the change it is to cover."""
    queued = session.scalars(select(Job).where(Job.kind == "check", Job.status == "queued")
                             .order_by(Job.id).with_for_update()).all()
    if any(job.params.get("follow") for job in queued):
        return None
    delay = settings.check_delay
    return create_job(session, "check", {"follow": True, "delay": delay}, started_by,
                      settings.lease.until(utcnow() + timedelta(seconds=delay)))
