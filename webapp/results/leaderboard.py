"""The leaderboard service: corpus figures per extractor from the cached counts, never from texts.

A ScoreCache holds the current counts in memory and catches up with the database through the score
change log (only the pages changed since its epoch are re-read). Leaderboards are Boards kept per
query; after a gold save they are corrected by the changed pages alone. `goldtext score`, the views
and the JSON API all call `leaderboard()` and `head_to_head()`.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..models import Extraction, Gold, Page, Score, Site
from ..scoring import METRICS, compare, per_page_scores
from ..scoring.board import Board
from ..vocabulary import DONE
from .store import changed_since, current_epoch, pruned_floor

GROUPINGS = ("site", "kind", "batch", "annotator")
LOG_LIMIT = 2000
BOARDS_KEPT = 8
"""Boards kept per process, least recently used dropped first: a board holds its bootstrap weights
(about 19 MiB at 10,000 pages and 1,000 resamples)."""


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
        return str(getattr(self, by))


class ScoreCache:
    """Current per-page counts, by metric then page then fingerprint, synced from the change log at
    every request, so that a save made through any process shows in every other at its next request.
    Boards are kept for the BOARDS_KEPT most recently used queries."""

    def __init__(self, boards_kept: int = BOARDS_KEPT) -> None:
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
            self.__init__(self.boards_kept)  # the log no longer reaches back to this cache: start over
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
                Score.page_id, Score.metric, Score.metric_version, Score.counts,
                Extraction.fingerprint, Site.host, Gold.kind, Page.batch_id, Gold.author,
                Extraction.accepted, Extraction.duration_ms,
            )
            .join(Extraction, Extraction.id == Score.extraction_id)
            .join(Page, Page.id == Score.page_id)
            .join(Site, Site.id == Page.site_id)
            .join(Gold, and_(Gold.page_id == Score.page_id, Gold.version == Score.gold_version))
            .where(Gold.status == DONE)
        )
        if pages is not None:
            query = query.where(Score.page_id.in_(pages))
            for by_page in self.rows.values():
                for page in pages:
                    by_page.pop(page, None)
        for page, metric, version, counts, fp, site, kind, batch, author, accepted, ms in session.execute(query):
            if metric in METRICS and METRICS[metric].version == version:
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
        by_page = self.rows.get(metric, {})
        result = []
        for page in sorted(by_page if pages is None else pages & by_page.keys()):
            rows = by_page[page]
            if all(fp in rows for fp in fingerprints) and filters.admits(rows[fingerprints[0]]):
                result.append((page, [rows[fp] for fp in fingerprints]))
        return result


def _board(
    cache: ScoreCache,
    metric: str,
    average: str | None,
    named: Mapping[str, str],
    filters: PageFilter,
    bootstrap: int,
    seed: int,
) -> Board:
    """The cached board of this query, corrected for changed pages, or a new one."""
    filters.check_scored()
    fps = list(named.values())
    key = (metric, average, tuple(named.items()), filters, bootstrap, seed)
    cached = cache.boards.get(key)
    if cached is not None:
        built, board = cached
        changed = cache.changed_after(built)
        if changed is not None:
            now = dict(cache.aligned(metric, fps, filters, changed))
            if all((page in now) == (page in board.index) for page in changed):
                for page, rows in now.items():
                    board.update(page, {name: row.counts for name, row in zip(named, rows)})
                cache.keep_board(key, board)
                return board
    aligned = cache.aligned(metric, fps, filters)
    table = {name: [rows[i].counts for _, rows in aligned] for i, name in enumerate(named)}
    board = Board(metric, table, [page for page, _ in aligned], average, bootstrap, seed)
    cache.keep_board(key, board)
    return board


def _figures(board: Board) -> dict[str, Any]:
    return {
        name: {k: v for k, v in asdict(s).items() if k not in ("metric", "average")}
        for name, s in board.summaries().items()
    }


def leaderboard(
    cache: ScoreCache,
    metric: str,
    named: Mapping[str, str],
    *,
    average: str | None = None,
    filters: PageFilter = PageFilter(),
    by: str | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """Figures per extractor (`named`: display name -> fingerprint), optionally per group."""
    definition = METRICS[metric]
    average_name, _ = definition.aggregation(average)
    board = _board(cache, metric, average, named, filters, bootstrap, seed)
    result: dict[str, Any] = {
        "metric": metric,
        "average": average_name,
        "pages": len(board.page_ids),
        "extractors": _figures(board),
    }
    if by is not None:
        if by not in GROUPINGS:
            raise ValueError(f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}")
        groups: dict[str, list[tuple[int, list[CachedRow]]]] = defaultdict(list)
        for page, rows in cache.aligned(metric, list(named.values()), filters):
            groups[rows[0].group(by)].append((page, rows))
        result["groups"] = {}
        for group, aligned in sorted(groups.items()):
            table = {name: [rows[i].counts for _, rows in aligned] for i, name in enumerate(named)}
            sub = Board(metric, table, [p for p, _ in aligned], average, bootstrap, seed)
            result["groups"][group] = {"pages": len(sub.page_ids), "extractors": _figures(sub)}
    return result


def head_to_head(
    cache: ScoreCache,
    metric: str,
    a: tuple[str, str],
    b: tuple[str, str],
    *,
    average: str | None = None,
    filters: PageFilter = PageFilter(),
    bootstrap: int = 1000,
    seed: int = 0,
    top: int = 20,
) -> dict[str, Any]:
    """A against B (each (display name, fingerprint)) on the pages both have scored."""
    aligned = cache.aligned(metric, [a[1], b[1]], filters)
    pages = [page for page, _ in aligned]
    result = compare(
        metric,
        [rows[0].counts for _, rows in aligned],
        [rows[1].counts for _, rows in aligned],
        pages,
        bootstrap=bootstrap,
        seed=seed,
        top=top,
        average=average,
    )
    payload = asdict(result)
    payload["a"], payload["b"] = {"name": a[0], "fingerprint": a[1]}, {"name": b[0], "fingerprint": b[1]}
    payload["changed"] = [
        {"page_id": c.page_id, "f1_a": c.f1_a, "f1_b": c.f1_b, "difference": c.difference}
        for c in result.changed
    ]
    return payload


def page_scores(session: Session, page_id: int) -> dict[str, dict[str, Any]]:
    """One page's cached per-page precision, recall and F1: {fingerprint: {"extractor", "metrics": {metric: ...}}}."""
    rows = session.execute(
        select(Extraction.extractor, Extraction.fingerprint, Score.metric, Score.metric_version, Score.counts)
        .join(Score, Score.extraction_id == Extraction.id)
        .join(Gold, and_(Gold.page_id == Score.page_id, Gold.version == Score.gold_version))
        .where(Score.page_id == page_id)
    )
    result: dict[str, dict[str, Any]] = {}
    for name, fp, metric, version, counts in rows:
        if metric in METRICS and METRICS[metric].version == version:
            p, r, f = per_page_scores(metric, counts)
            entry = result.setdefault(fp, {"extractor": name, "metrics": {}})
            entry["metrics"][metric] = {"precision": p, "recall": r, "f1": f}
    return result
