"""A database outage in the middle of a job, on both backends, with real outages: PostgreSQL reached
through a TCP forwarder that the test cuts (every connection dropped, new ones refused) and restores;
SQLite locked by an external writer for longer than the busy timeout. The job finishes once the database
is back, with no process restarted and every pair stored once; while a chunk waits after an outage, the
job shows as stalled with the reason (`goldtext jobs`, the Jobs page, the API).

The helpers are serving_fixtures.py's (real `goldtext worker` processes, bounded waits)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest
from corpora import READABILITY
from draining import drain
from forwarder import Forwarder
from outage_fixtures import hold_write_lock, postgres_forwarder, through
from serving_fixtures import (
    goldtext_env,
    redis_available,
    run_goldtext,
    wait_for,
)
from sqlalchemy import select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from workbench import make_page, sign_in

import webapp.steps as steps_module
from webapp import create_app
from webapp.jobs.broker import broker
from webapp.jobs.records import describe
from webapp.jobs.runner import Runner
from webapp.models import Extraction, Job, JobChunk
from webapp.web.db import dispose, sessions

EXTRACTORS = ("density", "justext")
PAGES = 130  # the shared corpus's pages
OUTAGE_SECONDS = 8
BROKER_DB = 12  # a Redis database of this test's own
LONG_AGO = datetime(2024, 1, 2, tzinfo=UTC)
BUSY_SECONDS = 2  # SQLITE_BUSY_SECONDS: a write waits this long for another process's lock
SQLITE_LOCK_SECONDS = 6  # longer than the busy timeout: writes fail with "database is locked"




@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("backend", ("sqlite", "postgresql"))
def test_a_job_survives_a_database_outage_in_its_middle_and_finishes_once_the_database_is_back(
    backend, databases, processes, tmp_path
):
    db = databases.with_corpus(backend)
    forwarder = postgres_forwarder() if backend == "postgresql" else None
    url = through(db.url, forwarder) if forwarder else db.url
    instance = tmp_path / "instance"
    instance.mkdir()
    env = goldtext_env(instance, url, "", job_chunk_pairs=6, job_lease_seconds=3, extract_workers=1,
                      sqlite_busy_seconds=BUSY_SECONDS)
    worker = processes.start("worker", ["worker", "--concurrency", "2"], env)
    try:
        wait_for(lambda: db.scalar("SELECT count(*) FROM worker_beat WHERE pid = :pid", pid=worker.pid), 60,
                 "the worker's first heartbeat", interval=0.2, alive=[worker])
        job_id = int(run_goldtext(["extract", "--background", *(a for n in EXTRACTORS for a in ("--extractor", n))],
                                  env).strip().splitlines()[-1])
        pairs = PAGES * len(EXTRACTORS)

        def extracting() -> bool:
            job = db.job(job_id)
            assert job["status"] not in ("done", "failed", "cancelled"), f"job ended before the outage: {job}"
            return job["stage"] == "extracting" and job["done"] >= pairs // 5

        wait_for(extracting, 180, f"job {job_id} to store a fifth of its pairs", interval=0.1, alive=[worker])
        if forwarder is not None:
            forwarder.cut()  # PostgreSQL goes away: connections dropped, new ones refused
            time.sleep(OUTAGE_SECONDS)
            forwarder.restore()
        else:
            held = threading.Event()
            locker = threading.Thread(target=hold_write_lock,
                                      args=(make_url(db.url).database, SQLITE_LOCK_SECONDS, held))
            locker.start()
            held.wait(30)
            locker.join()
        assert db.job(job_id)["status"] == "running", "the job ended during the outage (too short to test)"

        def finished() -> dict | None:
            job = db.job(job_id)
            return job if job["status"] in ("done", "failed", "cancelled") else None

        job = wait_for(finished, 150, f"job {job_id} to finish after the outage", interval=0.25, alive=[worker])
        chunks = db.rows("SELECT id, step, status, attempts, worker FROM job_chunk WHERE job_id = :job "
                         "AND NOT (status = 'done' AND attempts = 1)", job=job_id)
        assert (job["status"], job["error"]) == ("done", None), (job, chunks)
        rows = db.rows("SELECT page_id, extractor, count(*) FROM extraction WHERE extractor IN ('density', "
                       "'justext') GROUP BY page_id, extractor")
        assert len(rows) == pairs and {n for *_, n in rows} == {1}, "a pair missing or stored twice"
        assert worker.alive(), "the worker had to be restarted"
        output = worker.output()
        assert "handed back" in output or "not taken" in output, (
            "the outage never reached a step (the test cut the database at a quiet moment):\n" + worker.tail(60))
    finally:
        if forwarder is not None:
            forwarder.close()


# --- in one process: the stall is shown with its reason, and the chunk runs again -----------------------


@pytest.mark.slow
def test_a_chunk_handed_back_after_an_outage_shows_its_job_stalled_then_runs_again(tmp_path, database_url,
                                                                                    monkeypatch):
    """PostgreSQL: the forwarder is cut while the step runs, and stays cut through a heartbeat. SQLite: an
    external writer holds the lock for longer than the busy timeout while the step runs."""
    postgres = database_url.startswith("postgresql")
    forwarder = postgres_forwarder() if postgres else None
    instance = tmp_path / "instance"
    instance.mkdir()
    url = through(database_url, forwarder) if forwarder else database_url
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "DATABASE_URL": url,
                      "SECRET_KEY": "test-secret", "EXTRACT_PROCESSES": 1,
                      "SQLITE_BUSY_SECONDS": BUSY_SECONDS})
    locker = None
    runner = app.test_cli_runner()
    try:
        pages = tmp_path / "pages"
        pages.mkdir()
        for n in range(3):
            (pages / f"page{n}.html").write_text(f"<html><body><article><p>Story {n} of the quay and its "
                                                 f"ferries, told at length.</p></article></body></html>")
        assert runner.invoke(args=["import", str(pages)]).exit_code == 0
        started = runner.invoke(args=["extract", "--background", "--extractor", "density"])
        assert started.exit_code == 0, started.output
        job_id = int(started.output.strip().splitlines()[-1])
        sent: list[int] = []
        worker = Runner(app, 1, send=sent.extend)  # its heartbeat is called by hand below
        worker.beat()
        with sessions(app)() as session:
            (plan_chunk,) = session.scalars(select(JobChunk.id).where(JobChunk.job_id == job_id))
        worker.deliver(worker.run_chunk(plan_chunk) or [])
        (pairs_chunk,) = sent
        sent.clear()

        real_pairs = steps_module.STEPS["pairs"]

        def pairs_in_an_outage(ctx):
            nonlocal locker
            if forwarder is not None:
                forwarder.cut()  # PostgreSQL goes away while the step runs
            else:
                held = threading.Event()
                locker = threading.Thread(target=hold_write_lock,
                                          args=(make_url(url).database, SQLITE_LOCK_SECONDS, held))
                locker.start()
                held.wait(30)
            return real_pairs(ctx)

        monkeypatch.setitem(steps_module.STEPS, "pairs", pairs_in_an_outage)
        assert worker.run_chunk(pairs_chunk) == []  # handed back, not failed, nothing escaped
        monkeypatch.setitem(steps_module.STEPS, "pairs", real_pairs)
        if forwarder is not None:
            assert sent == []  # the hand-back could not be written either: the database is still out
            with pytest.raises(OperationalError):  # the heartbeat cannot reach the database either
                worker.beat()
            forwarder.restore()
        else:
            locker.join()  # the external writer lets go of the lock (the hand-back may have waited it out)
        worker.beat()  # the first heartbeat that reaches the database hands the chunk back, once
        assert sent == [pairs_chunk]

        with sessions(app)() as session:
            chunk = session.get(JobChunk, pairs_chunk)
            assert (chunk.status, chunk.worker, chunk.attempts) == ("queued", None, 0)
            job = session.get(Job, job_id)
            stalled = describe(session, job)["stalled"]
        assert stalled.startswith(f"chunk {pairs_chunk} was handed back at "), stalled
        assert "after a database error in its pairs step (OperationalError: " in stalled, stalled
        assert postgres or "database is locked" in stalled, stalled
        assert stalled.endswith("it runs again once the database answers")
        listing = runner.invoke(args=["jobs"]).output
        assert f"stalled: chunk {pairs_chunk} was handed back" in listing, listing
        client = app.test_client()
        assert client.get(f"/api/jobs/{job_id}").get_json()["stalled"] == stalled
        assert f"chunk {pairs_chunk} was handed back" in client.get(f"/jobs/{job_id}").get_data(as_text=True)

        worker.deliver(worker.run_chunk(pairs_chunk) or [])  # the chunk runs again, now the database answers
        worker.close()
        drain(app)
        with sessions(app)() as session:
            job = session.get(Job, job_id)
            assert (job.status, describe(session, job)["stalled"]) == ("done", None)
            assert len(session.scalars(select(Extraction.id).where(Extraction.extractor == "density")).all()) == 3
    finally:
        if forwarder is not None:
            forwarder.close()
        if locker is not None:
            locker.join()
        dispose(app)


# --- a save while another process holds SQLite's write lock ---------------------------------------------


@pytest.mark.settings(SQLITE_BUSY_SECONDS=BUSY_SECONDS)
def test_a_save_while_an_external_writer_holds_sqlite_s_lock_answers_503_with_retry_after_then_applies_once(
    app, client, session
):
    if session.get_bind().dialect.name != "sqlite":
        pytest.skip("SQLite's write lock")
    # every connection waits the busy timeout the settings give, not SQLite's default
    assert session.execute(text("PRAGMA busy_timeout")).scalar() == BUSY_SECONDS * 1000
    page_id = make_page(session).id
    session.commit()
    token = sign_in(client)
    save = {"text": "Gold kept", "type": "article", "status": "done", "version": 0, "client_save_id": "s1"}
    held, released = threading.Event(), threading.Event()
    locker = threading.Thread(target=hold_write_lock, args=(
        make_url(app.config["DATABASE_URL"]).database, SQLITE_LOCK_SECONDS, held, released))
    locker.start()
    try:
        held.wait(30)
        response = client.post(f"/api/pages/{page_id}/gold", json=save, headers={"X-CSRF-Token": token})
        assert response.status_code == 503, response.get_data(as_text=True)
        assert response.headers["Retry-After"] == "5"
        assert response.json["message"] == (
            "The database is busy or unreachable (OperationalError: database is locked), so nothing was "
            "changed. Try again in 5 seconds.")
    finally:
        released.set()
        locker.join()
    assert client.get(f"/api/pages/{page_id}/gold").json["version"] == 0  # nothing was stored
    again = client.post(f"/api/pages/{page_id}/gold", json=save, headers={"X-CSRF-Token": token})
    assert (again.status_code, again.json["version"]) == (200, 1)


# --- a broker outage --------------------------------------------------------------------------------


def test_chunks_the_broker_cannot_take_wait_in_the_database_shown_as_the_stall_then_are_sent_again(
    tmp_path, database_url
):
    """Redis behind the forwarder, cut as the plan step's follow-up chunks are sent."""
    if not redis_available():
        pytest.fail("Redis is not reachable on 127.0.0.1:6379")
    forwarder = Forwarder(("127.0.0.1", 6379))
    instance = tmp_path / "instance"
    instance.mkdir()
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "DATABASE_URL": database_url,
                      "SECRET_KEY": "test-secret", "EXTRACT_PROCESSES": 1,
                      "BROKER_URL": f"redis://127.0.0.1:{forwarder.port}/{BROKER_DB}"})
    cli = app.test_cli_runner()
    try:
        pages = tmp_path / "pages"
        pages.mkdir()
        (pages / "page.html").write_text("<html><body><article><p>The quay reopens.</p></article></body></html>")
        assert cli.invoke(args=["import", str(pages)]).exit_code == 0
        job_id = int(cli.invoke(args=["extract", "--background", "--extractor", "density"]).output.split()[-1])
        found = broker(app)
        found.huey.flush()
        worker = Runner(app, 1, send=found.send, broker_idle=found.idle)
        worker.beat()
        with sessions(app)() as session:
            (plan_chunk,) = session.scalars(select(JobChunk.id).where(JobChunk.job_id == job_id))
        follow = worker.run_chunk(plan_chunk)
        forwarder.cut()  # Redis goes away before the follow-up chunk is sent
        worker.deliver(follow)  # nothing escapes
        worker.beat()  # the heartbeat still renews and reaps with the broker out
        with sessions(app)() as session:
            stalled = describe(session, session.get(Job, job_id))["stalled"]
        assert stalled.startswith(f"chunk {follow[0]} waits since "), stalled
        assert "for the broker (ConnectionError: " in stalled and stalled.endswith("once the broker answers")

        forwarder.restore()
        with sessions(app)() as session:  # as if the chunk's grace had passed
            session.execute(update(JobChunk).where(JobChunk.id == follow[0]).values(lease_until=LONG_AGO))
            session.commit()
        worker.beat()  # the broker is idle again: the reaper sends the waiting chunk
        assert found.huey.pending_count() == 1
        assert worker.run_chunk(follow[0]) is not None  # the message's chunk runs
        drain(app)
        with sessions(app)() as session:
            job = session.get(Job, job_id)
            assert (job.status, describe(session, job)["stalled"]) == ("done", None)
        worker.close()
    finally:
        forwarder.restore()  # to empty this test's queue
        broker(app).huey.flush()
        forwarder.close()
        dispose(app)


