"""The job system on the real database (SQLite by default, PostgreSQL with GOLDTEXT_TEST_DATABASE_URL):
leases and the reaper with several named workers, extraction jobs that survive a killed worker,
cancelling, `goldtext jobs`, the progress endpoint, /health, and failing steps.

Workers are the real code: `leases` functions called with worker names, `Runner.run_chunk` for one
chunk, and `run_jobs()` (tests/draining.py `drain`) for every open job. Extractors are real and cheap
(whole-page, density) on three small pages. A lapsed lease is made by setting `lease_until` in the
past, never by waiting.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from app_settings import reconfigure
from serving_fixtures import free_port
from sqlalchemy import func, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

import webapp.steps as steps_module
from webapp import create_app
from webapp.cli.actor import cli_actor
from webapp.extractors.process_pool import ExtractorPool
from webapp.foundation.engine import make_engine
from webapp.foundation.settings import Lease, SettingError, settings_of
from webapp.jobs.context import Context, Stopped
from webapp.jobs.leases import claim, complete, holds, reap
from webapp.jobs.records import create_job, describe
from webapp.jobs.runner import Runner
from webapp.models import Extraction, Job, JobChunk, JobFile, Page, WorkerBeat, utcnow
from webapp.steps.extraction_steps import pairs_step
from webapp.web.db import database

PARAGRAPH = ("The harbour board met on Tuesday to settle the timetable of the night ferry, which will sail "
             "again from Monday after a winter of repairs to its engines, its galley and its cabins. ")
STORY = ("<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav><article>"
         "<h1>{title}</h1>" + "".join(f"<p>{PARAGRAPH}Paragraph {n}.</p>" for n in range(3))
         + "</article><footer>Harbour Gazette</footer></body></html>")
PAGES = {
    "ferry.html": STORY.format(title="Night ferry returns"),
    "quay.html": STORY.format(title="The quay is rebuilt"),
    "short.html": "<html><body><p>Closed today.</p></body></html>",
}
CHEAP = ("whole-page", "density")
PAIRS = {(page, name) for page in ("ferry", "quay", "short") for name in CHEAP}
LEASE = Lease(seconds=30.0, max_attempts=3)
LAPSED = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
NO_WORKER = "no worker is running: start one with `goldtext worker` (or `goldtext run`)"


# --- fixtures and helpers ------------------------------------------------------------------------


@pytest.fixture
def cli(app, runner, session):
    """Run `goldtext ARGS`; the test's session lets go of the database first (SQLite's BEGIN IMMEDIATE)."""
    reconfigure(app, EXTRACT_PROCESSES=1)

    def invoke(*args: str):
        session.rollback()
        return runner.invoke(args=list(args))

    return invoke


def succeed(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def pages(cli, session, tmp_path) -> dict[str, int]:
    """Three small pages imported with `goldtext import`: file stem -> page id."""
    root = tmp_path / "pages"
    root.mkdir()
    for name, content in PAGES.items():
        (root / name).write_text(content)
    assert "3 imported" in succeed(cli("import", str(root)))
    found = {name.removesuffix(".html"): page_id
             for name, page_id in session.execute(select(Page.source_name, Page.id))}
    session.rollback()
    return found


def background(cli, *names: str) -> int:
    """`goldtext extract --background --extractor NAME...`: the job id its last line prints."""
    output = succeed(cli("extract", "--background", *(arg for name in names for arg in ("--extractor", name))))
    return int(output.splitlines()[-1])


def fresh(session: Session, model, ident):
    """The row as the database holds it now, detached: reading its attributes never opens a transaction
    (the session lets go of the database, which SQLite's next writer needs)."""
    found = session.get(model, ident, populate_existing=True)
    session.expunge(found)
    session.rollback()
    return found


def chunks_of(session: Session, job_id: int) -> list[tuple[str, str]]:
    rows = session.execute(select(JobChunk.step, JobChunk.status).where(JobChunk.job_id == job_id)
                           .order_by(JobChunk.id)).all()
    session.rollback()
    return [tuple(row) for row in rows]


def chunk_ids(session: Session, job_id: int, step: str | None = None) -> list[int]:
    query = select(JobChunk.id).where(JobChunk.job_id == job_id).order_by(JobChunk.id)
    if step is not None:
        query = query.where(JobChunk.step == step)
    found = list(session.scalars(query))
    session.rollback()
    return found


def extraction_pairs(session: Session) -> list[tuple[str, str]]:
    """(page stem, extractor) of every stored extraction, repeated if stored twice."""
    rows = session.execute(select(Page.source_name, Extraction.extractor).join(Extraction.page)).all()
    session.rollback()
    return sorted((name.removesuffix(".html"), extractor) for name, extractor in rows)


def count(session: Session, model) -> int:
    found = session.scalar(select(func.count()).select_from(model))
    session.rollback()
    return found


def lapse(session: Session, chunk_id: int, when: datetime = LAPSED) -> None:
    """The chunk's holder stopped renewing its lease (killed): its lease ended at `when`."""
    session.execute(update(JobChunk).where(JobChunk.id == chunk_id).values(lease_until=when))
    session.commit()


def pairs_job(session: Session, works: list, params: dict | None = None) -> int:
    """An extraction job whose chunks are `pairs` chunks with these works (as its plan would make)."""
    job = create_job(session, "extract", params or {"extractors": list(CHEAP)}, "tests", LEASE.until(), step="pairs",
                     works=works)
    session.commit()
    return job.id


def run_plan(app, session, job_id: int) -> int:
    """Run the job's plan chunk with a worker of its own; returns the one pairs chunk it queues."""
    planner = Runner(app, name="planner")
    try:
        (plan_chunk,) = chunk_ids(session, job_id, "plan")
        (pairs_chunk,) = planner.run_chunk(plan_chunk)
    finally:
        planner.close()
    return pairs_chunk


# --- leases --------------------------------------------------------------------------------------


def test_a_chunk_is_claimed_by_one_worker_only_while_its_lease_holds(session):
    job_id = pairs_job(session, [[[1, "density"]]])
    (chunk_id,) = chunk_ids(session, job_id)

    taken = claim(session, chunk_id, "worker-a", LEASE)
    session.commit()
    assert (taken.id, taken.status, taken.worker, taken.attempts) == (chunk_id, "running", "worker-a", 1)
    assert fresh(session, Job, job_id).status == "running"

    assert claim(session, chunk_id, "worker-b", LEASE) is None
    assert claim(session, chunk_id, "worker-a", LEASE) is None  # not even twice by its holder
    session.commit()
    chunk = fresh(session, JobChunk, chunk_id)
    assert (chunk.status, chunk.worker, chunk.attempts) == ("running", "worker-a", 1)
    assert (holds(session, chunk_id, "worker-a"), holds(session, chunk_id, "worker-b")) == (True, False)
    assert reap(session, LEASE, broker_idle=False) == []  # a lease that holds is left alone
    session.rollback()


def test_a_lapsed_lease_lets_another_worker_take_over_and_the_reaper_requeues_the_chunk(session):
    job_id = pairs_job(session, [[[1, "density"]]])
    (chunk_id,) = chunk_ids(session, job_id)
    claim(session, chunk_id, "worker-a", LEASE)
    session.commit()

    lapse(session, chunk_id)
    # not by its own holder (its heartbeat was held up while another of its threads still runs it) ...
    assert claim(session, chunk_id, "worker-a", LEASE) is None
    # ... but by any other worker
    taken = claim(session, chunk_id, "worker-b", LEASE)
    session.commit()
    assert (taken.status, taken.worker, taken.attempts) == ("running", "worker-b", 2)
    assert (holds(session, chunk_id, "worker-a"), holds(session, chunk_id, "worker-b")) == (False, True)
    session.rollback()

    # the worker that lost the chunk wakes up and finishes: it completes nothing
    assert complete(session, chunk_id, "worker-a", [("pairs", [[2, "density"]])], "derive", LEASE) == []
    session.commit()
    chunk = fresh(session, JobChunk, chunk_id)
    assert (chunk.status, chunk.worker) == ("running", "worker-b")
    assert chunks_of(session, job_id) == [("pairs", "running")]

    lapse(session, chunk_id)
    assert reap(session, LEASE, broker_idle=False) == [chunk_id]
    session.commit()
    chunk = fresh(session, JobChunk, chunk_id)
    assert (chunk.status, chunk.worker, chunk.attempts) == ("queued", None, 2)
    assert reap(session, LEASE, broker_idle=False) == []  # handed back once, not again
    session.commit()

    taken = claim(session, chunk_id, "worker-c", LEASE)
    session.commit()
    assert (taken.status, taken.worker, taken.attempts) == ("running", "worker-c", 3)


@pytest.mark.settings(JOB_MAX_ATTEMPTS=2)
def test_a_chunk_whose_workers_all_stopped_fails_its_job_after_job_max_attempts(app, session):
    lease = settings_of(app).lease
    assert lease == Lease(30.0, 2)
    job_id = pairs_job(session, [[[1, "density"]], [[2, "density"]]])
    first, second = chunk_ids(session, job_id)

    claim(session, first, "worker-a", lease)
    session.commit()
    lapse(session, first)
    assert reap(session, lease, broker_idle=False) == [first]
    session.commit()
    claim(session, first, "worker-b", lease)
    session.commit()
    lapse(session, first)
    assert claim(session, first, "worker-c", lease) is None  # two attempts used up
    session.rollback()

    assert reap(session, lease, broker_idle=False) == []
    session.commit()
    job = fresh(session, Job, job_id)
    assert job.status == "failed" and job.finished_at is not None
    assert job.error == (f"pairs: chunk {first} was taken by 2 workers and each stopped before finishing it "
                         f"(killed or crashed; the last was worker-b)")
    assert chunks_of(session, job_id) == [("pairs", "failed"), ("pairs", "cancelled")]
    assert claim(session, second, "worker-c", lease) is None  # the job is over
    session.rollback()


def test_completing_the_last_chunk_adds_the_final_derive_step_exactly_once_then_the_job_is_done(session):
    job_id = pairs_job(session, [[[1, "density"]], [[2, "density"]]])
    first, second = chunk_ids(session, job_id)
    claim(session, first, "worker-a", LEASE)
    claim(session, second, "worker-b", LEASE)
    session.commit()

    # a chunk that hands on work: the job is not over while that work is open
    (more,) = complete(session, first, "worker-a", [("pairs", [[3, "density"]])], "derive", LEASE)
    session.commit()
    assert complete(session, second, "worker-a", [], "derive", LEASE) == []  # not worker-a's chunk
    assert complete(session, second, "worker-b", [], "derive", LEASE) == []  # `more` is still open
    session.commit()
    assert chunks_of(session, job_id) == [("pairs", "done"), ("pairs", "done"), ("pairs", "queued")]

    claim(session, more, "worker-a", LEASE)
    session.commit()
    (derive,) = complete(session, more, "worker-a", [], "derive", LEASE)
    session.commit()
    assert complete(session, more, "worker-a", [], "derive", LEASE) == []  # completing again adds nothing
    session.commit()
    assert chunks_of(session, job_id) == [("pairs", "done")] * 3 + [("derive", "queued")]
    assert chunk_ids(session, job_id, "derive") == [derive]
    assert fresh(session, Job, job_id).status == "running"

    claim(session, derive, "worker-b", LEASE)
    session.commit()
    assert complete(session, derive, "worker-b", [], "derive", LEASE) == []
    session.commit()
    job = fresh(session, Job, job_id)
    assert (job.status, job.finished_at is not None) == ("done", True)
    assert chunks_of(session, job_id) == [("pairs", "done")] * 3 + [("derive", "done")]


# --- extraction jobs -----------------------------------------------------------------------------


def test_an_extraction_job_stores_every_page_and_extractor_pair_exactly_once(cli, session, pages, run_jobs):
    job_id = background(cli, *CHEAP)
    assert fresh(session, Job, job_id).status == "queued"
    assert count(session, Extraction) == 0  # nothing runs until a worker does

    assert run_jobs() == [job_id]
    assert extraction_pairs(session) == sorted(PAIRS)
    job = fresh(session, Job, job_id)
    assert (job.status, job.error, job.errors) == ("done", None, 0)
    assert (job.result["extracted"], job.result["errors"], job.result["measured"]) == (6, 0, 3)
    assert chunks_of(session, job_id) == [("plan", "done"), ("pairs", "done"), ("derive", "done")]

    again = background(cli, *CHEAP)
    assert run_jobs() == [again]
    assert fresh(session, Job, again).result["extracted"] == 0
    assert chunks_of(session, again) == [("plan", "done"), ("derive", "done")]
    assert extraction_pairs(session) == sorted(PAIRS)


def test_a_scoring_step_run_again_after_its_worker_was_killed_keeps_the_extraction_counts(
    app, cli, session, pages, run_jobs
):
    job_id = background(cli, *CHEAP)
    assert run_jobs() == [job_id]
    (derive,) = chunk_ids(session, job_id, "derive")
    # the worker that ran the scoring step is killed before its end: the step runs again elsewhere
    session.execute(update(Job).where(Job.id == job_id).values(status="running", finished_at=None))
    session.execute(update(JobChunk).where(JobChunk.id == derive).values(status="running", worker="killed"))
    session.commit()
    lapse(session, derive)
    survivor = Runner(app, name="survivor")
    try:
        assert survivor.run_chunk(derive) == []
    finally:
        survivor.close()
    job = fresh(session, Job, job_id)
    assert job.status == "done"
    assert (job.result["extracted"], job.result["errors"], job.result["measured"]) == (6, 0, 3)


def test_a_chunk_run_again_after_its_worker_was_killed_computes_only_the_missing_pairs(
    app, cli, session, pages, run_jobs
):
    job_id = background(cli, *CHEAP)
    pairs_chunk = run_plan(app, session, job_id)
    job = fresh(session, Job, job_id)
    assert (job.stage, job.done, job.total) == ("extracting", 0, 6)
    work = fresh(session, JobChunk, pairs_chunk).work
    assert sorted((page_id, name) for page_id, name in work) == sorted(
        (pages[page], name) for page, name in PAIRS)

    # a worker claims the chunk, stores two of its six pairs, and is killed (its lease lapses)
    claim(session, pairs_chunk, "killed-worker", settings_of(app).lease)
    session.commit()
    db = database(app)
    with app.app_context(), ExtractorPool(1, 60.0) as pool:
        ctx = Context(app, db.writer, db.reader, job_id, pairs_chunk, "killed-worker", "extract",
                      dict(job.params), work[:2], lambda: pool)
        assert pairs_step(ctx) == []
    first = {(row.page_id, row.extractor): (row.id, row.created_at) for row in session.scalars(select(Extraction))}
    session.rollback()
    assert sorted(first) == sorted((page_id, name) for page_id, name in work[:2])
    assert fresh(session, Job, job_id).done == 2
    lapse(session, pairs_chunk)

    survivor = Runner(app, name="survivor")
    try:
        (derive,) = survivor.run_chunk(pairs_chunk)
    finally:
        survivor.close()
    chunk = fresh(session, JobChunk, pairs_chunk)
    assert (chunk.status, chunk.worker, chunk.attempts) == ("done", "survivor", 2)
    job = fresh(session, Job, job_id)
    assert (job.stage, job.done, job.total, job.errors) == ("extracting", 6, 6, 0)  # 2 + the 4 missing
    assert extraction_pairs(session) == sorted(PAIRS)
    kept = {(row.page_id, row.extractor): (row.id, row.created_at) for row in session.scalars(
        select(Extraction).where(Extraction.id.in_([ident for ident, _ in first.values()])))}
    session.rollback()
    assert kept == first  # the killed worker's extractions were not computed again

    assert chunk_ids(session, job_id, "derive") == [derive]
    assert run_jobs() == [job_id]
    job = fresh(session, Job, job_id)
    assert (job.status, job.result["extracted"], job.result["errors"]) == ("done", 6, 0)
    assert count(session, Extraction) == 6


# --- cancel --------------------------------------------------------------------------------------


def test_cancelling_a_queued_job_cancels_its_chunks_and_the_workers_compute_nothing(
    app, cli, session, pages, run_jobs
):
    job_id = background(cli, *CHEAP)
    assert succeed(cli("jobs", "cancel", str(job_id))) == f"job {job_id} cancelled (0 done of ?)\n"
    job = fresh(session, Job, job_id)
    assert (job.status, job.finished_at is not None) == ("cancelled", True)
    assert chunks_of(session, job_id) == [("plan", "cancelled")]

    assert run_jobs() == []
    worker = Runner(app, name="eager")
    try:
        assert worker.run_chunk(chunk_ids(session, job_id)[0]) is None  # a late message claims nothing
    finally:
        worker.close()
    assert chunks_of(session, job_id) == [("plan", "cancelled")]
    assert count(session, Extraction) == 0
    assert fresh(session, Job, job_id).status == "cancelled"


def test_a_running_chunk_of_a_cancelled_job_stores_nothing_more(app, cli, session, pages):
    job_id = background(cli, *CHEAP)
    pairs_chunk = run_plan(app, session, job_id)
    claim(session, pairs_chunk, "busy-worker", settings_of(app).lease)
    session.commit()
    assert succeed(cli("jobs", "cancel", str(job_id))) == f"job {job_id} cancelled (0 done of 6)\n"
    job = fresh(session, Job, job_id)
    work = fresh(session, JobChunk, pairs_chunk).work
    db = database(app)
    with app.app_context(), ExtractorPool(1, 60.0) as pool:
        ctx = Context(app, db.writer, db.reader, job_id, pairs_chunk, "busy-worker", "extract",
                      dict(job.params), work, lambda: pool)
        with pytest.raises(Stopped):
            pairs_step(ctx)
    assert count(session, Extraction) == 0
    assert fresh(session, Job, job_id).done == 0


def test_a_worker_stopped_under_a_running_step_gives_its_chunk_back_and_fails_nothing(
    app, cli, session, pages, run_jobs, monkeypatch
):
    """SIGTERM to `goldtext worker` closes its extractor pool while a step still uses it: the job goes on
    with another worker, it does not fail with "The Pool is not active"."""
    job_id = background(cli, *CHEAP)
    pairs_chunk = run_plan(app, session, job_id)
    worker = Runner(app, name="stopping")
    real_pairs = steps_module.STEPS["pairs"]

    def pairs_while_stopping(ctx):
        pool = ctx.pool()  # the step's pool, as it takes it when it starts
        worker.close()  # the worker stops under the step: its chunks go back, its pool is closed
        ctx.pool = lambda: pool
        return real_pairs(ctx)

    monkeypatch.setitem(steps_module.STEPS, "pairs", pairs_while_stopping)
    assert worker.run_chunk(pairs_chunk) == []
    monkeypatch.setitem(steps_module.STEPS, "pairs", real_pairs)
    job, chunk = fresh(session, Job, job_id), fresh(session, JobChunk, pairs_chunk)
    assert (job.status, job.error, chunk.status, chunk.worker) == ("running", None, "queued", None)
    run_jobs()
    assert fresh(session, Job, job_id).status == "done"
    assert extraction_pairs(session) == sorted(PAIRS)


def test_cancelling_a_finished_job_or_an_unknown_one_is_an_error(cli, session, pages, run_jobs):
    job_id = background(cli, "whole-page")
    run_jobs()
    refused = cli("jobs", "cancel", str(job_id))
    assert (refused.exit_code, refused.output) == (1, f"Error: job {job_id} has already finished\n")
    assert fresh(session, Job, job_id).status == "done"

    unknown = cli("jobs", "cancel", "99")
    assert (unknown.exit_code, unknown.output) == (1, "Error: no job 99\n")


# --- goldtext jobs -------------------------------------------------------------------------------


def test_jobs_json_lists_every_job_newest_first_and_status_filters(cli, session, pages, run_jobs):
    done = background(cli, "whole-page")
    assert run_jobs() == [done]
    queued = background(cli, "density")
    cancelled = background(cli, "density")
    succeed(cli("jobs", "cancel", str(cancelled)))

    rows = json.loads(succeed(cli("jobs", "--format", "json")))
    keys = ("id", "kind", "status", "done", "total", "error", "finished")
    assert [{key: row[key] for key in keys} for row in rows] == [
        {"id": cancelled, "kind": "extract", "status": "cancelled", "done": 0, "total": None, "error": None,
         "finished": True},
        {"id": queued, "kind": "extract", "status": "queued", "done": 0, "total": None, "error": None,
         "finished": False},
        {"id": done, "kind": "extract", "status": "done", "done": 3, "total": 3, "error": None,
         "finished": True},
    ]
    assert rows[2]["result"]["extracted"] == 3

    def ids(*args: str) -> list[int]:
        return [row["id"] for row in json.loads(succeed(cli("jobs", "--format", "json", *args)))]

    assert ids("--status", "queued") == [queued]
    assert ids("--status", "done") == [done]
    assert ids("--status", "failed") == []
    assert ids("--limit", "2") == [cancelled, queued]
    assert cli("jobs", "--status", "stuck").exit_code == 2


def test_a_worker_busy_with_a_long_step_is_busy_not_stalled_while_its_lease_holds(app, client, session):
    """Scoring or a check can hold the worker past its heartbeat's silence: while its chunk's lease holds,
    the job page says what it is busy with, not that no worker is running; once the lease lapses, stalled."""
    job_id = pairs_job(session, [[[1, "density"]]])
    (chunk_id,) = chunk_ids(session, job_id)
    session.add(WorkerBeat(name="busy-worker", host="box", pid=1, concurrency=1, seen_at=utcnow()))
    claim(session, chunk_id, "busy-worker", LEASE)
    session.commit()
    later = utcnow() + timedelta(seconds=25)  # the heartbeat is 25 s late: silent, the lease (30 s) holds
    row = describe(session, fresh(session, Job, job_id), later)
    assert row["stalled"] is None
    assert row["busy"] == f"worker busy-worker is running its pairs step (chunk {chunk_id})"
    session.execute(update(WorkerBeat).values(seen_at=utcnow() - timedelta(seconds=25)))
    session.commit()
    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert f"Busy: worker busy-worker is running its pairs step (chunk {chunk_id})" in page
    assert "Stalled" not in page.split('class="job-stalled')[1].split("</p>")[0]
    gone = describe(session, fresh(session, Job, job_id), utcnow() + timedelta(seconds=31))
    assert gone["busy"] is None and gone["stalled"].startswith("worker busy-worker stopped renewing its lease")


@pytest.mark.settings(BROKER_URL=f"redis://127.0.0.1:{free_port()}/0")
def test_the_job_page_names_a_broker_outage_as_the_stall(client, session):
    """Redis unreachable: a queued job's chunks wait in the database; its page and its progress say why."""
    job_id = pairs_job(session, [[[1, "density"]]])
    session.add(WorkerBeat(name="idle-worker", host="box", pid=1, concurrency=1, seen_at=utcnow()))
    session.commit()
    stalled = client.get(f"/api/jobs/{job_id}").json["stalled"]
    assert stalled.startswith("the broker (redis://127.0.0.1:") and "is unreachable: ConnectionError" in stalled
    assert stalled.endswith("the job's chunks wait in the database and are sent once it answers")
    assert "Stalled: the broker (redis://127.0.0.1:" in client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "stalled: the broker" in client.get("/jobs").get_data(as_text=True)


def test_the_table_says_a_queued_job_is_stalled_when_no_worker_runs(cli, session, pages):
    job_id = background(cli, "density")
    lines = succeed(cli("jobs")).splitlines()
    assert lines[0].split() == ["id", "kind", "status", "stage", "progress", "by", "error", "/", "stalled"]
    assert lines[1].split(maxsplit=6) == [str(job_id), "extract", "queued", "-", "0/?", cli_actor()[:12],
                                          f"stalled: {NO_WORKER}"]
    assert lines[2:] == ["1 job(s); 0 worker(s) alive"]

    session.add(WorkerBeat(name="alive-worker", host="box", pid=1, concurrency=2, seen_at=utcnow()))
    session.commit()
    (row,) = json.loads(succeed(cli("jobs", "--format", "json")))
    assert row["stalled"] is None
    assert succeed(cli("jobs")).splitlines()[-1] == "1 job(s); 1 worker(s) alive"


def test_a_job_whose_running_chunk_lost_its_lease_is_stalled_naming_the_worker(app, client, cli, session, pages):
    job_id = background(cli, *CHEAP)
    pairs_chunk = run_plan(app, session, job_id)
    claim(session, pairs_chunk, "gone-worker", settings_of(app).lease)
    session.commit()
    (row,) = json.loads(succeed(cli("jobs", "--format", "json")))
    # while its lease holds, a worker without a recent heartbeat may be busy with a long step: not stalled
    assert (row["status"], row["stalled"]) == ("running", None)
    assert row["busy"] == f"worker gone-worker is running its pairs step (chunk {pairs_chunk})"

    lapse(session, pairs_chunk)
    reason = "worker gone-worker stopped renewing its lease at 03:04:05 UTC (killed or unreachable); "
    lines = succeed(cli("jobs")).splitlines()
    assert lines[1].split(maxsplit=6) == [str(job_id), "extract", "running", "extracting", "0/6", cli_actor()[:12],
                                          f"stalled: {reason}start a worker to run it again"]
    assert client.get(f"/api/jobs/{job_id}").get_json()["stalled"] == reason + "start a worker to run it again"

    session.add(WorkerBeat(name="alive-worker", host="box", pid=1, concurrency=2, seen_at=utcnow()))
    session.commit()
    (row,) = json.loads(succeed(cli("jobs", "--format", "json")))
    assert row["stalled"] == reason + "another worker will run it again"


# --- the progress endpoint and /health -----------------------------------------------------------


def test_the_progress_endpoint_shows_the_row_whichever_process_wrote_it(app, client, session, database_url):
    job = create_job(session, "export", {"request": {"fmt": "jsonl"}, "predictions": {}}, "Ann", LEASE.until())
    session.commit()
    first = client.get(f"/api/jobs/{job.id}")
    assert first.headers["Cache-Control"] == "no-store"
    assert (first.json["status"], first.json["kind"], first.json["started_by"]) == ("queued", "export", "Ann")

    elsewhere = make_engine(database_url)  # another process's connection to the database
    try:
        with Session(elsewhere) as other:
            other.execute(update(Job).where(Job.id == job.id).values(
                status="running", stage="exporting", done=3, total=7, errors=1, started_at=utcnow()))
            other.commit()
        shown = client.get(f"/api/jobs/{job.id}").json
        assert {key: shown[key] for key in ("status", "stage", "done", "total", "errors", "error", "finished")} == {
            "status": "running", "stage": "exporting", "done": 3, "total": 7, "errors": 1, "error": None,
            "finished": False}
        with Session(elsewhere) as other:
            other.execute(update(Job).where(Job.id == job.id).values(
                status="failed", error="export: OSError: disk full", finished_at=utcnow()))
            other.commit()
    finally:
        elsewhere.dispose()
    shown = client.get(f"/api/jobs/{job.id}").json
    assert (shown["status"], shown["error"], shown["finished"], shown["stalled"]) == (
        "failed", "export: OSError: disk full", True, None)

    unknown = client.get(f"/api/jobs/{job.id + 1}")
    assert unknown.status_code == 404
    assert unknown.json == {"error": "Not Found", "message": f"no job {job.id + 1}", "finished": True,
                            "unknown": True}


def test_health_is_ok_when_the_database_and_the_broker_answer(client):
    response = client.get("/health")
    assert (response.status_code, response.json) == (200, {"status": "ok", "database": "ok", "broker": "ok"})


def test_a_broker_it_cannot_use_stops_the_start_naming_it_without_its_password(tmp_path):
    with pytest.raises(SettingError) as refused:
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "BROKER_URL": "amqp://guest@queue.example/"})
    assert str(refused.value) == ("the setting BROKER_URL is 'amqp://***@queue.example/': it must be a redis://, "
                                  "rediss:// or unix:// URL (or empty for the embedded broker)")


