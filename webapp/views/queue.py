"""The queue: the pages to annotate, filtered and in queue order, with progress per site; above it, the
annotator's own queue (with overlap above 1, or pages assigned to them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..accounts.roles import REVIEWER, at_least
from ..annotation.comments import open_requests
from ..annotation.control import controls_given
from ..annotation.page_filter import ANYONE, PageFilter
from ..annotation.page_queue import (
    DISAGREEMENT,
    ORDER_KEYS,
    QueueRow,
    own_count,
    own_queue,
    progress_by_site,
    queue_counts,
    queue_rows,
    step,
    totals,
)
from ..foundation.vocabulary import QUEUE_STATUSES, TODO
from ..models import Assignment, ImportBatch, Site
from ..scoring.gold_checks import CHECKS
from ..usecases.assign import unassign_pages
from ..usecases.outcome import Refused
from ..web.acting import actor, annotator, current_role
from ..web.app_settings import overlap, settings
from ..web.db import get_session
from ..web.query_args import filter_args, queried_filter
from ..web.refusals import refuse
from ..web.request_input import TEXT, Form, query, whole

bp = Blueprint("queue", __name__)

PAGE_SIZE = 100  # rows of the queue per page; the database pages with LIMIT/OFFSET
QUEUE_QUERY = Form({"order": TEXT, "offset": whole(), "dir": TEXT}, {"order": DISAGREEMENT, "offset": 0})
"""The queue's order, where its page starts and which way a step goes (with the page filter)."""


def queue_filter() -> PageFilter:
    """The query string's page filter as the queue reads it: before adjudication a page's type is its
    annotations' (an annotator's own, anyone's for a reviewer), and only reviewers filter by who annotated a
    page (annotators are blind to the others)."""
    wanted = queried_filter()
    reviewer = at_least(current_role(), REVIEWER)
    return replace(wanted, types_seen_by=ANYONE if reviewer else annotator(),
                   annotated_by=wanted.annotated_by if reviewer else ())


def queue_order() -> str:
    """The queue's order the query string names (``order``): `quality`, or the default (most disagreement first)
    for anything else."""
    order = query(QUEUE_QUERY)["order"]
    return order if order in ORDER_KEYS else DISAGREEMENT


@bp.get("/")
def index() -> str:
    session = get_session()
    wanted = queue_filter()
    offset = max(query(QUEUE_QUERY)["offset"], 0)
    counts = queue_counts(session, wanted)
    name = annotator()
    rows = blind_rows(queue_rows(session, wanted, offset=offset, limit=PAGE_SIZE, counts=counts, order=queue_order()),
                      controls_given(session, name) if name else set())
    progress = progress_by_site(session)
    has_own = name is not None and (overlap() > 1 or session.scalar(
        select(Assignment.id).where(Assignment.author == name).limit(1)) is not None)
    return render_template(
        "queue/index.html",
        checks=CHECKS,
        requests=open_requests(session, name) if name else [],
        own=own_queue(session, name, overlap(), PAGE_SIZE) if has_own and name else None,
        own_total=own_count(session, name, overlap()) if has_own and name else 0,
        overlap=overlap(),
        rows=rows,
        matching=sum(counts),
        offset=offset,
        page_size=PAGE_SIZE,
        progress=progress,
        total=totals(progress.values()),
        sites=session.scalars(select(Site).order_by(Site.host)).all(),
        batches=session.scalars(select(ImportBatch).order_by(ImportBatch.id.desc())).all(),
        page_types=settings().taxonomy.labels,
        statuses=QUEUE_STATUSES,
        args=filter_args(),
        reviewer=at_least(current_role(), REVIEWER),
    )


def blind_rows(rows: list[QueueRow], controls: set[int]) -> list[QueueRow]:
    """The rows with the control pages given to the reader shown as pages to do (annotation/control.py)."""
    return [replace(row, status=TODO, page_type=None, author=None) if row.page_id in controls else row
            for row in rows]


@bp.get("/queue/step/<int:page_id>")
def go(page_id: int) -> Response:
    """Redirect to the next (``?dir=next``) or previous (``?dir=prev``) page in queue order."""
    direction = -1 if query(QUEUE_QUERY)["dir"] == "prev" else 1
    session, name = get_session(), annotator()
    own = own_queue(session, name, overlap(), 1, skip=page_id) if overlap() > 1 and direction > 0 and name else []
    target = own[0].page_id if own else step(session, page_id, direction, queue_filter(), queue_order())
    args: Mapping[str, Any] = filter_args()  # url_for takes values of any type
    if target is None:
        where = "first" if direction < 0 else "last"
        filtered = " under these filters" if set(args) - {"order"} else ""
        flash(f"That was the {where} page of the queue{filtered}: pick another page below, change the filters, "
              "or see the scores on the leaderboard.")
        return redirect(url_for("queue.index", **args))
    return redirect(url_for("annotate.page", page_id=target, **args))


@bp.post("/queue/assignments/<int:page_id>/hand-back")
def hand_back(page_id: int) -> Response:
    """The annotator removes their own assignment of the page (usecases/assign.py): its place is free again."""
    name = annotator()
    if name is None:
        abort(400, description="Give your name first.")
    session = get_session()
    try:
        removed = unassign_pages(session, actor(name), (name,), PageFilter(), page_id)
    except Refused as error:
        refuse(error)
    session.commit()
    flash(f"Page {page_id} handed back: it is no longer assigned to you." if removed
          else f"Page {page_id} was not assigned to you.")
    return redirect(url_for("queue.index"))
