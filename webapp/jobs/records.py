"""Job rows: create, describe (with a stalled verdict), list, cancel, and count progress.

Functions take a session and never commit, except `add_progress`, which is called from inside a
running chunk and writes in a transaction of its own (a short one: one UPDATE).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from ..models import Job, JobChunk, WorkerBeat, utcnow
from .files import drop_files

STATUSES = ("queued", "running", "done", "failed", "cancelled")
ENDED = ("done", "failed", "cancelled")
OPEN = ("queued", "running")
KINDS = ("extract", "upload", "export", "refresh", "check", "capture")
FIRST_STEP = {"extract": "plan", "upload": "import", "export": "export", "refresh": "refresh", "check": "check",
              "capture": "capture"}
"""The step a new job of each kind starts with."""
WORKER_SILENCE = timedelta(seconds=20)
"""A worker not heard from for this long is taken as gone (its heartbeat beats every few seconds)."""


class UnknownJob(LookupError):
    def __init__(self, job_id: int) -> None:
        super().__init__(f"no job {job_id}")


def create_job(session: Session, kind: str, params: dict[str, Any], started_by: str, queued_until: datetime, *,
               step: str | None = None, works: Sequence[Any] = ([],)) -> Job:
    """The one way a job is made: queued, with one queued chunk of `step` (the kind's first step,
    `FIRST_STEP`, unless named) per item of `works` (flushed, so ids are set). Not committed: the face
    commits, then dispatches it (jobs/start.py `dispatch`).

    `queued_until`: when a queued chunk that no worker took counts as lost (see leases.reap)."""
    if kind not in KINDS:
        raise ValueError(f"job kind must be one of {', '.join(KINDS)}, not {kind!r}")
    job = Job(kind=kind, params=params, started_by=started_by, status="queued")
    job.chunks = [JobChunk(step=step or FIRST_STEP[kind], work=work, status="queued", lease_until=queued_until)
                  for work in works]
    session.add(job)
    session.flush()
    return job


def count_progress(session: Session, job_id: int, done: int = 0, errors: int = 0) -> None:
    """Count work a chunk finished, in the transaction that stores that work (so a worker killed
    between the two never leaves the count off)."""
    session.execute(update(Job).where(Job.id == job_id).values(
        heartbeat_at=utcnow(), done=Job.done + done, errors=Job.errors + errors))


def add_progress(maker: sessionmaker[Session], job_id: int, done: int = 0, errors: int = 0) -> None:
    """Count work a chunk finished, in a short transaction of its own."""
    with maker() as session:
        count_progress(session, job_id, done, errors)
        session.commit()


def set_stage(maker: sessionmaker[Session], job_id: int, stage: str, total: int | None = None) -> None:
    """The job enters a stage (importing, extracting, scoring, exporting): progress counts from 0 of
    `total` (None: not known yet)."""
    _update(maker, job_id, {"heartbeat_at": utcnow(), "stage": stage, "done": 0, "errors": 0, "total": total})


def _update(maker: sessionmaker[Session], job_id: int, values: dict[str, Any]) -> None:
    with maker() as session:
        session.execute(update(Job).where(Job.id == job_id).values(**values))
        session.commit()


def live_workers(session: Session, now: datetime | None = None) -> list[WorkerBeat]:
    since = (now or utcnow()) - WORKER_SILENCE
    return list(session.scalars(select(WorkerBeat).where(WorkerBeat.seen_at >= since).order_by(WorkerBeat.name)))


def busy_with(session: Session, job: Job, now: datetime | None = None) -> str | None:
    """What a worker is doing for the open job now, or None: a chunk whose step runs under a lease that
    still holds. A worker busy with a long step (scoring, a check) may be late with its heartbeat, but
    while its lease holds it is busy, not gone."""
    if job.status not in OPEN:
        return None
    running = session.execute(
        select(JobChunk.id, JobChunk.step, JobChunk.worker)
        .where(JobChunk.job_id == job.id, JobChunk.status == "running", JobChunk.lease_until >= (now or utcnow()))
        .order_by(JobChunk.id).limit(1)
    ).first()
    if running is None:
        return None
    return f"worker {running.worker} is running its {running.step} step (chunk {running.id})"


def stalled_reason(session: Session, job: Job, now: datetime | None = None) -> str | None:
    """Why an open job is not moving, or None: a chunk handed back after a database or broker error (or
    whose message the broker could not take), a chunk whose worker stopped renewing its lease, or no
    worker alive at all and none busy with one of its chunks."""
    if job.status not in OPEN:
        return None
    now = now or utcnow()
    handed = session.execute(
        select(JobChunk.id, JobChunk.error)
        .where(JobChunk.job_id == job.id, JobChunk.status.in_(OPEN), JobChunk.error.is_not(None))
        .order_by(JobChunk.id).limit(1)
    ).first()
    if handed is not None:
        return f"chunk {handed[0]} {handed[1]}"
    lapsed = session.execute(
        select(JobChunk.worker, JobChunk.lease_until)
        .where(JobChunk.job_id == job.id, JobChunk.status == "running", JobChunk.lease_until < now)
        .limit(1)
    ).first()
    alive = live_workers(session, now)
    if lapsed is not None:
        then = _aware(lapsed[1]).strftime("%H:%M:%S UTC")
        again = "another worker will run it again" if alive else "start a worker to run it again"
        return f"worker {lapsed[0]} stopped renewing its lease at {then} (killed or unreachable); {again}"
    if not alive and busy_with(session, job, now) is None:
        return "no worker is running: start one with `goldtext worker` (or `goldtext run`)"
    return None


def describe(session: Session, job: Job, now: datetime | None = None) -> dict[str, Any]:
    """The job as the progress endpoint and `goldtext jobs --format json` show it."""
    return {
        "id": job.id,
        "kind": job.kind,
        "status": job.status,
        "stage": job.stage,
        "done": job.done,
        "total": job.total,
        "errors": job.errors,
        "error": job.error,
        "result": job.result,
        "started_by": job.started_by,
        "created_at": _iso(job.created_at),
        "started_at": _iso(job.started_at),
        "finished_at": _iso(job.finished_at),
        "finished": job.status in ENDED,
        "stalled": stalled_reason(session, job, now),
        "busy": busy_with(session, job, now),
    }


def list_jobs(session: Session, status: str | None = None, limit: int = 200) -> list[Job]:
    query = select(Job).order_by(Job.id.desc()).limit(limit)
    if status is not None:
        query = query.where(Job.status == status)
    return list(session.scalars(query))


def cancel_job(session: Session, job_id: int) -> Job:
    """Cancel an open job: its queued chunks are dropped, and a running chunk stops at its next commit,
    keeping what it finished. Cancelling a finished job changes nothing (ValueError says why)."""
    job = session.scalars(select(Job).where(Job.id == job_id).with_for_update()).one_or_none()
    if job is None:
        raise UnknownJob(job_id)
    if job.status in ENDED:
        raise ValueError(f"job {job_id} has already {'finished' if job.status == 'done' else job.status}")
    job.status, job.finished_at = "cancelled", utcnow()
    session.execute(
        update(JobChunk).where(JobChunk.job_id == job_id, JobChunk.status == "queued").values(status="cancelled")
    )
    drop_files(session, job_id)  # an upload's files, an export's zip
    return job


def open_job(session: Session, kind: str, key: str, value: Any) -> Job | None:
    """An open job of this kind whose params[key] is value (to start a refresh only once)."""
    for job in session.scalars(select(Job).where(Job.kind == kind, Job.status.in_(OPEN))):
        if job.params.get(key) == value:
            return job
    return None


def _iso(value: datetime | None) -> str | None:
    return None if value is None else _aware(value).isoformat()


def _aware(value: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return value.astimezone(UTC) if value.tzinfo is not None else value.replace(tzinfo=UTC)
