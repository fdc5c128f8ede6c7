"""Each resource's outward shape is built once (webapp/web/outputs/): the JSON API and the command line's
`--format json` give the same object for it, on the real app and database."""

from __future__ import annotations

import json

import pytest
from serving_fixtures import free_port
from workbench import add_gold, make_page

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


def test_the_checks_report_is_the_same_object_in_the_api_and_in_goldtext_check(client, runner, session):
    """A page whose gold keeps markup fails a check: the command lists it, and the API answers what it kept."""
    page = make_page(session, "<html><body><p>The ferry sails at nine.</p></body></html>", url="https://a.example/1")
    add_gold(session, page, text="<div>The ferry sails at nine.</div>", page_type="article", status="done",
             author="Ann")
    make_page(session, "<html><body><p>Closed today.</p></body></html>", url="https://a.example/2")
    page_id = page.id
    session.commit()
    printed = json.loads(runner.invoke(args=["check", "--format", "json"]).output)
    answered = client.get("/api/checks").get_json()
    assert answered.pop("stale") == []  # every checked page was checked since its last change
    assert printed == answered
    assert [failing["page_id"] for failing in printed["failing"]] == [page_id]
