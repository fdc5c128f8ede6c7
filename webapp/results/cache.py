"""The leaderboard's cache of the current per-page counts, in memory, per process.

A ScoreCache holds the current counts (see store.is_current), each metric's in numpy columns
(columns.py), and catches up with the database through the score change log: only the pages changed
since its epoch are re-read. Everything a warm request needs is kept up to date by the same log, at the
cost of the changed pages alone: the Boards of the most recently used queries, the aligned pages of
each query (`aligned_pages`), and how many pages each fingerprint has scored. A cold cache starts from
the snapshot another process stored (see snapshot.py: the columns' arrays, read in bulk) when one is
recent enough, and reads the counts in bulk otherwise: each page's facts once (columns.PageFacts), the
counts as plain columns decoded a chunk at a time (columns.Rows). `SharedScores` is a web process's one cache,
synced and read under a lock (Boards are corrected in place, and web processes are threaded), with
figures remembered per version of the data. What is kept least recently used first out (boards, aligned
pages, bootstrap weights, remembered figures) is kept in `kept.Kept`, as every in-process cache is.
"""

from __future__ import annotations

import gc
import itertools
import threading
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from sqlalchemy import Select, cast, select
from sqlalchemy.orm import Session
from sqlalchemy.types import Text

from ..annotation.page_filter import PageFilter
from ..extractors.scored_output import scored, with_scored
from ..foundation.kept import Kept
from ..foundation.vocabulary import DONE
from ..models import Extraction, Gold, Page, Score, Site
from ..scoring import Metric
from ..scoring.bootstrap import weights
from ..scoring.leaderboard_maths import Leaderboard
from ..scoring.metric import Fields
from . import snapshot
from .columns import Columns, PageFacts, Rows, Strings
from .store import changed_since, current_of, epochs

LOG_LIMIT = 2000
LEADERBOARDS_KEPT = 8
"""Boards kept per process, least recently used dropped first."""
WEIGHTS_KEPT = 2
"""Bootstrap weights kept per process (one byte per page and resample: 10 MB at 10,000 pages and 1,000
resamples), shared by the boards of one size."""
ALIGNMENTS_KEPT = 32
MEMO_LIMIT = 256
LOAD_CHUNK = 20_000
STAMPS = itertools.count(1)


class CachedRow(NamedTuple):
    """One current count of one extraction, as the cache gives it for one page (see ScoreCache.row)."""

    page_id: int
    fingerprint: str
    counts: Mapping[str, Any]
    site: str
    page_type: str
    batch: int
    author: str
    accepted: bool = True
    duration_ms: float = 0.0

    def group(self, by: str) -> str:
        return str(getattr(self, "page_type" if by == "type" else by))


@dataclass(frozen=True)
class Aligned:
    """Pages scored by every one of some fingerprints, by page id, read from one metric's columns."""

    columns: Columns
    fingerprints: tuple[str, ...]
    slots: np.ndarray

    def __len__(self) -> int:
        return len(self.slots)

    @property
    def page_ids(self) -> list[int]:
        return self.columns.page_id[self.slots].tolist()

    def fields(self, fingerprint: str) -> Fields:
        return self.columns.fields_of(fingerprint, self.slots)

    def errored(self, fingerprint: str) -> np.ndarray:
        return self.columns.per_fingerprint("errored", fingerprint, self.slots)

    def accepted(self, fingerprint: str) -> np.ndarray:
        return self.columns.per_fingerprint("accepted", fingerprint, self.slots)

    def duration(self, fingerprint: str) -> np.ndarray:
        return self.columns.per_fingerprint("duration", fingerprint, self.slots)

    def counts(self, fingerprint: str) -> list[dict[str, Any]]:
        """The fingerprint's counts on each page, as dicts (the metric's fields, as floats, and "errored")."""
        return [self.columns.row_counts(fingerprint, slot) for slot in self.slots.tolist()]

    def groups(self, by: str) -> dict[str, Aligned]:
        """These pages split by a page fact (site, type, batch, author), by group name."""
        if by == "batch":
            codes, names = self.columns.batch[self.slots], None
        else:
            codes, names = self.columns.facts[by][self.slots], self.columns.strings.names
        found = {}
        for code in np.unique(codes).tolist():
            found[str(code) if names is None else names[code]] = Aligned(
                self.columns, self.fingerprints, self.slots[codes == code])
        return found


