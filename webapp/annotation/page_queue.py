"""The annotation queue: which pages to show, with what filters, in which order.

Default order: pages without gold first; within each group the pages on which the extractors disagree
most first (the lowest stored mean pairwise token F1, see disagreement.py); pages with fewer than
two candidates come after the others; then by page id. The other order, `quality` ("least confident
first"), puts the pages whose rs-trafilatura predicted the lowest quality of its own extraction first within
each group (see predicted_quality.py), pages without a prediction after the others. Filtering, ordering and
paging are done by the database (`queue_rows`, `queue_counts`), and so is the step to a neighbour (`step`): no
request loads the whole queue.

An annotator's own queue (`own_queue`) holds the pages that still need their annotation: with overlap
above 1 each page is annotated by several annotators, and explicit assignments (`goldtext assign`)
come first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Select, and_, desc, exists, func, or_, select
from sqlalchemy.orm import Session

from ..foundation.vocabulary import QUEUE_STATUSES, TODO
from ..models import Annotation, Assignment, Gold, Page, Site
from .annotations import FINISHED, VOID
from .control import given_control
from .page_filter import PageFilter

# Within each segment (no gold, then gold): most disagreement (lowest mean F1) first, pages without a
# value after those with one, then by id. The index ix_page_queue_order on page ((disagreement IS
# NULL), disagreement, id) serves the order and the keyset steps (benchmarks/bench_queue.py has the
# figures at 100,000 pages).
ORDER = (Page.disagreement.is_(None), Page.disagreement, Page.id)
DISAGREEMENT, QUALITY = "disagreement", "quality"
ORDER_KEYS = {DISAGREEMENT: Page.disagreement, QUALITY: Page.predicted_quality}
"""The queue's orders, by name: the page's value that orders each (lowest first, pages without one last), served
by the indexes ix_page_queue_order and ix_page_quality_order."""
ROW_COLUMNS = (Page.id, Page.url, Page.source_name, Site.host, Gold.status, Gold.page_type, Gold.author,
               Page.disagreement, Page.predicted_quality)


@dataclass(frozen=True)
class QueueRow:
    page_id: int
    url: str | None
    source_name: str
    host: str
    status: str  # the gold's status, or "todo"
    page_type: str | None
    author: str | None
    disagreement: float | None  # mean pairwise token F1 of the candidates (lower = more disagreement)
    predicted_quality: float | None = None  # rs-trafilatura's prediction of its own extraction's quality

    @property
    def has_gold(self) -> bool:
        return self.status != TODO


def _segment(columns: Sequence, f: PageFilter, has_gold: bool) -> Select:
    """The filtered pages with gold (``has_gold``) or without: the queue is the second after the first."""
    query = select(*columns).select_from(Page)
    if has_gold:
        query = query.join(Gold, Gold.page_id == Page.id)
    else:
        # IS NULL on the join column: PostgreSQL plans it as an anti-join (on gold.id it does not)
        query = query.outerjoin(Gold, Gold.page_id == Page.id).where(Gold.page_id.is_(None))
    return f.where(query)


def sort_keys(order: str = DISAGREEMENT) -> tuple[ColumnElement, ...]:
    """The ORDER BY of the queue's order named ``order`` (KeyError for another name)."""
    key = ORDER_KEYS[order]
    return (key.is_(None), key.expression, Page.id.expression)


def _rows(session: Session, f: PageFilter, has_gold: bool, offset: int = 0,
          limit: int | None = None, order: str = DISAGREEMENT) -> list[QueueRow]:
    query = (
        _segment(ROW_COLUMNS, f, has_gold)
        .join(Site, Page.site_id == Site.id)
        .order_by(*sort_keys(order))
        .offset(offset or None)
        .limit(limit)
    )
    return [
        QueueRow(pid, url, name, host, status or TODO, page_type, author, disagreement, quality)
        for pid, url, name, host, status, page_type, author, disagreement, quality in session.execute(query)
    ]


