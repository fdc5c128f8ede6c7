"""The annotation queue: which pages to show, with what filters, in which order.

Default order: pages without gold first; within each group the pages on which the extractors disagree
most first, measured by the mean pairwise token F1 between the page's candidates (the ``tokens`` metric's
definition; errored extractions left out); pages with fewer than two candidates come after the others;
then by page id. Disagreement is cached per page and recomputed only for pages whose extractions changed
(new rows, or rows re-run in place: a re-run records a new duration).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
from sqlalchemy import Select, exists, func, select
from sqlalchemy.orm import Session

from .models import Extraction, Gold, GoldRevision, Page, Site
from .scoring.token_overlap import counts as token_counts
from .scoring.token_overlap import page_scores

TODO = "todo"
STATUS_FILTERS = ("todo", "done", "draft", "skipped")
VERDICT_FILTERS = ("accepted", "rejected")


@dataclass(frozen=True)
class QueueFilter:
    """What the annotator narrowed the queue to; None means no restriction."""

    site_id: int | None = None
    status: str | None = None  # one of STATUS_FILTERS
    kind: str | None = None
    batch_id: int | None = None
    annotator: str | None = None  # pages with a revision by this author
    verdict: str | None = None  # "rejected": some candidate failed the accept guard; "accepted": none did
    url_contains: str | None = None


@dataclass(frozen=True)
class QueueRow:
    page_id: int
    url: str | None
    source_name: str
    host: str
    status: str  # the gold's status, or "todo"
    kind: str | None
    author: str | None
    disagreement: float | None  # mean pairwise token F1 of the candidates (lower = more disagreement)

    @property
    def has_gold(self) -> bool:
        return self.status != TODO


def pairwise_f1(a: str, b: str) -> float:
    """Token F1 of two texts (the ``tokens`` metric; symmetric)."""
    row = token_counts(a, b)
    _, _, f1 = page_scores({name: np.array([float(row[name])]) for name in ("hit", "extracted", "gold")})
    return float(f1[0])


def mean_pairwise_f1(texts: Sequence[str]) -> float | None:
    """Mean token F1 over every pair of texts; None with fewer than two."""
    pairs = list(combinations(texts, 2))
    if not pairs:
        return None
    return sum(pairwise_f1(a, b) for a, b in pairs) / len(pairs)


@dataclass
class DisagreementCache:
    """Per-page mean pairwise F1, valid while the extraction table's stamp is unchanged."""

    stamp: tuple | None = None
    signatures: dict[int, tuple] = field(default_factory=dict)
    values: dict[int, float | None] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def refresh(self, session: Session) -> dict[int, float | None]:
        """The values, recomputed only for pages whose usable extractions changed."""
        usable = Extraction.error.is_(None)
        stamp = tuple(
            session.execute(
                select(
                    func.count(Extraction.id), func.max(Extraction.id), func.sum(Extraction.duration_ms)
                )
            ).one()
        )
        with self.lock:
            if stamp == self.stamp:
                return self.values
            signatures: dict[int, list] = {}
            for page_id, ident, duration in session.execute(
                select(Extraction.page_id, Extraction.id, Extraction.duration_ms)
                .where(usable)
                .order_by(Extraction.page_id, Extraction.id)
            ):
                signatures.setdefault(page_id, []).append((ident, duration))
            fresh = {page_id: tuple(sig) for page_id, sig in signatures.items()}
            stale = [pid for pid, sig in fresh.items() if self.signatures.get(pid) != sig]
            values = {pid: v for pid, v in self.values.items() if pid in fresh and pid not in stale}
            values.update(_compute(session, stale))
            self.stamp, self.signatures, self.values = stamp, fresh, values
            return values


def _compute(session: Session, page_ids: Sequence[int]) -> dict[int, float | None]:
    found: dict[int, float | None] = {}
    for start in range(0, len(page_ids), 500):
        chunk = page_ids[start : start + 500]
        texts: dict[int, list[str]] = {pid: [] for pid in chunk}
        for page_id, text in session.execute(
            select(Extraction.page_id, Extraction.text)
            .where(Extraction.page_id.in_(chunk), Extraction.error.is_(None))
            .order_by(Extraction.id)
        ):
            texts[page_id].append(text)
        found.update({pid: mean_pairwise_f1(t) for pid, t in texts.items()})
    return found


def _filtered(query: Select, f: QueueFilter) -> Select:
    if f.site_id is not None:
        query = query.where(Page.site_id == f.site_id)
    if f.batch_id is not None:
        query = query.where(Page.batch_id == f.batch_id)
    if f.status == TODO:
        query = query.where(Gold.id.is_(None))
    elif f.status:
        query = query.where(Gold.status == f.status)
    if f.kind:
        query = query.where(Gold.kind == f.kind)
    if f.annotator:
        query = query.where(
            exists().where(GoldRevision.gold_id == Gold.id, GoldRevision.author == f.annotator)
        )
    if f.verdict:
        rejected = exists().where(
            Extraction.page_id == Page.id, Extraction.error.is_(None), Extraction.accepted.is_(False)
        )
        query = query.where(rejected if f.verdict == "rejected" else ~rejected)
    if f.url_contains:
        query = query.where(Page.url.contains(f.url_contains, autoescape=True))
    return query


def queue_rows(session: Session, cache: DisagreementCache, f: QueueFilter = QueueFilter()) -> list[QueueRow]:
    """The filtered pages in queue order."""
    disagreement = cache.refresh(session)
    query = _filtered(
        select(
            Page.id, Page.url, Page.source_name, Site.host, Gold.status, Gold.kind, Gold.author
        )
        .join(Site, Page.site_id == Site.id)
        .outerjoin(Gold, Gold.page_id == Page.id),
        f,
    )
    rows = [
        QueueRow(pid, url, name, host, status or TODO, kind, author, disagreement.get(pid))
        for pid, url, name, host, status, kind, author in session.execute(query)
    ]
    rows.sort(key=_order_key)
    return rows


def _order_key(row: QueueRow) -> tuple:
    return (row.has_gold, row.disagreement is None, row.disagreement or 0.0, row.page_id)


def step(rows: Sequence[QueueRow], page_id: int, direction: int) -> int | None:
    """The page to go to from ``page_id`` (+1 next, -1 previous) in queue order.

    Going forward from a page that has gold while pages without gold remain leads to the first of those
    (the page just saved has moved down the queue; the work left is at its head).
    """
    ids = [row.page_id for row in rows]
    if page_id not in ids:
        return ids[0] if ids else None
    index = ids.index(page_id)
    head = rows[0]
    if direction > 0 and rows[index].has_gold and not head.has_gold:
        return head.page_id
    target = index + direction
    return ids[target] if 0 <= target < len(ids) else None


def progress_by_site(session: Session) -> dict[str, dict[str, int]]:
    """Per site host: how many pages are done, draft, skipped and still to do."""
    found: dict[str, dict[str, int]] = {}
    query = (
        select(Site.host, Gold.status, func.count(Page.id))
        .join(Site, Page.site_id == Site.id)
        .outerjoin(Gold, Gold.page_id == Page.id)
        .group_by(Site.host, Gold.status)
        .order_by(Site.host)
    )
    for host, status, count in session.execute(query):
        found.setdefault(host, dict.fromkeys(STATUS_FILTERS, 0))[status or TODO] += count
    return found


def totals(progress: Iterable[dict[str, int]]) -> dict[str, int]:
    """The per-site counts added up."""
    total = dict.fromkeys(STATUS_FILTERS, 0)
    for counts in progress:
        for status, count in counts.items():
            total[status] += count
    return total
