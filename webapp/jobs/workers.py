"""Ways to run workers: `goldtext worker` (Huey's consumer, in the foreground, until SIGINT or SIGTERM),
the embedded worker of `goldtext run` and `goldtext demo` (the same consumer in threads of the app's
process), and a foreground command working through its own job (`goldtext extract` without
`--background`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from huey.consumer import Consumer
from sqlalchemy import select

from ..models import Job, JobChunk, utcnow
from .broker import RUNNER, broker
from .host import Host, database_of
from .outages import is_outage
from .records import ENDED, UnknownJob
from .runner import Runner

log = logging.getLogger(__name__)
POLL_SECONDS = 0.2


def _runner(host: Host, concurrency: int) -> Runner:
    found = broker(host)
    runner = Runner(host, concurrency, send=found.send, broker_idle=found.idle)
    host.extensions[RUNNER] = runner
    return runner.start()


def run_worker(host: Host, concurrency: int) -> None:
    """Consume chunk messages with `concurrency` threads until stopped (SIGINT/SIGTERM: finish the
    running chunks first; a second signal stops at once)."""
    runner = _runner(host, concurrency)
    try:
        consumer = broker(host).huey.create_consumer(workers=concurrency, worker_type="thread", periodic=False,
                                                    max_delay=1.0, check_worker_health=True)
        consumer.run()
    finally:
        runner.close()
        host.extensions.pop(RUNNER, None)


class _QuietConsumer(Consumer):
    """Huey's consumer for a thread of another program: it leaves the process's signals alone."""

    def _set_signal_handlers(self) -> None:
        return None


class EmbeddedWorker:
    """The app's own worker (no broker configured): Huey's consumer threads inside this process."""

    def __init__(self, host: Host, concurrency: int) -> None:
        self.runner = _runner(host, concurrency)
        self.host = host
        self.consumer = _QuietConsumer(broker(host).huey, workers=concurrency, worker_type="thread",
                                       periodic=False, max_delay=1.0)
        self.consumer.start()

    def stop(self) -> None:
        self.consumer.stop(graceful=True)
        self.runner.close()
        self.host.extensions.pop(RUNNER, None)


def _next_chunk(host: Host, job_id: int) -> int | None:
    """A chunk of the job this process may claim: queued, or running under a lapsed lease."""
    with database_of(host).reader() as session:
        return session.scalar(
            select(JobChunk.id)
            .where(JobChunk.job_id == job_id,
                   (JobChunk.status == "queued")
                   | ((JobChunk.status == "running") & (JobChunk.lease_until < utcnow())))
            .order_by(JobChunk.id).limit(1)
        )


def job_state(host: Host, job_id: int) -> tuple[str, int, int | None, int, str]:
    """(status, done, total, errors, stage) of a job, read in a short transaction."""
    with database_of(host).reader() as session:
        job = session.get(Job, job_id)
        if job is None:
            raise UnknownJob(job_id)
        return job.status, job.done, job.total, job.errors, job.stage


def run_here(host: Host, job_id: int, threads: int = 2,
             on_progress: Callable[[str, int, int | None, str], None] | None = None,
             processes: int | None = None) -> str:
    """Work through one job in this process with `threads` chunks at a time (one extractor pool of
    `processes`, default EXTRACT_PROCESSES), calling on_progress(status, done, total, stage) as it moves;
    returns the job's final status. Chunks it cannot claim (another worker runs them) are waited for."""
    runner = Runner(host, threads, processes=processes).start()
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            try:
                if not step_once():
                    return
            except Exception as error:
                if not is_outage(error):
                    raise
                stop.wait(POLL_SECONDS)  # the database is out: wait for it

    def step_once() -> bool:
        """Run the job's next chunk; False once the job has finished."""
        chunk_id = _next_chunk(host, job_id)
        if chunk_id is None:
            if job_state(host, job_id)[0] in ENDED:
                return False
            stop.wait(POLL_SECONDS)
        elif runner.run_chunk(chunk_id) is None:
            stop.wait(POLL_SECONDS)  # taken meanwhile, or still ours under a lapsed lease
        return True

    crew = [threading.Thread(target=work, name=f"job-{job_id}-{n}", daemon=True) for n in range(threads)]
    for thread in crew:
        thread.start()
    try:
        while True:
            try:
                status, done, total, _errors, stage = job_state(host, job_id)
            except Exception as error:
                if not is_outage(error):
                    raise
                time.sleep(POLL_SECONDS)
                continue
            if on_progress is not None:
                on_progress(status, done, total, stage)
            if status in ENDED:
                break
            time.sleep(POLL_SECONDS)
    finally:
        stop.set()
        for thread in crew:
            thread.join()
        runner.close()
    return status
