"""Cancel a job: its queued chunks are dropped, and a running chunk stops at its next commit, keeping what
it finished. `goldtext jobs cancel` (cli/jobs_commands.py) and the job page's Cancel (views/jobs.py) call
`cancel`.

The rules: only an admin cancels (403); the job exists (404) and is still open (409 naming how it ended).
The cancel is audited; the face commits."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..jobs.records import UnknownJob, cancel_job
from ..models import Job
from .outcome import Actor, Refused, needs


@needs(ADMIN, "Only an admin cancels a job.")
def cancel(session: Session, actor: Actor, job_id: int) -> Job:
    """The cancelled job; Refused by the rules above."""
    try:
        job = cancel_job(session, job_id)
    except UnknownJob as error:
        raise Refused(404, str(error)) from None
    except ValueError as error:
        raise Refused(409, str(error)) from None
    actor.record(session, Action.JOB_CANCEL, f"job {job.id}")
    return job
