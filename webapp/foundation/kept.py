"""Values a process keeps in memory: one maintained cache (cachetools' least-recently-used one) behind one
lock, shared by a web process's threads. Every in-process cache of the areas is one of these (the site's
boilerplate lines, the heavy pages' verdicts and flattened text, the F1 of pairs of texts, and the score
cache's boards, aligned pages, bootstrap weights and remembered figures, results/cache.py).

A value is computed outside the lock (two threads may compute the same one; the later simply replaces
it), and may carry a version: a value kept under another version is computed again (the site's page count
changed, the scores moved on)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from cachetools import LRUCache

V = TypeVar("V")


class Kept(Generic[V]):
    """At most ``maxsize`` values (or, with ``size``, values whose sizes add up to at most ``maxsize``), the
    least recently used going first; a value larger than the whole cache is not kept."""

    def __init__(self, maxsize: float, size: Callable[[Any, V], float] | None = None) -> None:
        self.size = size
        self.cache: LRUCache[Hashable, tuple[Any, V, float]] = LRUCache(maxsize, getsizeof=lambda entry: entry[2])
        self.lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], V], version: Any = None) -> V:
        """The value kept for ``key`` at this version, else compute() (then kept)."""
        with self.lock:
            found = self.cache.get(key)
        if found is not None and found[0] == version:
            return found[1]
        value = compute()
        self.put(key, value, version)
        return value

    def peek(self, key: Hashable, version: Any = None) -> V | None:
        """The value kept for ``key`` at this version, or None."""
        with self.lock:
            found = self.cache.get(key)
        return found[1] if found is not None and found[0] == version else None

    def put(self, key: Hashable, value: V, version: Any = None) -> None:
        entry = (version, value, self.size(key, value) if self.size else 1)
        with self.lock:
            try:
                self.cache[key] = entry
            except ValueError:  # larger than the whole cache
                self.cache.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.cache.clear()

    @property
    def held(self) -> float:
        """How much is kept: values, or their sizes."""
        return self.cache.currsize


TEXTS_KEPT_CHARS = 4_000_000
"""Characters of the texts whose derived values (a scorer's tokens, sentences) a process keeps per scorer."""


def kept_by_text() -> Kept[Any]:
    """A cache of values computed from texts, keyed by the text itself and sized by its characters: a page's
    gold is scored against each of its extractions in turn, so its tokens or sentences are made once."""
    return Kept(TEXTS_KEPT_CHARS, size=lambda text, _: len(text))
