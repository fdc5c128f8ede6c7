"""Run the gold checks again (scoring/gold_checks.py; their thresholds are the CHECK_* settings): as a job
from the Checks page's **Run the checks** (views/checks.py, `run_checks`), or at once in the command's
process (`goldtext check`, cli/checks_commands.py, `check_now`). Either keeps the failures for the Checks
page and the queue's filter. A check job's step (steps/check_step.py), and an extraction's last step after it
scores, check a part of the pages at a time with `check_part`, as the job's starter: the user who ran them, or the
system for the checks that follow the gold (usecases/follow_up_checks.py).

The rules: a reviewer or an admin runs them (403), and the system runs the follow-up checks; the start is
audited (`check`, with the job or with the pages checked and failing). The face commits, then dispatches a job."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import REVIEWER
from ..foundation.settings import Settings
from ..jobs.records import create_job
from ..models import Job
from ..results.gold_check_runs import Failed, checked_pages, stale_pages
from ..results.gold_check_runs import run_checks as check_pages
from ..scoring.gold_checks import Thresholds
from .outcome import Actor, needs

ONLY_LEADS = "Only a reviewer or an admin runs the checks."


@needs(REVIEWER, ONLY_LEADS)
def run_checks(session: Session, settings: Settings, actor: Actor) -> Job:
    """The queued check job of every page (flushed)."""
    job = create_job(session, "check", {}, actor.name, settings.lease.until())
    actor.record(session, Action.CHECK, f"job {job.id}")
    return job


@needs(REVIEWER, ONLY_LEADS)
def check_now(session: Session, settings: Settings, actor: Actor, thresholds: Thresholds,
              page_ids: Sequence[int] | None = None) -> tuple[int, list[Failed]]:
    """Check these pages (every page the checks cover by default) here and now: (pages checked, the failing)."""
    pages, failing = check_pages(session, settings.registry, settings.taxonomy, thresholds, page_ids)
    actor.record(session, Action.CHECK, "pages", {"pages": pages, "failing": len(failing),
                                                  "asked": list(page_ids) if page_ids else None})
    return pages, failing


def pages_to_check(session: Session, follow: bool) -> list[int]:
    """The pages a check job checks: those whose gold or annotations changed since their last check (a
    follow-up job), else every page the checks cover."""
    return stale_pages(session) if follow else checked_pages(session)


@needs(REVIEWER, ONLY_LEADS, system=True)
def check_part(session: Session, settings: Settings, actor: Actor, page_ids: Sequence[int]) -> int:
    """Check these pages (a part of a job's), replacing the failures kept for them; returns how many fail. The
    job's start was audited; the face commits."""
    return len(check_pages(session, settings.registry, settings.taxonomy, settings.checks, page_ids)[1])
