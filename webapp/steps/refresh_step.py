"""The step of a metric refresh job: compute a slow metric's missing counts (`rouge-lsum`), a few
pages per transaction, so the leaderboard can show it; as the user who started it (usecases/refresh.py)."""

from __future__ import annotations

from ..jobs.context import Context, Follow
from ..usecases.outcome import Actor
from ..usecases.refresh import extracted_pages, refresh_counts

PAGES = 50  # pages per transaction


def refresh_step(ctx: Context) -> Follow:
    metric = ctx.params["metric"]
    with ctx.reader() as session:
        pages = extracted_pages(session)
        actor = Actor.of_job(session, ctx.job_id)
    ctx.stage("scoring", len(pages))
    for part, session in ctx.in_parts(pages, PAGES):
        refresh_counts(session, ctx.settings, actor, {metric: ctx.settings.metrics[metric]}, part)
    return []
