"""Running one chunk: claim it, run its step with no transaction open, complete it (or fail the job
with the reason). A `Runner` is one worker's identity, heartbeat and extractor pool; `goldtext worker`,
the embedded worker and a foreground command each make one.

A database or broker outage never fails a job and never leaves a chunk held: the step's chunk is handed
back to the queue (or, while the database cannot even record that, left out of the heartbeat's renewals
and handed back by the next heartbeat that reaches the database; failing that, its lease lapses), and the
reaper sends it to the workers again once the outage is over. No process needs a restart.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import update

from ..extractors.process_pool import ExtractorPool
from ..foundation.settings import settings_of
from ..models import Job, JobChunk
from .context import Context, Stopped
from .host import Host, database_of
from .leases import Lease, beat, claim, complete, fail, hand_back, holds, leave, reap
from .outages import brief, is_outage, part_of
from .step_table import step_table

log = logging.getLogger(__name__)


def describe_error(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


@dataclass
class Runner:
    """One worker: its name, its heartbeat (which renews its leases and, with `reaper`, hands lapsed
    chunks back to the queue through `send`), and the extractor pool its chunks share."""

    host: Host
    concurrency: int = 1
    send: Callable[[list[int]], None] | None = None
    broker_idle: Callable[[], bool] = lambda: False
    processes: int | None = None
    """Extractor processes of its pool (None: EXTRACT_PROCESSES, and 0 there: one per core)."""
    name: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}")
    _pool: ExtractorPool | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _heart: threading.Thread | None = field(default=None, repr=False)
    _running: set[int] = field(default_factory=set, repr=False)
    """Chunks whose step runs in this worker now: the only leases its heartbeat renews."""
    _handing_back: dict[int, str] = field(default_factory=dict, repr=False)
    """Chunks to hand back (with the reason) that the database could not take back yet."""

    @property
    def lease(self) -> Lease:
        return settings_of(self.host).lease

    def pool(self) -> ExtractorPool:
        with self._lock:
            if self._pool is None:
                settings = settings_of(self.host)
                self._pool = ExtractorPool(self.processes or settings.workers.extract_processes or None,
                                           settings.run.timeout, settings.run.memory_mb)
            return self._pool

    def start(self) -> Runner:
        self.beat()
        self._heart = threading.Thread(target=self._beating, name=f"heartbeat-{self.name}", daemon=True)
        self._heart.start()
        return self

    def beat(self) -> None:
        with self._lock:
            running, pending = set(self._running), dict(self._handing_back)
        with database_of(self.host).writer() as session:
            returned = [chunk_id for chunk_id, reason in pending.items()
                        if hand_back(session, chunk_id, self.name, reason)]
            beat(session, self.name, socket.gethostname(), os.getpid(), self.concurrency, self.lease, running)
            again = reap(session, self.lease, self._broker_idle()) if self.send is not None else []
            session.commit()
        with self._lock:
            for chunk_id in pending:
                self._handing_back.pop(chunk_id, None)
        if again:
            log.warning("sending %d chunk(s) to the workers again: %s", len(again), again)
        self.deliver([*returned, *again])

    def _broker_idle(self) -> bool:
        """Whether the broker holds no message; an unreachable broker counts as busy (nothing is sent)."""
        try:
            return self.broker_idle()
        except Exception as error:
            if not is_outage(error):
                raise
            log.warning("the broker is unreachable (%s): no lost message is sent again until it answers",
                        brief(error))
            return False

    def deliver(self, chunk_ids: Sequence[int]) -> None:
        """Send chunks to the workers; while the broker is out, they wait in the database, the reason on
        each, until the reaper sends them again."""
        if not chunk_ids or self.send is None:
            return
        try:
            self.send(list(chunk_ids))
        except Exception as error:
            if not is_outage(error):
                raise
            log.warning("could not send chunk(s) %s to the workers: %s", list(chunk_ids), brief(error))
            note = (f"waits since {_clock()} for the broker ({brief(error)}); it is sent again once the broker "
                    f"answers")
            try:
                with database_of(self.host).writer() as session:
                    session.execute(update(JobChunk).where(JobChunk.id.in_(list(chunk_ids)),
                                                           JobChunk.status == "queued").values(error=note))
                    session.commit()
            except Exception as again:
                if not is_outage(again):
                    raise

    def _beating(self) -> None:
        while not self._stop.wait(self.lease.seconds / 3):
            try:
                self.beat()
            except Exception as error:
                if not is_outage(error):
                    log.exception("heartbeat of %s failed", self.name)
                    continue
                log.warning("heartbeat of %s failed: the %s is out (%s)", self.name, part_of(error), brief(error))

    def close(self) -> None:
        """Stop beating and give back any chunk still held (a clean stop; SIGKILL leaves the leases to lapse)."""
        self._stop.set()
        if self._heart is not None:
            self._heart.join()
        with database_of(self.host).writer() as session:
            leave(session, self.name)
            session.commit()
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def run_chunk(self, chunk_id: int) -> list[int] | None:
        """Run the chunk if this worker can claim it (None if it cannot); returns the chunks that follow
        it (to send)."""
        db = database_of(self.host)
        try:
            with db.writer() as session:
                chunk = claim(session, chunk_id, self.name, self.lease)
                if chunk is None:
                    session.rollback()
                    return None
                job = session.get(Job, chunk.job_id)
                assert job is not None  # claim took the chunk only because its job is open
                ctx = Context(self.host, db.writer, db.reader, job.id, chunk.id, self.name, job.kind,
                              dict(job.params), chunk.work, self.pool)
                step = chunk.step
                with self._lock:
                    self._running.add(chunk_id)
                session.commit()
        except Exception as error:
            self._stop_running(chunk_id)
            if not is_outage(error):
                raise
            log.warning("chunk %s not taken: the %s is out (%s); it is sent again once it answers",
                        chunk_id, part_of(error), brief(error))
            return None
        try:
            follow = self._step(ctx, step)
        except Exception as error:
            self._stop_running(chunk_id)
            if not (is_outage(error) or self._stop.is_set()):
                raise
            self._hand_back(chunk_id, step, error)
            return []
        self._stop_running(chunk_id)
        return follow

    def _stop_running(self, chunk_id: int) -> None:
        with self._lock:
            self._running.discard(chunk_id)

    def _step(self, ctx: Context, step: str) -> list[int]:
        """Run the step and complete its chunk, or fail the job with the step's error (an outage is
        raised: the chunk is handed back, not failed)."""
        db = database_of(self.host)
        try:
            follow = step_table(self.host).steps[step](ctx)
        except Stopped:
            self._drop(ctx.chunk_id)
            return []
        except Exception as error:
            if is_outage(error) or self._stop.is_set():
                raise  # not the step's fault: the chunk is handed back
            log.error("job %s, chunk %s (%s) failed:\n%s", ctx.job_id, ctx.chunk_id, step, traceback.format_exc())
            with db.writer() as session:
                if holds(session, ctx.chunk_id, self.name):  # not taken over or given back meanwhile
                    fail(session, ctx.chunk_id, describe_error(error))
                session.commit()
            return []
        with db.writer() as session:
            ids = complete(session, ctx.chunk_id, self.name, follow, step_table(self.host).final.get(ctx.kind),
                           self.lease)
            session.commit()
        return ids

    def _hand_back(self, chunk_id: int, step: str, error: BaseException) -> None:
        """Give the chunk back after an outage, or as this worker stops (its extractor pool closed under
        the step); if the database cannot take it now, the heartbeat retries (and the lease, no longer
        renewed, lapses meanwhile)."""
        if not is_outage(error):
            reason = f"was handed back at {_clock()} as its worker stopped; another worker runs it again"
        else:
            part = part_of(error)
            reason = (f"was handed back at {_clock()} after a {part} error in its {step} step ({brief(error)}); "
                      f"it runs again once the {part} answers")
        log.warning("chunk %s %s", chunk_id, reason)
        try:
            with database_of(self.host).writer() as session:
                returned = hand_back(session, chunk_id, self.name, reason)
                session.commit()
        except Exception as again:
            if not is_outage(again):
                raise
            with self._lock:
                self._handing_back[chunk_id] = reason
            return
        if returned:
            self.deliver([chunk_id])

    def _drop(self, chunk_id: int) -> None:
        """A stopped chunk: if its job was cancelled, the chunk is too (what it finished stays stored)."""
        with database_of(self.host).writer() as session:
            session.execute(
                update(JobChunk)
                .where(JobChunk.id == chunk_id, JobChunk.worker == self.name, JobChunk.status == "running")
                .values(status="cancelled")
            )
            session.commit()


def _clock() -> str:
    return datetime.now(UTC).strftime("%H:%M:%S UTC")
