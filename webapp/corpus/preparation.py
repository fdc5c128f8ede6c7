"""Decoding and signal extraction of new pages, the costly part of an import, on several cores.

`prepare_page` is pure (bytes in, decoded text and page facts out), so the importer can run it in worker
processes while it keeps the database work in the parent. `in_order` runs it over a stream with a
bounded window: results come back in input order and at most `window` pages are in flight, so a
1 GB WARC still never sits in memory.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, TypeVar

from .decoding import Decoded, decode
from .page_facts import page_facts

T = TypeVar("T")


@dataclass(frozen=True)
class Prepared:
    decoded: Decoded
    facts: dict[str, Any]


def prepare_page(data: bytes, charset: str | None, url: str | None) -> Prepared:
    decoded = decode(data, charset)
    return Prepared(decoded, page_facts(decoded.text, url))


class Inline(Executor):
    """Runs each call at once in this process: the one-worker case, with no pool to start."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def executor(workers: int) -> Executor:
    if workers <= 1:
        return Inline()
    return ProcessPoolExecutor(workers, mp_context=get_context("fork"))


def in_order(
    items: Iterable[tuple[T, tuple | None]], workers: int, window: int = 64
) -> Iterator[tuple[T, Prepared | None]]:
    """For each (item, arguments of `prepare_page` or None), the item and its Prepared (None if no arguments),
    in input order."""
    pending: deque[tuple[T, Future | None]] = deque()
    with executor(workers) as pool:
        for item, arguments in items:
            pending.append((item, pool.submit(prepare_page, *arguments) if arguments else None))
            while len(pending) >= window or (pending and _ready(pending[0][1])):
                head, future = pending.popleft()
                yield head, future.result() if future else None
        while pending:
            head, future = pending.popleft()
            yield head, future.result() if future else None


def _ready(future: Future | None) -> bool:
    return future is None or future.done()
