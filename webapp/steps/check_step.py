"""The step of a check job: run the checks of the gold (results/gold_check_runs.py) on every page they cover
(a follow-up job, jobs/follow_checks.py: on the pages whose gold changed since their last check), a few
pages per transaction, replacing the failures kept for them."""

from __future__ import annotations

from ..jobs.context import Context
from ..results.gold_check_runs import checked_pages, run_checks, stale_pages

PAGES = 100  # pages per transaction


def check_step(ctx: Context) -> list:
    with ctx.reader() as session:
        pages = stale_pages(session) if ctx.params.get("follow") else checked_pages(session)
    check_pages(ctx, pages)
    return []


def check_pages(ctx: Context, pages: list[int]) -> int:
    """Check these pages, a few per transaction, under the stage "checking"; returns how many failed."""
    registry, taxonomy = ctx.settings.registry, ctx.settings.taxonomy
    thresholds = ctx.settings.checks
    ctx.stage("checking", len(pages))
    failed = 0
    for part, session in ctx.in_parts(pages, PAGES):
        failed += len(run_checks(session, registry, taxonomy, thresholds, part)[1])
    return failed
