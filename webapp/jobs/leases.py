"""Who runs which chunk: claims under a lease, the workers' heartbeat, the reaper, completion.

A worker claims a chunk with one conditional UPDATE (queued, or running under a lease that has
expired), so two workers never hold the same chunk. Its heartbeat renews the leases of the chunks whose
step is running in it now, and no other: a worker killed with SIGKILL stops renewing, and the reaper hands
its chunk back to the queue (at most `max_attempts` times, then the job fails with the reason). A step
that met a database or broker error hands its chunk back (`hand_back`), with the reason kept on the chunk
until a worker takes it again, so the job shows as stalled while it cannot move. Completing a chunk locks its job
row, so the step that follows the last chunk is added exactly once.

Every function takes a session and never commits: the worker's runner owns those transactions and
keeps each one short.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from ..foundation.rows_matched import rows_matched
from ..foundation.settings import Lease
from ..models import Job, JobChunk, WorkerBeat, utcnow
from .files import drop_files
from .records import ENDED, OPEN

ERROR_MAX = 500


def claim(session: Session, chunk_id: int, worker: str, lease: Lease) -> JobChunk | None:
    """Take the chunk if it is free (queued, or its holder's lease expired) and its job is open. A worker
    never takes a chunk it holds itself: its lease lapsed (a heartbeat held up), but another of its threads
    still runs it, and `holds` could not tell the two apart."""
    session.connection()  # begin first (on SQLite: wait for the write lock), then read the clock
    now = utcnow()
    taken = rows_matched(session.execute(
        update(JobChunk)
        .where(
            JobChunk.id == chunk_id,
            (JobChunk.status == "queued")
            | ((JobChunk.status == "running") & (JobChunk.lease_until < now) & (JobChunk.worker != worker)),
            JobChunk.attempts < lease.max_attempts,
            JobChunk.job_id.in_(select(Job.id).where(Job.status.in_(OPEN))),
        )
        .values(status="running", worker=worker, lease_until=lease.until(now), attempts=JobChunk.attempts + 1,
                error=None)
        .execution_options(synchronize_session=False)
    ))
    if not taken:
        return None
    chunk = session.get(JobChunk, chunk_id, populate_existing=True)
    assert chunk is not None  # the UPDATE above matched it in this transaction
    session.execute(
        update(Job).where(Job.id == chunk.job_id, Job.status == "queued")
        .values(status="running", started_at=now, heartbeat_at=now)
    )
    return chunk


def holds(session: Session, chunk_id: int, worker: str) -> bool:
    """Whether this worker still holds the chunk and its job is still open (checked before each write).
    The chunk's row stays locked until the caller's transaction ends (PostgreSQL; SQLite's write lock
    does the same), so no other worker can take the chunk over between this check and the commit."""
    row = session.execute(
        select(JobChunk.status, JobChunk.worker, Job.status)
        .join(Job, Job.id == JobChunk.job_id)
        .where(JobChunk.id == chunk_id)
        .with_for_update(of=JobChunk)
    ).first()
    return row is not None and row[0] == "running" and row[1] == worker and row[2] in OPEN


def beat(session: Session, name: str, host: str, pid: int, concurrency: int, lease: Lease,
         running: Collection[int]) -> None:
    """The worker is alive: note it, and renew the leases of the chunks whose step runs in it now
    (`running`); a chunk it still holds but no longer runs (its step ended on an error it could not
    record) is left to lapse."""
    # begin first (on SQLite: wait for the write lock), then read the clock: a renewal dated before a
    # long wait for the lock would already have lapsed, and `reap` would take the worker's own chunks
    session.connection()
    now = utcnow()
    seen = rows_matched(session.execute(update(WorkerBeat).where(WorkerBeat.name == name).values(seen_at=now)))
    if not seen:
        session.add(WorkerBeat(name=name, host=host, pid=pid, concurrency=concurrency, started_at=now, seen_at=now))
    if running:
        session.execute(
            update(JobChunk)
            .where(JobChunk.id.in_(sorted(running)), JobChunk.worker == name, JobChunk.status == "running")
            .values(lease_until=lease.until(now))
        )


def hand_back(session: Session, chunk_id: int, worker: str, reason: str) -> bool:
    """Give a chunk this worker holds back to the queue after its step met a database or broker error:
    the attempt does not count against `max_attempts` (the chunk did nothing wrong), and `reason` stays
    on the chunk, shown as the job's stall, until a worker takes it again. False if the worker no longer
    held it (its lease lapsed and the reaper or another worker took it)."""
    return bool(rows_matched(session.execute(
        update(JobChunk)
        .where(JobChunk.id == chunk_id, JobChunk.worker == worker, JobChunk.status == "running")
        .values(status="queued", worker=None, lease_until=utcnow(), error=reason[:ERROR_MAX],
                attempts=JobChunk.attempts - 1)
        .execution_options(synchronize_session=False)
    )))


def leave(session: Session, name: str) -> None:
    """A worker stopping cleanly: forget its heartbeat and give its chunks back at once."""
    session.execute(
        update(JobChunk).where(JobChunk.worker == name, JobChunk.status == "running")
        .values(status="queued", worker=None, lease_until=utcnow())
    )
    session.execute(delete(WorkerBeat).where(WorkerBeat.name == name))


def reap(session: Session, lease: Lease, broker_idle: bool) -> list[int]:
    """Chunks to send to the workers again: those whose worker stopped renewing its lease (or failed
    them, past `max_attempts`), and, when the broker holds no message at all, queued chunks whose
    message was lost (popped by a worker that died before claiming, or a crash right after a commit)."""
    now = utcnow()
    again: list[int] = []
    lapsed = session.execute(
        select(JobChunk.id, JobChunk.job_id, JobChunk.attempts, JobChunk.worker)
        .where(JobChunk.status == "running", JobChunk.lease_until < now)
    ).all()
    for chunk_id, _job_id, attempts, worker in lapsed:
        if attempts >= lease.max_attempts:
            fail(session, chunk_id, f"chunk {chunk_id} was taken by {attempts} workers and each stopped "
                                    f"before finishing it (killed or crashed; the last was {worker})")
            continue
        moved = rows_matched(session.execute(
            update(JobChunk).where(JobChunk.id == chunk_id, JobChunk.status == "running", JobChunk.lease_until < now)
            .values(status="queued", worker=None, lease_until=lease.until(now))
        ))
        if moved:
            again.append(chunk_id)
    if broker_idle:
        lost = list(session.scalars(
            select(JobChunk.id).join(Job, Job.id == JobChunk.job_id)
            .where(JobChunk.status == "queued", JobChunk.lease_until < now, Job.status.in_(OPEN))
        ))
        if lost:
            session.execute(update(JobChunk).where(JobChunk.id.in_(lost)).values(lease_until=lease.until(now)))
            again.extend(lost)
    return again


def complete(
    session: Session, chunk_id: int, worker: str, follow: Sequence[tuple[str, Any]], final_step: str | None,
    lease: Lease,
) -> list[int]:
    """Mark the chunk done and queue the chunks that follow it; after the job's last open chunk, its
    final step (once), or the job is done. Returns the new chunks' ids (to enqueue after the commit).
    A worker that no longer holds the chunk (its lease was taken over) completes nothing."""
    job = session.scalars(select(Job).where(Job.id == JobChunk.job_id, JobChunk.id == chunk_id)
                          .with_for_update(of=Job)).one()
    queued_until = lease.until()  # read after the lock was taken: a follow-up chunk is not born lapsed
    chunk = session.get(JobChunk, chunk_id, populate_existing=True)
    assert chunk is not None  # the query above found it, and locked its job
    if chunk.status != "running" or chunk.worker != worker:
        return []
    chunk.status = "done"
    if job.status in ENDED:
        return []
    added = [JobChunk(job_id=job.id, step=step, work=work, status="queued", lease_until=queued_until)
             for step, work in follow]
    session.add_all(added)
    session.flush()
    still_open = session.scalar(
        select(func.count(JobChunk.id)).where(JobChunk.job_id == job.id, JobChunk.status.in_(OPEN))
    )
    if not still_open:
        has_final = final_step is not None and session.scalar(
            select(func.count(JobChunk.id)).where(JobChunk.job_id == job.id, JobChunk.step == final_step)
        )
        if final_step is not None and not has_final:
            final = JobChunk(job_id=job.id, step=final_step, work=[], status="queued", lease_until=queued_until)
            session.add(final)
            session.flush()
            added.append(final)
        else:
            job.status, job.finished_at = "done", utcnow()
    return [c.id for c in added]


def fail(session: Session, chunk_id: int, error: str) -> None:
    """The chunk failed for good: so does its job, with the reason; its other queued chunks and its
    files are dropped."""
    chunk = session.get(JobChunk, chunk_id, populate_existing=True)
    assert chunk is not None  # each caller found it in this transaction
    chunk.status = "failed"
    job = session.scalars(select(Job).where(Job.id == chunk.job_id).with_for_update()).one()
    if job.status not in ENDED:
        job.status, job.error, job.finished_at = "failed", f"{chunk.step}: {error}", utcnow()
    session.execute(
        update(JobChunk).where(JobChunk.job_id == job.id, JobChunk.status == "queued").values(status="cancelled")
    )
    drop_files(session, job.id)
