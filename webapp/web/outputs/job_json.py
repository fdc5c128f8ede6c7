"""A job as every face shows it: `GET /api/jobs/ID`, the jobs pages, an upload's and a capture's report and
`goldtext jobs --format json` (docs/api.md "Jobs and health")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy.orm import Session

from ...jobs.broker import broker, describe_broker
from ...jobs.health import broker_reachable
from ...jobs.records import describe
from ...models import Job
from ..db import flask_app


def jobs_output(session: Session, jobs: Iterable[Job]) -> list[dict[str, Any]]:
    """The jobs as `jobs.records.describe` gives them, an open one that no worker is busy with stalled by a
    broker outage when the broker does not answer (its chunks wait in the database until it does): asked
    once, and only when such a job is shown."""
    rows = [describe(session, job) for job in jobs]
    waiting = [row for row in rows if not row["finished"] and not row["busy"]]
    if not waiting:
        return rows
    app = flask_app()
    state = broker_reachable(lambda: broker(app))
    if state != "ok":
        for row in waiting:
            row["stalled"] = (f"the broker ({describe_broker(app)}) is {state}: the job's chunks wait in the "
                              "database and are sent once it answers")
    return rows


def job_output(session: Session, job: Job) -> dict[str, Any]:
    """One job as `jobs_output` gives it."""
    return jobs_output(session, [job])[0]
