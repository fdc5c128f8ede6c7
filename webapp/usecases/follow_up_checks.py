"""The checks that follow the gold (jobs/follow_checks.py): every use case that changes a page's gold or
annotations (a save, an adjudication, a restore, a void, an import's end) calls `follow_gold`, which queues the
follow-up check job as the system actor (`CHECKER`, ``system:checks``), not as the user whose change it follows:
several users' changes make one job. Its start is audited as the system's; its step runs the checks as the
system (usecases/run_checks.py `check_part`, the one use case that accepts it)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..foundation.settings import Settings
from ..jobs.follow_checks import queue_follow_up
from ..models import Job
from .outcome import Actor

CHECKER = Actor.system("checks")
"""Who starts the follow-up checks: the audit log and the jobs list show it."""


def follow_gold(session: Session, settings: Settings) -> Job | None:
    """A new follow-up check job, audited as the system's (not committed; the face dispatches it after its
    commit), or None when one is queued already."""
    job = queue_follow_up(session, settings, CHECKER.name)
    if job is not None:
        CHECKER.record(session, Action.CHECK, f"job {job.id}", {"follow": True})
    return job
