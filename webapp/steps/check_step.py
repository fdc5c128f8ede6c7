"""The step of a check job: run the checks of the gold on every page they cover (a follow-up job,
jobs/follow_checks.py: on the pages whose gold changed since their last check), a few pages per transaction,
replacing the failures kept for them; as the job's starter (usecases/run_checks.py `check_part`: a reviewer, an
admin, or the system for a follow-up)."""

from __future__ import annotations

from ..jobs.context import Context
from ..usecases.outcome import Actor
from ..usecases.run_checks import check_part, pages_to_check

PAGES = 100  # pages per transaction


def check_step(ctx: Context) -> list:
    with ctx.reader() as session:
        actor = Actor.of_job(session, ctx.job_id)
        pages = pages_to_check(session, bool(ctx.params.get("follow")))
    check_pages(ctx, actor, pages)
    return []


def check_pages(ctx: Context, actor: Actor, pages: list[int]) -> int:
    """Check these pages as ``actor``, a few per transaction, under the stage "checking"; returns how many
    failed."""
    ctx.stage("checking", len(pages))
    failed = 0
    for part, session in ctx.in_parts(pages, PAGES):
        failed += check_part(session, ctx.settings, actor, part)
    return failed
