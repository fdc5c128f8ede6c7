"""Jobs, their chunks, the workers' heartbeats and the files jobs keep."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .model_base import Base, utcnow


class Job(Base):
    """One long task (an extraction run, an upload, an export, a refresh), executed by workers.

    The row is the job's whole state: any web process reads its progress, and any worker can take over
    its chunks. `status`: queued, running, done, failed or cancelled.
    """

    __tablename__ = "job"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), index=True)
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # the import batch an upload's job fills (None for other jobs)
    batch_id: Mapped[int | None] = mapped_column(ForeignKey("import_batch.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    stage: Mapped[str] = mapped_column(String(32), default="")
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int | None] = mapped_column(Integer)
    errors: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(Text)
    result: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_by: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    chunks: Mapped[list[JobChunk]] = relationship(back_populates="job", cascade="all, delete-orphan")


class JobChunk(Base):
    """A unit of a job that one worker runs at a time, under a lease: a worker that stops renewing it
    (killed, or its machine gone) loses it, and the chunk is handed to another worker. `step` names the
    work (plan, pairs, derive, import, export, refresh, check: steps/__init__.py STEPS); `work` holds its
    parameters (for `pairs`, the (page id, extractor name, fingerprint) triples)."""

    __tablename__ = "job_chunk"

    id: Mapped[int] = mapped_column(primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("job.id", ondelete="CASCADE"), index=True)
    step: Mapped[str] = mapped_column(String(16))
    work: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    lease_until: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    worker: Mapped[str | None] = mapped_column(String(200))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(String(500))
    """Why the chunk was handed back (a database or broker error), until a worker takes it again."""

    job: Mapped[Job] = relationship(back_populates="chunks")


class WorkerBeat(Base):
    """A running worker (`goldtext worker`, or the app's embedded one) and when it last said it was
    alive: a job with no live worker is shown as stalled."""

    __tablename__ = "worker_beat"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)  # host:pid:token
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    concurrency: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class JobFile(Base):
    """A file a job reads or writes (an upload, an export's zip), kept in the database in parts so that
    a worker on another machine can read it and any web process can send it."""

    __tablename__ = "job_file"
    __table_args__ = (UniqueConstraint("job_id", "name", "part"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("job.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(255))
    part: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)
