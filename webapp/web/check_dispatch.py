"""After the commit of a change of gold: the check job it queued sent to the workers (jobs/follow_checks.py)."""

from __future__ import annotations

from typing import Any

from flask import current_app

from ..jobs.start import dispatch
from ..models import Job


def follow(db_session: Any, job: Job | None) -> None:
    """After the commit of a change of gold: send the check job it queued, if any, to the workers
    (jobs/follow_checks.py; it reaches them CHECK_DELAY_SECONDS later)."""
    if job is not None:
        dispatch(current_app, db_session, job)
