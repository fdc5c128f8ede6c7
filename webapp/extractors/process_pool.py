"""Run extractor calls in killable processes (pebble), with a timeout and a memory cap.

`ExtractorPool.run` is a generator: nothing starts until it is iterated; results come in the order the
calls finish, not the order given. Calls are read lazily, one ahead of those in flight, and at most 4 x workers
are in flight (or as many as the run's `at_once` says at the time), so a 100k-page run holds only those pages'
HTML. Every call yields exactly one Result:
an extractor that raises, hangs past the timeout, runs out of memory or takes its
process down gives a Result with `error` set, and the run goes on. Leaving the loop early stops
the pool and kills the calls in flight.

A pool's processes share one queue of calls by default, so that no process waits while calls are queued (the
app's runs). A pool made `warm_first` gives each call to the first process with nothing to do instead, and
starts another process only when every one it has is busy: a crawl task runs one call at a time until its
share of the cores grows, and its calls then keep to one process. From a shared queue, one call at a time went
to the processes in turn, each finding the other's memory cold: about 8 % more CPU a page for trafilatura.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any

from pebble import ProcessExpired, ProcessPool

from webapp.extractors.article_fields import none_found
from webapp.extractors.base import Extractor
from webapp.extractors.sandbox import Output, call_extractor, describe, start_worker

IN_FLIGHT_PER_WORKER = 4


@dataclass(frozen=True)
class Call:
    key: Any
    extractor: Extractor
    html: str
    url: str | None


@dataclass(frozen=True)
class Result:
    """One call's outcome. duration_ms is the call's own time; for a timeout, the timeout; for a
    crashed worker (or a call that could not be sent or returned), the time since the call was
    handed to the pool."""

    key: Any
    extractor_name: str
    fingerprint: str
    text: str
    metadata: dict
    duration_ms: float
    error: str | None
    incomplete: bool
    markdown: str | None = None
    """The extractor's Markdown; None: it gave text only (or nothing)."""
    article_metadata: dict | None = None
    """The article's metadata in the one shape (extractors/article_fields.py); None: it gives none."""


def crash_message(error: ProcessExpired) -> str:
    """'worker crashed (exit code -11, SIGSEGV)'; the signal is named when one killed it."""
    code = error.exitcode
    if code is not None and code < 0:
        try:
            return f"worker crashed (exit code {code}, {signal.Signals(-code).name})"
        except ValueError:
            pass
    return f"worker crashed (exit code {code})"


def since(started: float) -> float:
    return (time.monotonic() - started) * 1000


def to_result(call: Call, future: Future, submitted: float, timeout: float) -> Result:
    """The Result for a finished future, whatever way it finished (a call that did not finish finds none of the
    article's metadata fields its extractor gives)."""
    unfinished = none_found(call.extractor.article_fields)
    try:
        outcome: Output = future.result()
    except TimeoutError:
        outcome = Output("", {}, timeout * 1000, f"timeout after {timeout:g} s", False, None, unfinished)
    except ProcessExpired as error:
        outcome = Output("", {}, since(submitted), crash_message(error), False, None, unfinished)
    except Exception as error:  # the call never ran or never came back, e.g. unpicklable data
        outcome = Output("", {}, since(submitted), describe(error), False, None, unfinished)
    return Result(
        key=call.key,
        extractor_name=call.extractor.name,
        fingerprint=call.extractor.fingerprint,
        text=outcome.text,
        metadata=outcome.metadata,
        duration_ms=outcome.duration_ms,
        error=outcome.error,
        incomplete=outcome.incomplete,
        markdown=outcome.markdown,
        article_metadata=outcome.article_metadata,
    )


def pool_size(workers: int | None) -> int:
    """The processes of a pool asked for `workers` (None or 0: one per core)."""
    return workers or os.cpu_count() or 1


class ExtractorPool:
    """Killable worker processes shared by every run started on them (a job worker's chunks, say):
    `run` may be called from several threads at once, each call yielding its own calls' results."""

    def __init__(self, workers: int | None = None, timeout: float = 60.0, memory_mb: int = 2048, *,
                 warm_first: bool = False) -> None:
        self.workers = pool_size(workers)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.warm_first = warm_first
        self.lock = threading.Lock()
        self.pools = [] if warm_first else [self.new_pool(self.workers)]
        """One pool of every process (a shared queue), or warm_first: one pool per process, made as needed."""
        self.busy: list[int] = []
        """warm_first: the calls in flight on each process."""

    def new_pool(self, processes: int) -> ProcessPool:
        return ProcessPool(max_workers=processes, initializer=start_worker, initargs=(self.memory_mb,))

    def lane(self) -> int:
        """The pool the next call goes to: the only one, or warm_first the first idle process (a new one while
        there are fewer than `workers`), else the least busy."""
        if not self.warm_first:
            return 0
        with self.lock:
            idle = next((number for number, calls in enumerate(self.busy) if not calls), None)
            if idle is None and len(self.pools) < self.workers:
                self.pools.append(self.new_pool(1))
                self.busy.append(0)
                idle = len(self.pools) - 1
            chosen = idle if idle is not None else min(range(len(self.busy)), key=self.busy.__getitem__)
            self.busy[chosen] += 1
            return chosen

    def done(self, lane: int) -> None:
        if self.warm_first:
            with self.lock:
                self.busy[lane] -= 1

    def run(self, calls: Iterable[Call], at_once: Callable[[], int] | None = None) -> Iterator[Result]:
        """Yield one Result per call as calls finish; leaving the loop early cancels this run's calls
        in flight (their worker processes are killed) and nobody else's. `at_once` says how many calls may be
        in flight, asked again after each result (a crawl task sharing the machine's cores with other tasks:
        crawl/core_share.py); by default 4 per process, queued in the pool so that no process waits for a page.
        The next call is read (its page decoded) before the results of those in flight are awaited."""
        pending = iter(calls)
        upcoming = next(pending, None)
        in_flight: dict[Future, tuple[Call, float, int]] = {}
        limit = at_once or (lambda: IN_FLIGHT_PER_WORKER * self.workers)

        def submit() -> None:
            nonlocal upcoming
            while upcoming is not None and len(in_flight) < limit():
                args = (upcoming.extractor, upcoming.html, upcoming.url)
                lane = self.lane()
                future = self.pools[lane].schedule(call_extractor, args=args, timeout=self.timeout)
                in_flight[future] = (upcoming, time.monotonic(), lane)
                upcoming = next(pending, None)

        try:
            submit()
            while in_flight:
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    call, submitted, lane = in_flight.pop(future)
                    self.done(lane)
                    submit()
                    yield to_result(call, future, submitted, self.timeout)
        finally:
            for future, (_call, _submitted, lane) in in_flight.items():
                future.cancel()
                self.done(lane)

    def close(self) -> None:
        for pool in self.pools:
            pool.stop()
        for pool in self.pools:
            pool.join()

    def __enter__(self) -> ExtractorPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
