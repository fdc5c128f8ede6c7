"""The annotation queue: which pages to show, with what filters, in which order.

Default order: pages without gold first; within each group the pages on which the extractors disagree
most first (the lowest stored mean pairwise token F1, see webapp/disagreement.py); pages with fewer than
two candidates come after the others; then by page id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Select, exists, func, select
from sqlalchemy.orm import Session

from .models import Extraction, Gold, GoldRevision, Page, Site

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


def queue_rows(session: Session, f: QueueFilter = QueueFilter()) -> list[QueueRow]:
    """The filtered pages in queue order."""
    query = _filtered(
        select(
            Page.id, Page.url, Page.source_name, Site.host, Gold.status, Gold.kind, Gold.author,
            Page.disagreement,
        )
        .join(Site, Page.site_id == Site.id)
        .outerjoin(Gold, Gold.page_id == Page.id),
        f,
    )
    rows = [
        QueueRow(pid, url, name, host, status or TODO, kind, author, disagreement)
        for pid, url, name, host, status, kind, author, disagreement in session.execute(query)
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
