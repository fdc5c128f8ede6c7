"""The leaderboard's cache of the current per-page counts, in memory, per process.

A ScoreCache holds the current counts (see store.is_current) and catches up with the database through the
score change log: only the pages changed since its epoch are re-read. Everything a warm request needs is
kept up to date by the same log, at the cost of the changed pages alone: the Boards of the most recently
used queries, the aligned pages of each query (`aligned_pages`), and how many pages each fingerprint has
scored. A cold cache starts from the snapshot another process stored (see snapshot.py) when one is
recent enough, and reads the counts in bulk otherwise. `SharedScores` is a web process's one cache,
synced and read under a lock (Boards are corrected in place, and web processes are threaded), with
figures remembered per version of the data.
"""

from __future__ import annotations

import bisect
import gc
import itertools
import json
import threading
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import cast, select
from sqlalchemy.orm import Session
from sqlalchemy.types import Text

from ..annotation.page_filter import PageFilter
from ..models import Extraction, Gold, Page, Score, Site
from ..scoring import Metric
from ..scoring.board import Board
from ..vocabulary import DONE
from . import snapshot
from .store import changed_since, current_of, epochs

LOG_LIMIT = 2000
BOARDS_KEPT = 8
"""Boards kept per process, least recently used dropped first: a board holds its bootstrap weights
(about 19 MiB at 10,000 pages and 1,000 resamples)."""
ALIGNMENTS_KEPT = 32
MEMO_LIMIT = 256
LOAD_CHUNK = 20_000
STAMPS = itertools.count(1)


class CachedRow(NamedTuple):
    """One current count of one extraction: a tuple, which a process holds by the million."""

    page_id: int
    fingerprint: str
    counts: Mapping[str, Any]
    site: str
    kind: str
    batch: int
    annotator: str
    accepted: bool = True
    duration_ms: float = 0.0

    def group(self, by: str) -> str:
        return str(getattr(self, "kind" if by == "type" else by))


