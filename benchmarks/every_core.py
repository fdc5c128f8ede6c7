"""The bare calls on every core: a bound of what a run on this machine can reach.

A benchmark's bare run makes its calls one after the other in one process, so its figure is what one core
gives them; a run of the app or of a crawl uses every core, where two busy cores give each call less than one
alone (shared caches and memory bandwidth), and helper programs may already use a core of their own. Here the
same calls are shared among one forked process per core from one queue (each process takes the next call when
it is done, so the cores stay balanced to the last call), every extractor warmed in every process before the
clock starts. No work surrounds the calls: a run that also reads, stores or sends pages can only be slower.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Sequence
from typing import Any

from webapp.extractors.sandbox import quiet_libraries

WARM_UP = "<html><body><p>warm up</p></body></html>"

_calls: Sequence[tuple[Any, str, str | None]] = ()
"""The calls (extractor, html, url), set before the processes are forked (they inherit it)."""


def _start(ready: Any) -> None:
    """A process's start: the libraries quiet as in the app's extractor processes, every extractor's imports
    and caches made (its helper program started), then wait for the others."""
    quiet_libraries()
    for extractor in {id(extractor): extractor for extractor, _, _ in _calls}.values():
        extractor(WARM_UP, None)
    ready.wait()


def _call(index: int) -> tuple[float, float]:
    """One call, timed on the machine's monotonic clock (shared by the processes); an extractor's failure on a
    page counts as a call like any other."""
    extractor, html, url = _calls[index]
    started = time.perf_counter()
    try:
        extractor(html, url)
    except Exception:  # boilerpy3 gives up on some pages; the bare run counts these
        pass
    return started, time.perf_counter()


def seconds_on_every_core(calls: Sequence[tuple[Any, str, str | None]], processes: int) -> float:
    """Wall seconds from the first call's start to the last call's end, the calls shared among `processes`
    forked processes from one queue in the order given."""
    global _calls
    _calls = calls
    context = multiprocessing.get_context("fork")
    ready = context.Barrier(processes)
    with context.Pool(processes, initializer=_start, initargs=(ready,)) as pool:
        spans = list(pool.imap_unordered(_call, range(len(calls)), chunksize=1))
    _calls = ()
    return max(end for _, end in spans) - min(start for start, _ in spans)
