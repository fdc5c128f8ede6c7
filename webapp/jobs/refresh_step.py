"""The step of a metric refresh job: compute a slow metric's missing counts (`rouge-lsum`), a few
pages per transaction, so the leaderboard can show it."""

from __future__ import annotations

from sqlalchemy import select

from ..models import Extraction
from ..results.store import refresh_scores
from .context import Context
from .extraction_steps import Follow

PAGES = 50  # pages per transaction


def refresh_step(ctx: Context) -> Follow:
    metric = ctx.params["metric"]
    with ctx.reader() as session:
        pages = sorted(set(session.scalars(select(Extraction.page_id).distinct())))
    ctx.stage("scoring", len(pages))
    for part, session in ctx.in_parts(pages, PAGES):
        refresh_scores(session, {metric: ctx.settings.metrics[metric]}, part,
                       no_content=ctx.settings.taxonomy.no_content)
    return []