class ScoreCache:
    """Current per-page counts, per metric in columns (columns.py), synced from the change log at every
    request, so that a save made through any process shows in every other at its next request. Boards
    are kept for the LEADERBOARDS_KEPT most recently used queries, aligned pages for ALIGNMENTS_KEPT, and the
    bootstrap weights for the WEIGHTS_KEPT most recently used (pages, resamples, seed)."""

    def __init__(self, metrics: Mapping[str, Metric], leaderboards_kept: int = LEADERBOARDS_KEPT,
                 snapshot_path: Path | None = None) -> None:
        self.metrics = metrics
        self.snapshot_path = snapshot_path
        self.epoch = -1
        self.extraction_epoch = -1
        self.strings = Strings()
        self.columns: dict[str, Columns] = {}
        self.scored: dict[str, Counter[str]] = defaultdict(Counter)
        """metric -> fingerprint -> how many pages it has a count of."""
        self.extraction_stamp = next(STAMPS)
        """Changes whenever a reloaded row's guard verdict or time differs from the one it replaced."""
        self.log: list[tuple[int, set[int]]] = []
        self.log_floor = -1
        self.leaderboards_kept = leaderboards_kept
        self.boards: Kept[tuple[int, Leaderboard]] = Kept(leaderboards_kept)
        """query -> (the epoch it was built or last corrected at, its board)."""
        self.alignments: Kept[tuple[int, int, np.ndarray]] = Kept(ALIGNMENTS_KEPT)
        """query -> (the epoch it was built at, its stamp, the aligned slots)."""
        self.weights: Kept[np.ndarray] = Kept(WEIGHTS_KEPT)
        self.loaded_from = "none"
        """How the cache started: "snapshot", "database", or "none" yet."""

    def keep_leaderboard(self, key: tuple, board: Leaderboard) -> None:
        self.boards.put(key, (self.epoch, board))

    def resample_weights(self, pages: int, resamples: int, seed: int) -> np.ndarray:
        """The bootstrap's weights for this many pages (scoring/bootstrap.py `weights`), shared by every
        board of that size: drawn once, never changed."""
        return self.weights.get((pages, resamples, seed), lambda: weights(pages, resamples, seed))

    def reset(self) -> None:
        """Forget everything: the next sync starts over (the log no longer reaches back to this cache)."""
        self.__init__(self.metrics, self.leaderboards_kept, self.snapshot_path)  # type: ignore[misc]

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
        up with the pages changed since), else every count read in bulk and stored as the snapshot."""
        if self.snapshot_path is not None:
            found = snapshot.read(self.snapshot_path, self.versions(), floor, newest)
            if found is not None:
                self.epoch, state = found
                self.strings = Strings(state["strings"])
                self.columns = {metric: Columns.of_state(held, self.strings)
                                for metric, held in state["columns"].items()}
                self._count_scored()
                self.loaded_from = "snapshot"
                return
        self.epoch = newest
        with collector_paused():
            facts = self._facts(session, None)
            parts: dict[str, list[Rows]] = defaultdict(list)
            for chunk in self._read(session, None):
                for metric, rows in self._decoded(chunk).items():
                    parts[metric].append(rows)
            for metric, decoded in parts.items():
                columns = self._columns(metric)
                columns.reserve(facts.pages_among(part.page_id for part in decoded),
                                len({name for part in decoded for name in part.names}))
                for part in decoded:
                    columns.put(part, facts)
        self._count_scored()
        self.loaded_from = "database"
        if self.snapshot_path is not None:
            snapshot.write(self.snapshot_path, self.versions(), self.epoch, {
                "strings": self.strings.names,
                "columns": {metric: columns.state() for metric, columns in self.columns.items()},
            })

    def _count_scored(self) -> None:
        self.scored = defaultdict(Counter, {metric: Counter(columns.scored())
                                            for metric, columns in self.columns.items()})

    def versions(self) -> dict[str, int]:
        """The metrics' versions, which a snapshot must share to be used."""
        return {name: metric.version for name, metric in self.metrics.items()}

    def _facts(self, session: Session, pages: set[int] | None) -> PageFacts:
        """The facts of these pages (or of all) with a done gold, read once per page."""
        query = (
            select(Page.id, Site.host, Gold.page_type, Page.batch_id, Gold.author)
            .join(Site, Site.id == Page.site_id)
            .join(Gold, Gold.page_id == Page.id)
            .where(Gold.status == DONE)
        )
        return PageFacts.of_rows(list(itertools.chain.from_iterable(_rows(session, query, Page.id, pages))),
                                 self.strings)

    def _read(self, session: Session, pages: set[int] | None) -> Iterator[list[tuple]]:
        """The current counts of these pages (or of all), LOAD_CHUNK rows at a time, the counts as JSON
        text: (metric, counts, page, fingerprint, accepted, duration_ms); the pages' own facts are read
        apart, once per page (_facts)."""
        query = (
            with_scored(select(Score.metric, cast(Score.counts, Text), Score.page_id, Extraction.fingerprint,
                               scored("accepted"), scored("duration_ms"))  # of the output scored
                        .join(Extraction, Extraction.id == Score.extraction_id))
            .join(Gold, current_of(self.metrics))
            .where(Gold.status == DONE)
        )
        return _rows(session, query, Score.page_id, pages)

    def _decoded(self, chunk: list[tuple]) -> dict[str, Rows]:
        """Rows read by _read, per metric, decoded in bulk (columns.Rows)."""
        metrics = dict.fromkeys(map(itemgetter(0), chunk))
        return {metric: Rows.decode(self.metrics[metric].fields,
                                    chunk if len(metrics) == 1 else [row for row in chunk if row[0] == metric])
                for metric in metrics}

    def _load(self, session: Session, pages: set[int]) -> None:
        """Replace these pages' rows with their current counts; a reloaded row whose guard verdict or time
        differs from the one it replaced (or a row gone) moves the extraction stamp."""
        before: dict[tuple[str, int, str], tuple[bool, float]] = {}
        for metric, columns in self.columns.items():
            for page, fp, accepted, duration in columns.drop(pages):
                self.scored[metric][fp] -= 1
                before[(metric, page, fp)] = (accepted, duration)
        facts = self._facts(session, pages)
        for chunk in self._read(session, pages):
            for metric, rows in self._decoded(chunk).items():
                self._columns(metric).put(rows, facts)
                fingerprints = rows.fingerprints()
                self.scored[metric].update(fingerprints)
                for page, fp, accepted, ms in zip(rows.page_id.tolist(), fingerprints, rows.accepted.tolist(),
                                                  rows.duration.tolist()):
                    if before.pop((metric, page, fp), None) != (accepted, ms):
                        self.extraction_stamp = next(STAMPS)
        if before:  # rows gone
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

    def row(self, metric: str, page: int, fingerprint: str) -> CachedRow | None:
        """One page's current count by one fingerprint, with the page's facts; None when there is none."""
        columns = self.columns.get(metric)
        if columns is None or not columns.has_all(page, [fingerprint]):
            return None
        slot = columns.slots[page]
        f = columns.fingerprints[fingerprint]
        return CachedRow(page, fingerprint, columns.row_counts(fingerprint, slot), columns.fact("site", slot),
                         columns.fact("type", slot), int(columns.batch[slot]), columns.fact("author", slot),
                         bool(columns.accepted[f, slot]), float(columns.duration[f, slot]))

    def _admitted(self, metric: str, page: int, fingerprints: Sequence[str], filters: PageFilter) -> bool:
        columns = self.columns.get(metric)
        if columns is None or not columns.has_all(page, fingerprints):
            return False
        found = self.row(metric, page, fingerprints[0])
        return found is not None and filters.admits(found)

    def aligned_pages(self, metric: str, fingerprints: Sequence[str], filters: PageFilter) -> tuple[int, np.ndarray]:
        """(a stamp that changes whenever the list does, the admitted pages scored by every fingerprint,
        by page id)."""
        stamp, slots = self._aligned_slots(metric, fingerprints, filters)
        return stamp, self._columns(metric).page_id[slots]

    def _columns(self, metric: str) -> Columns:
        columns = self.columns.get(metric)
        if columns is None:
            columns = self.columns[metric] = Columns(self.metrics[metric].fields, self.strings)
        return columns

    def _aligned_slots(self, metric: str, fingerprints: Sequence[str], filters: PageFilter) -> tuple[int, np.ndarray]:
        """(stamp, the slots of the aligned pages by page id), kept per query and corrected by the pages
        changed since it was last asked for. The array is the cache's own: read it, never change it."""
        filters.check_scored()
        key = (metric, tuple(fingerprints), filters)
        columns = self._columns(metric)
        found = self.alignments.peek(key)
        if found is not None:
            built, stamp, slots = found
            changed = self.changed_after(built)
            if changed is not None:
                pages = columns.page_id[slots]
                for page in sorted(changed):
                    at = int(np.searchsorted(pages, page))
                    present = at < len(pages) and pages[at] == page
                    wanted = self._admitted(metric, page, fingerprints, filters)
                    if present and not wanted:
                        pages, slots = np.delete(pages, at), np.delete(slots, at)
                    elif wanted and not present:
                        pages, slots = np.insert(pages, at, page), np.insert(slots, at, columns.slots[page])
                    else:
                        continue
                    stamp = next(STAMPS)
                self._keep_alignment(key, stamp, slots)
                return stamp, slots
        slots = columns.aligned_slots(fingerprints, filters)
        stamp = next(STAMPS)
        self._keep_alignment(key, stamp, slots)
        return stamp, slots

    def _keep_alignment(self, key: tuple, stamp: int, slots: np.ndarray) -> None:
        self.alignments.put(key, (self.epoch, stamp, slots))

    def aligned(
        self, metric: str, fingerprints: Sequence[str], filters: PageFilter, pages: set[int] | None = None
    ) -> Aligned:
        """The admitted pages scored by every fingerprint, by page id (of `pages` only, when given)."""
        filters.check_scored()
        columns = self._columns(metric)
        if not fingerprints:
            slots = np.zeros(0, dtype=np.int64)
        elif pages is None:
            slots = self._aligned_slots(metric, fingerprints, filters)[1]
        else:
            chosen = sorted(p for p in pages if self._admitted(metric, p, fingerprints, filters))
            slots = np.array([columns.slots[p] for p in chosen], dtype=np.int64)
        return Aligned(columns, tuple(fingerprints), slots)