def queue_counts(session: Session, f: PageFilter = PageFilter()) -> tuple[int, int]:
    """(pages without gold, pages with gold) that pass the filter. Unfiltered: two counts of whole
    tables, which the databases answer from an index, not a join over every page."""
    if f.is_empty:
        pages = session.scalar(select(func.count()).select_from(Page)) or 0
        with_gold = session.scalar(select(func.count()).select_from(Gold)) or 0
        return pages - with_gold, with_gold
    query = f.where(
        select(func.count(Page.id), func.count(Gold.id)).select_from(Page).outerjoin(Gold, Gold.page_id == Page.id)
    )
    total, with_gold = session.execute(query).one()
    return total - with_gold, with_gold


def queue_rows(
    session: Session, f: PageFilter = PageFilter(), offset: int = 0, limit: int | None = None,
    counts: tuple[int, int] | None = None, order: str = DISAGREEMENT,
) -> list[QueueRow]:
    """The filtered pages in queue order, ``limit`` of them from ``offset`` (all with ``limit=None``).

    The order and the paging are SQL's: the pages without gold, then those with gold, each segment
    ordered by ``sort_keys(order)``. ``counts`` (from ``queue_counts``) spares counting again to find where the
    second segment starts.
    """
    if offset == 0 and limit is None:
        return _rows(session, f, False, order=order) + _rows(session, f, True, order=order)
    todo, _ = counts if counts is not None else queue_counts(session, f)
    rows = _rows(session, f, False, offset, limit, order) if offset < todo else []
    rest = None if limit is None else limit - len(rows)
    if rest is None or rest > 0:
        rows += _rows(session, f, True, max(offset - todo, 0), rest, order)
    return rows


def _first(session: Session, f: PageFilter, has_gold: bool, direction: int = 1,
           beyond: ColumnElement[bool] | None = None, order: str = DISAGREEMENT) -> int | None:
    query = _segment([Page.id], f, has_gold)
    if beyond is not None:
        query = query.where(beyond)
    keys = sort_keys(order)
    return session.scalars(query.order_by(*(keys if direction > 0 else [key.desc() for key in keys]))
                           .limit(1)).first()


def _beyond(current: float | None, page_id: int, direction: int, order: str = DISAGREEMENT) -> ColumnElement[bool]:
    """Pages after (``direction`` > 0) or before the key (the order's value, page id) in ``sort_keys(order)``,
    within one segment: a keyset comparison spelled out, since NULL values sort last."""
    value, pid = ORDER_KEYS[order], Page.id
    if direction > 0:
        if current is None:
            return and_(value.is_(None), pid > page_id)
        return or_(value > current, and_(value == current, pid > page_id), value.is_(None))
    if current is None:
        return or_(value.is_not(None), pid < page_id)
    return or_(value < current, and_(value == current, pid < page_id))


def step(session: Session, page_id: int, direction: int, f: PageFilter = PageFilter(),
         order: str = DISAGREEMENT) -> int | None:
    """The page to go to from ``page_id`` (+1 next, -1 previous) in queue order; the first page of the
    queue when ``page_id`` is not in it; None past either end.

    Going forward from a page that has gold while pages without gold remain leads to the first of those
    (the page just saved has moved down the queue; the work left is at its head). Found by keyset
    queries on the queue order, never by loading the queue.
    """
    current = session.execute(
        f.where(select(Gold.id, ORDER_KEYS[order]).outerjoin(Gold, Gold.page_id == Page.id))
        .where(Page.id == page_id)
    ).first()
    if current is None:
        return _first(session, f, False, order=order) or _first(session, f, True, order=order)
    has_gold = current[0] is not None
    beyond = _beyond(current[1], page_id, direction, order)
    if direction > 0:
        if has_gold:
            return _first(session, f, False, order=order) or _first(session, f, True, beyond=beyond, order=order)
        return _first(session, f, False, beyond=beyond, order=order) or _first(session, f, True, order=order)
    found = _first(session, f, has_gold, -1, beyond, order)
    if found is None and has_gold:
        found = _first(session, f, False, -1, order=order)
    return found


