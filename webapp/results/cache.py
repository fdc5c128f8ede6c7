"""The leaderboard's cache of the current per-page counts, in memory, per process.

A ScoreCache holds the current counts (see store.is_current) and catches up with the database through the
score change log: only the pages changed since its epoch are re-read. It keeps the Boards of the most
recently used queries, which a gold save corrects by the changed pages alone. `SharedScores` is a web
process's one cache, synced and read under a lock (Boards are corrected in place, and web processes are
threaded), with figures remembered per version of the data.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..models import Extraction, Gold, Page, Score, Site
from ..scoring import Metric
from ..scoring.board import Board
from ..vocabulary import DONE
from .store import changed_since, current_epoch, current_of, pruned_floor

LOG_LIMIT = 2000
BOARDS_KEPT = 8
"""Boards kept per process, least recently used dropped first: a board holds its bootstrap weights
(about 19 MiB at 10,000 pages and 1,000 resamples)."""
MEMO_LIMIT = 256


@dataclass(frozen=True)
class CachedRow:
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
    Boards are kept for the BOARDS_KEPT most recently used queries."""

    def __init__(self, metrics: Mapping[str, Metric], boards_kept: int = BOARDS_KEPT) -> None:
        self.metrics = metrics
        self.epoch = -1
        self.rows: dict[str, dict[int, dict[str, CachedRow]]] = defaultdict(dict)
        self.log: list[tuple[int, set[int]]] = []
        self.log_floor = -1
        self.boards: OrderedDict[tuple, tuple[int, Board]] = OrderedDict()
        self.boards_kept = boards_kept

    def keep_board(self, key: tuple, board: Board) -> None:
        self.boards[key] = (self.epoch, board)
        self.boards.move_to_end(key)
        while len(self.boards) > self.boards_kept:
            self.boards.popitem(last=False)

    def sync(self, session: Session) -> None:
        if self.epoch >= 0 and self.epoch < pruned_floor(session):
            self.__init__(self.metrics, self.boards_kept)  # type: ignore[misc]  # the log no longer reaches back to this cache: start over
        if self.epoch < 0:
            self.epoch = current_epoch(session)
            self._load(session, None)
            return
        newest, pages = changed_since(session, self.epoch)
        if pages:
            self._load(session, pages)
            self.log.append((newest, pages))
            if len(self.log) > LOG_LIMIT:
                self.log_floor = self.log.pop(0)[0]
        self.epoch = newest

    def _load(self, session: Session, pages: set[int] | None) -> None:
        query = (
            select(
                Score.page_id, Score.metric, Score.counts,
                Extraction.fingerprint, Site.host, Gold.kind, Page.batch_id, Gold.author,
                Extraction.accepted, Extraction.duration_ms,
            )
            .join(Extraction, Extraction.id == Score.extraction_id)
            .join(Page, Page.id == Score.page_id)
            .join(Site, Site.id == Page.site_id)
            .join(Gold, current_of(self.metrics))
            .where(Gold.status == DONE)
        )
        if pages is not None:
            query = query.where(Score.page_id.in_(pages))
            for by_page in self.rows.values():
                for page in pages:
                    by_page.pop(page, None)
        for page, metric, counts, fp, site, kind, batch, author, accepted, ms in session.execute(query):
            row = CachedRow(page, fp, counts, site, kind, batch, author, accepted, ms)
            self.rows[metric].setdefault(page, {})[fp] = row

    def changed_after(self, epoch: int) -> set[int] | None:
        """Pages changed after `epoch`; None when the log no longer reaches back that far."""
        if epoch < self.log_floor:
            return None
        changed: set[int] = set()
        for e, pages in self.log:
            if e > epoch:
                changed |= pages
        return changed

    def aligned(
        self, metric: str, fingerprints: Sequence[str], filters: PageFilter, pages: set[int] | None = None
    ) -> list[tuple[int, list[CachedRow]]]:
        """(page, rows in fingerprint order) for admitted pages scored by every fingerprint, by page id."""
        filters.check_scored()
        if not fingerprints:
            return []
        by_page = self.rows.get(metric, {})
        result = []
        for page in sorted(by_page if pages is None else pages & by_page.keys()):
            rows = by_page[page]
            if all(fp in rows for fp in fingerprints) and filters.admits(rows[fingerprints[0]]):
                result.append((page, [rows[fp] for fp in fingerprints]))
        return result


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
