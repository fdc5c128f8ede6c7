"""Each resource's outward shape is built once (webapp/web/outputs/): the JSON API and the command line's
`--format json` give the same object for it, on the real app and database."""

from __future__ import annotations

import json

import pytest
from serving_fixtures import free_port

from webapp.foundation.settings import Lease
from webapp.jobs.records import create_job
from webapp.models import WorkerBeat, utcnow

LEASE = Lease(seconds=30)


def test_a_job_is_the_same_object_in_the_api_and_in_goldtext_jobs(client, cli, session):
    job = create_job(session, "export", {"request": {"fmt": "jsonl"}, "predictions": {}}, "Ann", LEASE.until())
    session.commit()
    (listed,) = json.loads(cli("jobs", "--format", "json"))
    assert listed == client.get(f"/api/jobs/{job.id}").get_json()
    assert (listed["id"], listed["kind"], listed["status"], listed["started_by"]) == (job.id, "export", "queued", "Ann")


@pytest.mark.settings(BROKER_URL=f"redis://127.0.0.1:{free_port()}/0")
def test_goldtext_jobs_names_a_broker_outage_as_the_api_does(client, cli, session):
    """The documented shape (docs/api.md: "with a broker outage as the stall"): the command once left it out."""
    job = create_job(session, "export", {"request": {"fmt": "jsonl"}, "predictions": {}}, "Ann", LEASE.until())
    session.add(WorkerBeat(name="idle-worker", host="box", pid=1, concurrency=1, seen_at=utcnow()))
    session.commit()
    (listed,) = json.loads(cli("jobs", "--format", "json"))
    assert listed == client.get(f"/api/jobs/{job.id}").get_json()
    assert listed["stalled"].startswith("the broker (redis://127.0.0.1:") and "is unreachable" in listed["stalled"]