def progress_by_site(session: Session) -> dict[str, dict[str, int]]:
    """Per site host: how many pages are done, draft, skipped and still to do. Pages are counted per
    site from the site index and gold per site and status; "to do" is the difference (no join of
    every page with the gold)."""
    hosts = dict(session.execute(select(Site.id, Site.host)).all())
    pages = session.execute(select(Page.site_id, func.count()).group_by(Page.site_id)).all()
    golds = session.execute(
        select(Page.site_id, Gold.status, func.count()).join(Page, Page.id == Gold.page_id)
        .group_by(Page.site_id, Gold.status)
    ).all()
    found = {hosts[site]: dict.fromkeys(QUEUE_STATUSES, 0) for site, _ in sorted(pages, key=lambda r: hosts[r[0]])}
    for site, count in pages:
        found[hosts[site]][TODO] += count
    for site, status, count in golds:
        found[hosts[site]][status] += count
        found[hosts[site]][TODO] -= count
    return found


def totals(progress: Iterable[dict[str, int]]) -> dict[str, int]:
    """The per-site counts added up."""
    total = dict.fromkeys(QUEUE_STATUSES, 0)
    for counts in progress:
        for status, count in counts.items():
            total[status] += count
    return total


@dataclass(frozen=True)
class OwnRow:
    page_id: int
    url: str | None
    source_name: str
    host: str
    assigned: bool
    started: bool  # the annotator has a draft of it
    disagreement: float | None


def places_taken() -> ColumnElement[int]:
    """How many annotators hold one of a page's places (correlated to Page): those with an annotation of
    it, and those it is assigned to who have none yet."""
    annotated = (select(func.count(Annotation.id)).where(Annotation.page_id == Page.id, Annotation.status != VOID)
                 .scalar_subquery())
    reserved = (
        select(func.count(Assignment.id))
        .where(Assignment.page_id == Page.id,
               ~exists().where(Annotation.page_id == Page.id, Annotation.author == Assignment.author))
        .scalar_subquery()
    )
    return annotated + reserved


def _own(annotator: str, overlap: int) -> Select:
    """The pages that still need ``annotator``'s annotation (see ``own_queue``), as a query on Page
    with the columns ``assigned`` and ``started``."""
    mine = exists().where(Assignment.page_id == Page.id, Assignment.author == annotator)
    started = exists().where(Annotation.page_id == Page.id, Annotation.author == annotator)
    finished = exists().where(Annotation.page_id == Page.id, Annotation.author == annotator,
                              Annotation.status.in_(FINISHED))
    return (
        select(Page.id, Page.url, Page.source_name, Site.host, mine.label("assigned"), started.label("started"),
               Page.disagreement)
        .join(Site, Page.site_id == Site.id)
        .outerjoin(Gold, Gold.page_id == Page.id)
        .where(~finished)
        .where(or_(and_(Gold.page_id.is_(None), or_(mine, started, places_taken() < overlap)),
                   given_control(annotator)))
    )


def own_queue(session: Session, annotator: str, overlap: int, limit: int | None = None,
              skip: int | None = None) -> list[OwnRow]:
    """The pages that still need ``annotator``'s annotation, in the order they should do them.

    A page needs it while it has no gold (or is a control page given to them, annotation/control.py:
    mixed in blind, as any assigned page), the annotator has not finished their annotation of it (done
    or skipped), and it has a place for them: it is assigned to them, they have started it, or fewer
    than ``overlap`` annotators hold its places (those with an annotation of it and those it is
    assigned to). Pages assigned to them come first, then the others, each in queue order (most
    extractor disagreement first). ``skip``: a page left out (the one just annotated).
    """
    query = _own(annotator, overlap)
    if skip is not None:
        query = query.where(Page.id != skip)
    query = query.order_by(desc("assigned"), *ORDER).limit(limit)
    return [OwnRow(*row) for row in session.execute(query)]


def own_count(session: Session, annotator: str, overlap: int) -> int:
    return session.scalar(select(func.count()).select_from(_own(annotator, overlap).subquery())) or 0