class ScoreCache:
    """Current per-page counts, by metric then page then fingerprint, synced from the change log at
    every request, so that a save made through any process shows in every other at its next request.
    Boards are kept for the BOARDS_KEPT most recently used queries, aligned pages for ALIGNMENTS_KEPT."""

    def __init__(self, metrics: Mapping[str, Metric], boards_kept: int = BOARDS_KEPT,
                 snapshot_path: Path | None = None) -> None:
        self.metrics = metrics
        self.snapshot_path = snapshot_path
        self.epoch = -1
        self.extraction_epoch = -1
        self.rows: dict[str, dict[int, dict[str, CachedRow]]] = defaultdict(dict)
        self.scored: dict[str, Counter[str]] = defaultdict(Counter)
        """metric -> fingerprint -> how many pages it has a count of."""
        self.extraction_stamp = next(STAMPS)
        """Changes whenever a reloaded row's guard verdict or time differs from the one it replaced."""
        self.log: list[tuple[int, set[int]]] = []
        self.log_floor = -1
        self.boards: OrderedDict[tuple, tuple[int, Board]] = OrderedDict()
        self.boards_kept = boards_kept
        self.alignments: OrderedDict[tuple, tuple[int, int, list[int]]] = OrderedDict()
        self.strings: dict[str, str] = {}
        self.loaded_from = "none"
        """How the cache started: "snapshot", "database", or "none" yet."""

    def keep_board(self, key: tuple, board: Board) -> None:
        self.boards[key] = (self.epoch, board)
        self.boards.move_to_end(key)
        while len(self.boards) > self.boards_kept:
            self.boards.popitem(last=False)

    def reset(self) -> None:
        """Forget everything: the next sync starts over (the log no longer reaches back to this cache)."""
        self.__init__(self.metrics, self.boards_kept, self.snapshot_path)  # type: ignore[misc]

    def sync(self, session: Session) -> None:
        newest, floor, self.extraction_epoch = epochs(session)
        if self.epoch >= 0 and self.epoch < floor:
            self.reset()
        if self.epoch < 0:
            self._start(session, newest, floor)
        if newest == self.epoch:
            return
        newest, pages = changed_since(session, self.epoch)
        if pages:
            self._load(session, pages)
            self.log.append((newest, pages))
            if len(self.log) > LOG_LIMIT:
                self.log_floor = self.log.pop(0)[0]
        self.epoch = newest

    def _start(self, session: Session, newest: int, floor: int) -> None:
        """A cold cache: the stored snapshot if it is still within the log's reach (the sync then catches
        up with the pages changed since), else every count read in bulk and stored as the snapshot. The
        garbage collector pauses meanwhile: the rows hold no cycles, and its passes over millions of new
        objects would cost more than the load; they are then frozen out of its later passes too."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._fill(session, newest, floor)
            gc.freeze()
        finally:
            if collecting:
                gc.enable()

    def _fill(self, session: Session, newest: int, floor: int) -> None:
        if self.snapshot_path is not None:
            found = snapshot.read(self.snapshot_path, self.versions(), floor, newest)
            if found is not None:
                self.epoch, chunks = found
                try:
                    for chunk in chunks:
                        self._ingest(chunk, None)
                    self.loaded_from = "snapshot"
                    return
                except snapshot.Unreadable:  # start over from the database
                    self.rows, self.scored = defaultdict(dict), defaultdict(Counter)
        self.epoch = newest
        chunks = self._read(session, None)
        if self.snapshot_path is not None:
            chunks = snapshot.writing(self.snapshot_path, self.versions(), self.epoch, chunks)
        for chunk in chunks:
            self._ingest(chunk, None)
        self.loaded_from = "database"

    def versions(self) -> dict[str, int]:
        """The metrics' versions, which a snapshot must share to be used."""
        return {name: metric.version for name, metric in self.metrics.items()}

    def _read(self, session: Session, pages: set[int] | None) -> Iterator[list[tuple]]:
        """The current counts of these pages (or of all), LOAD_CHUNK rows at a time, the counts as JSON text."""
        query = (
            select(
                Score.page_id, Score.metric, cast(Score.counts, Text),
                Extraction.fingerprint, Site.host, Gold.kind, Page.batch_id, Gold.author,
                Extraction.accepted, Extraction.duration_ms,
            )
            .join(Extraction, Extraction.id == Score.extraction_id)
            .join(Page, Page.id == Score.page_id)
            .join(Site, Site.id == Page.site_id)
            .join(Gold, current_of(self.metrics))
            .where(Gold.status == DONE)
            .execution_options(yield_per=LOAD_CHUNK)
        )
        if pages is not None:
            query = query.where(Score.page_id.in_(pages))
        for part in session.execute(query).partitions():
            yield [tuple(row) for row in part]

    def _load(self, session: Session, pages: set[int]) -> None:
        """Replace these pages' rows with their current counts."""
        before: dict[tuple[str, int, str], tuple[bool, float]] = {}
        for metric, by_page in self.rows.items():
            for page in pages:
                for fp, old in by_page.pop(page, {}).items():
                    self.scored[metric][fp] -= 1
                    before[(metric, page, fp)] = (old.accepted, old.duration_ms)
        for chunk in self._read(session, pages):
            self._ingest(chunk, before)
        if before:  # rows gone
            self.extraction_stamp = next(STAMPS)

    def _ingest(self, chunk: list[tuple], before: dict[tuple[str, int, str], tuple[bool, float]] | None) -> None:
        """Rows read by _read into the cache: the counts decoded in one call (their keys shared), the
        repeated strings (fingerprints, sites, types, annotators) shared. With `before` (the replaced
        rows' guard verdicts and times, taken out as they are matched), a changed one moves the stamp."""
        decoded = json.loads("[" + ",".join(row[2] for row in chunk) + "]")
        shared = self.strings
        rows, scored = self.rows, self.scored
        for (page, metric, _, fp, site, kind, batch, author, accepted, ms), counts in zip(chunk, decoded):
            row = CachedRow(page, shared.setdefault(fp, fp), counts, shared.setdefault(site, site),
                            shared.setdefault(kind, kind), batch, shared.setdefault(author, author),
                            bool(accepted), ms or 0.0)
            rows[metric].setdefault(page, {})[row.fingerprint] = row
            scored[metric][row.fingerprint] += 1
            if before is not None and before.pop((metric, page, fp), None) != (row.accepted, row.duration_ms):
                self.extraction_stamp = next(STAMPS)

    def changed_after(self, epoch: int) -> set[int] | None:
        """Pages changed after `epoch`; None when the log no longer reaches back that far."""
        if epoch < self.log_floor:
            return None
        changed: set[int] = set()
        for e, pages in reversed(self.log):
            if e <= epoch:
                break
            changed |= pages
        return changed

    def _admitted(self, metric: str, page: int, fingerprints: Sequence[str], filters: PageFilter) -> bool:
        rows = self.rows.get(metric, {}).get(page)
        return (rows is not None and bool(fingerprints) and all(fp in rows for fp in fingerprints)
                and filters.admits(rows[fingerprints[0]]))

    def aligned_pages(self, metric: str, fingerprints: Sequence[str], filters: PageFilter) -> tuple[int, list[int]]:
        """(a stamp that changes whenever the list does, the admitted pages scored by every fingerprint,
        by page id), kept per query and corrected by the pages changed since it was last asked for. The
        list is the cache's own: read it, never change it."""
        filters.check_scored()
        key = (metric, tuple(fingerprints), filters)
        found = self.alignments.get(key)
        if found is not None:
            built, stamp, pages = found
            changed = self.changed_after(built)
            if changed is not None:
                for page in changed:
                    at = bisect.bisect_left(pages, page)
                    present = at < len(pages) and pages[at] == page
                    wanted = self._admitted(metric, page, fingerprints, filters)
                    if present and not wanted:
                        del pages[at]
                    elif wanted and not present:
                        pages.insert(at, page)
                    else:
                        continue
                    stamp = next(STAMPS)
                self._keep_alignment(key, stamp, pages)
                return stamp, pages
        by_page = self.rows.get(metric, {})
        pages = sorted(p for p in by_page if self._admitted(metric, p, fingerprints, filters))
        stamp = next(STAMPS)
        self._keep_alignment(key, stamp, pages)
        return stamp, pages

    def _keep_alignment(self, key: tuple, stamp: int, pages: list[int]) -> None:
        self.alignments[key] = (self.epoch, stamp, pages)
        self.alignments.move_to_end(key)
        while len(self.alignments) > ALIGNMENTS_KEPT:
            self.alignments.popitem(last=False)

    def aligned(
        self, metric: str, fingerprints: Sequence[str], filters: PageFilter, pages: set[int] | None = None
    ) -> list[tuple[int, list[CachedRow]]]:
        """(page, rows in fingerprint order) for admitted pages scored by every fingerprint, by page id
        (of `pages` only, when given)."""
        filters.check_scored()
        if not fingerprints:
            return []
        by_page = self.rows.get(metric, {})
        if pages is None:
            chosen: Sequence[int] = self.aligned_pages(metric, fingerprints, filters)[1]
        else:
            chosen = sorted(p for p in pages if self._admitted(metric, p, fingerprints, filters))
        return [(page, [by_page[page][fp] for fp in fingerprints]) for page in chosen]


@dataclass
class SharedScores:
    """The process's one ScoreCache, its lock, and figures remembered per version of the data."""

    cache: ScoreCache
    lock: threading.Lock = field(default_factory=threading.Lock)
    memo: dict[tuple, tuple[int, Any]] = field(default_factory=dict)

    @contextmanager
    def synced(self, session: Session) -> Iterator[ScoreCache]:
        """The cache caught up with the change log, held under the lock while the caller reads it."""
        with self.lock:
            self.cache.sync(session)
            yield self.cache

    def remembered(self, key: tuple, compute, version: Any = None) -> Any:
        """compute() once per version of the data it reads (default: the cache's epoch); call under the lock."""
        version = self.cache.epoch if version is None else version
        found = self.memo.get(key)
        if found is not None and found[0] == version:
            return found[1]
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        value = compute()
        self.memo[key] = (version, value)
        return value
