"""Running one chunk: claim it, run its step with no transaction open, complete it (or fail the job
with the reason). A `Runner` is one worker's identity, heartbeat and extractor pool; `goldtext worker`,
the embedded worker and a foreground command each make one.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask
from sqlalchemy import update

from ..db import database
from ..extractors.runner import ExtractorPool
from ..models import Job, JobChunk
from .check_step import check_step
from .context import Context, Stopped
from .export_step import export_step
from .extraction_steps import Follow, derive_step, pairs_step, plan_step
from .leases import Lease, beat, claim, complete, fail, leave, reap
from .refresh_step import refresh_step
from .upload_step import import_step

log = logging.getLogger(__name__)

STEPS: dict[str, Callable[[Context], Follow]] = {
    "plan": plan_step,
    "pairs": pairs_step,
    "derive": derive_step,
    "import": import_step,
    "export": export_step,
    "refresh": refresh_step,
    "check": check_step,
}
FIRST_STEP = {"extract": "plan", "upload": "import", "export": "export", "refresh": "refresh", "check": "check"}
FINAL_STEP = {"extract": "derive", "upload": "derive"}
"""The step that runs once after every other chunk of the job is done."""


def lease_of(app: Flask) -> Lease:
    return Lease(float(app.config["JOB_LEASE_SECONDS"]), int(app.config["JOB_MAX_ATTEMPTS"]))


def describe_error(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


@dataclass
class Runner:
    """One worker: its name, its heartbeat (which renews its leases and, with `reaper`, hands lapsed
    chunks back to the queue through `send`), and the extractor pool its chunks share."""

    app: Flask
    concurrency: int = 1
    send: Callable[[list[int]], None] | None = None
    broker_idle: Callable[[], bool] = lambda: False
    name: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}")
    _pool: ExtractorPool | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _heart: threading.Thread | None = field(default=None, repr=False)

    @property
    def lease(self) -> Lease:
        return lease_of(self.app)

    def pool(self) -> ExtractorPool:
        with self._lock:
            if self._pool is None:
                cfg = self.app.config
                self._pool = ExtractorPool(cfg["EXTRACT_WORKERS"] or None, cfg["EXTRACT_TIMEOUT"],
                                           cfg["EXTRACT_MEMORY_MB"])
            return self._pool

    def start(self) -> Runner:
        self.beat()
        self._heart = threading.Thread(target=self._beating, name=f"heartbeat-{self.name}", daemon=True)
        self._heart.start()
        return self

    def beat(self) -> None:
        with database(self.app).writer() as session:
            beat(session, self.name, socket.gethostname(), os.getpid(), self.concurrency, self.lease)
            again = reap(session, self.lease, self.broker_idle()) if self.send is not None else []
            session.commit()
        if again and self.send is not None:
            log.warning("sending %d chunk(s) to the workers again: %s", len(again), again)
            self.send(again)

    def _beating(self) -> None:
        while not self._stop.wait(self.lease.seconds / 3):
            try:
                self.beat()
            except Exception:
                log.exception("heartbeat of %s failed", self.name)

    def close(self) -> None:
        """Stop beating and give back any chunk still held (a clean stop; SIGKILL leaves the leases to lapse)."""
        self._stop.set()
        if self._heart is not None:
            self._heart.join()
        with database(self.app).writer() as session:
            leave(session, self.name)
            session.commit()
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def run_chunk(self, chunk_id: int) -> list[int] | None:
        """Run the chunk if this worker can claim it (None if it cannot); returns the chunks that follow
        it (to send)."""
        with self.app.app_context():
            return self._run(chunk_id)

    def _run(self, chunk_id: int) -> list[int] | None:
        db = database(self.app)
        with db.writer() as session:
            chunk = claim(session, chunk_id, self.name, self.lease)
            if chunk is None:
                session.rollback()
                return None
            job = session.get(Job, chunk.job_id)
            ctx = Context(self.app, db.writer, db.reader, job.id, chunk.id, self.name, job.kind, dict(job.params),
                          chunk.work, self.pool)
            step = chunk.step
            session.commit()
        try:
            follow = STEPS[step](ctx)
        except Stopped:
            self._drop(chunk_id)
            return []
        except Exception as error:
            log.error("job %s, chunk %s (%s) failed:\n%s", ctx.job_id, chunk_id, step, traceback.format_exc())
            with db.writer() as session:
                fail(session, chunk_id, describe_error(error))
                session.commit()
            return []
        with db.writer() as session:
            ids = complete(session, chunk_id, self.name, follow, FINAL_STEP.get(ctx.kind), self.lease)
            session.commit()
        return ids

    def _drop(self, chunk_id: int) -> None:
        """A stopped chunk: if its job was cancelled, the chunk is too (what it finished stays stored)."""
        with database(self.app).writer() as session:
            session.execute(
                update(JobChunk)
                .where(JobChunk.id == chunk_id, JobChunk.worker == self.name, JobChunk.status == "running")
                .values(status="cancelled")
            )
            session.commit()