def test_health_is_503_naming_the_database_while_an_external_writer_holds_sqlite_s_write_lock(app, client, session):
    if session.get_bind().dialect.name != "sqlite":
        pytest.skip("SQLite's write lock")
    session.rollback()
    other = sqlite3.connect(make_url(app.config["DATABASE_URL"]).database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process writing: the lock is held
        response = client.get("/health")
        assert (response.status_code, response.json) == (503, {
            "status": "failing", "database": "not writable within 2 s: OperationalError: database is locked",
            "broker": "ok"})
    finally:
        other.execute("ROLLBACK")
        other.close()
    response = client.get("/health")
    assert (response.status_code, response.json["database"]) == (200, "ok")


def test_health_is_503_naming_the_database_while_a_postgresql_transaction_holds_the_row_it_writes(
    app, client, session
):
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("PostgreSQL's row lock")
    session.execute(text("UPDATE score_epoch SET value = value"))  # a long write transaction, not committed
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json["database"].startswith("not writable within 2 s: LockNotAvailable"), response.json
    session.rollback()
    assert client.get("/health").status_code == 200


# --- failing steps -------------------------------------------------------------------------------


def test_an_export_whose_step_raises_fails_its_job_naming_the_step(app, client, session, run_jobs):
    job = create_job(session, "export", {"request": {"fmt": "pdf"}, "predictions": {}}, "tests", LEASE.until())
    session.commit()
    assert run_jobs() == [job.id]
    failed = fresh(session, Job, job.id)
    assert (failed.status, failed.finished_at is not None, failed.result) == ("failed", True, {})
    assert failed.error == ("export: ValueError: format must be one of jsonl, folder, scrapinghub, "
                            "trafilatura-eval, wcxb, wceb, webmainbench, csv, not 'pdf'")
    assert chunks_of(session, job.id) == [("export", "failed")]
    assert count(session, JobFile) == 0
    assert client.get(f"/jobs/{job.id}/download").status_code == 409
    assert client.get(f"/api/jobs/{job.id}").json["error"] == failed.error


def test_a_chunk_whose_work_names_a_missing_page_fails_the_job_and_cancels_its_other_chunks(
    app, session, pages, run_jobs
):
    missing = max(pages.values()) + 100
    job_id = pairs_job(session, [[[missing, "density"]], [[pages["ferry"], "density"]],
                                 [[pages["quay"], "density"]]])
    assert run_jobs() == [job_id]
    job = fresh(session, Job, job_id)
    assert (job.status, job.error) == ("failed", f"pairs: KeyError: {missing}")
    assert chunks_of(session, job_id) == [("pairs", "failed"), ("pairs", "cancelled"), ("pairs", "cancelled")]
    assert count(session, Extraction) == 0
    assert run_jobs() == []  # nothing of the failed job is left to run