def _rows(session: Session, query: Select, page: Any, pages: set[int] | None) -> Iterator[list[tuple]]:
    """The query's rows for these pages (`page`: the column of their id) as plain tuples, or for all of
    them LOAD_CHUNK at a time, read through the driver's own cursor in the session's transaction (a
    server-side one on PostgreSQL): building a row object for each of millions of counts would cost more
    than the read itself. A few pages go through the session, whose compiled statements are cached."""
    if pages is not None:
        yield [tuple(row) for row in session.execute(query.where(page.in_(sorted(pages))))]
        return
    connection = session.connection()
    sql = str(query.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True}))
    driver = connection.connection.driver_connection
    assert driver is not None
    streamed = {"name": f"score_cache_{next(STAMPS)}"} if connection.dialect.name == "postgresql" else {}
    cursor = driver.cursor(**streamed)
    try:
        cursor.execute(sql)
        while part := cursor.fetchmany(LOAD_CHUNK):
            yield part
    finally:
        cursor.close()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while millions of plain tuples are read and dropped (none of
    them can form a cycle, and the collector would walk every live one again and again), then back on if
    it was on."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class SharedScores:
    """The process's one ScoreCache, its lock, and figures remembered per version of the data."""

    cache: ScoreCache
    lock: threading.Lock = field(default_factory=threading.Lock)
    memo: Kept[Any] = field(default_factory=lambda: Kept(MEMO_LIMIT))

    @contextmanager
    def synced(self, session: Session) -> Iterator[ScoreCache]:
        """The cache caught up with the change log, held under the lock while the caller reads it."""
        with self.lock:
            self.cache.sync(session)
            yield self.cache

    def remembered(self, key: tuple, compute, version: Any = None) -> Any:
        """compute() once per version of the data it reads (default: the cache's epoch); call under the lock."""
        return self.memo.get(key, compute, self.cache.epoch if version is None else version)
