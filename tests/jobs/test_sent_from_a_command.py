"""A job a command sends in its app context (`goldtext import` sends the checks of the imported gold through
Flask's current_app) runs on the embedded worker that `goldtext run` and `goldtext demo` start afterwards in the
same process: the worker's threads run outside any app context."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select

from webapp.jobs.records import ENDED
from webapp.jobs.workers import EmbeddedWorker
from webapp.models import Job

DEMO_CORPUS = "webapp/demo_corpus/pages"


def status(session, job_id: int) -> str:
    """The job's status, read in a transaction of its own (the test's session takes SQLite's write lock)."""
    try:
        return session.get(Job, job_id).status
    finally:
        session.rollback()


@pytest.mark.settings(CHECK_DELAY_SECONDS=0)
def test_the_checks_an_import_sends_run_on_the_embedded_worker_of_the_same_process(app, cli, session):
    cli("import", DEMO_CORPUS)
    (check,) = session.scalars(select(Job.id).where(Job.kind == "check")).all()
    assert status(session, check) == "queued"
    worker = EmbeddedWorker(app, 1)
    try:
        deadline = time.monotonic() + 60
        while status(session, check) not in ENDED and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        worker.stop()
    assert status(session, check) == "done"