def test_a_save_while_postgresql_is_down_answers_503_with_retry_after_then_applies_once(tmp_path, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("the forwarder stands in front of PostgreSQL (SQLite's case is the test above)")
    forwarder = postgres_forwarder()
    instance = tmp_path / "instance"
    instance.mkdir()
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "SECRET_KEY": "test-secret",
                      "DATABASE_URL": through(database_url, forwarder)})
    try:
        with sessions(app)() as session:
            page_id = make_page(session).id
            session.commit()
        client = app.test_client()
        token = sign_in(client)
        save = {"text": "Gold kept", "type": "article", "status": "done", "version": 0, "client_save_id": "s1"}
        forwarder.cut()
        response = client.post(f"/api/pages/{page_id}/gold", json=save, headers={"X-CSRF-Token": token})
        assert (response.status_code, response.headers["Retry-After"]) == (503, "5"), response.get_data(as_text=True)
        assert response.json["message"].startswith("The database is busy or unreachable (OperationalError: ")
        health = client.get("/health")
        assert health.status_code == 503 and health.json["database"].startswith("unreachable: OperationalError")
        forwarder.restore()
        again = client.post(f"/api/pages/{page_id}/gold", json=save, headers={"X-CSRF-Token": token})
        assert (again.status_code, again.json["version"]) == (200, 1)
    finally:
        forwarder.close()
        dispose(app)
