"""Serving with real processes: `goldtext worker`s sharing a job (one killed with SIGKILL), the web
server restarted under a running job, a hanging extractor beside 20 annotating clients on SQLite, gold
saves seen by every web process, cancelling, web processes started together on a fresh database, and a
browser's upload and export through four web processes.

Every process is a real `goldtext` (gunicorn for `serve`, Huey's consumer for `worker`) in its own
process group, on free ports, against real SQLite files, PostgreSQL databases made for the test and
Redis; each test kills every group it started. Waits are bounded and fail saying what they waited for.
The helpers are in serving_fixtures.py."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import threading
import time
import zipfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from corpora import READABILITY
from serving_fixtures import (
    REDIS_URL,
    Client,
    Database,
    Databases,
    Proc,
    Processes,
    corpus_pages,
    flush_redis,
    free_port,
    goldtext_env,
    group_gone,
    healthy,
    listening,
    misbehaving_plugins,
    postgres_available,
    redis_available,
    run_goldtext,
    wait_for,
)

pytestmark = pytest.mark.slow

BACKENDS = ("sqlite", "postgresql")
FINISHED = ("done", "failed", "cancelled")
EXTRACTORS = ("density", "justext", "boilerpy3")  # cheap ones; whole-page is in the template already
PAGES = 130  # the shared corpus's pages
LOCKED = "database is locked"


# --- fixtures ------------------------------------------------------------------------------------


def require(service: str, available: bool) -> None:
    """Skip a test whose service is missing on a developer's machine; in CI, fail."""
    if not available:
        message = f"{service} is not reachable on 127.0.0.1"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)




@pytest.fixture
def redis_broker():
    require("Redis", redis_available())
    flush_redis()
    try:
        yield REDIS_URL
    finally:
        flush_redis()


@pytest.fixture
def instance(tmp_path) -> Path:
    folder = tmp_path / "instance"
    folder.mkdir()
    return folder


def database(databases: Databases, backend: str, corpus: bool = True) -> Database:
    if backend == "postgresql":
        require("PostgreSQL", postgres_available())
    return databases.with_corpus(backend) if corpus else databases.empty(backend)


# --- helpers -------------------------------------------------------------------------------------


def ports(count: int) -> list[int]:
    found: list[int] = []
    while len(found) < count:
        port = free_port()
        if port not in found:
            found.append(port)
    return found


def serve_args(port: int, *options: str) -> list[str]:
    return ["serve", "--host", "127.0.0.1", "--port", str(port), *options]


def serve(processes: Processes, env: dict[str, str], port: int, *options: str, name: str = "serve") -> Proc:
    """`goldtext serve` on the port, once it answers /health."""
    proc = processes.start(name, serve_args(port, *options), env)
    wait_for(lambda: healthy(Client(port)), 120, f"{proc.name} to answer GET /health on port {port}",
             interval=0.2, alive=[proc])
    return proc


def worker(processes: Processes, env: dict[str, str], db: Database, concurrency: int = 2,
           name: str = "worker") -> Proc:
    """`goldtext worker`, once its heartbeat is in the database."""
    proc = processes.start(name, ["worker", "--concurrency", str(concurrency)], env)

    def beating() -> bool:
        try:
            return bool(db.scalar("SELECT count(*) FROM worker_beat WHERE pid = :pid", pid=proc.pid))
        except Exception:
            return False

    wait_for(beating, 60, f"{proc.name}'s first heartbeat", interval=0.2, alive=[proc])
    return proc


def start_extraction(env: dict[str, str], *names: str, site: str | None = None) -> int:
    """`goldtext extract --background`: the job's id (the last line it prints)."""
    args = ["extract", "--background", *(arg for name in names for arg in ("--extractor", name))]
    if site:
        args += ["--site", site]
    return int(run_goldtext(args, env).strip().splitlines()[-1])


def extracting(db: Database, job_id: int, done: int):
    """A wait condition: the job is in its extracting stage with at least `done` pairs stored (failing
    at once if it finished first: the job was too short to test anything in its middle)."""

    def check() -> dict[str, Any] | None:
        job = db.job(job_id)
        if job["status"] in FINISHED:
            raise AssertionError(f"job {job_id} finished before {done} pairs were done: {job}")
        return job if job["stage"] == "extracting" and job["done"] >= done else None

    return check


def finished(db: Database, job_id: int):
    def check() -> dict[str, Any] | None:
        job = db.job(job_id)
        return job if job["status"] in FINISHED else None

    return check


def stored_pairs(db: Database, names: tuple[str, ...]) -> list[tuple[int, str, int]]:
    """(page id, extractor, rows) of the named extractors' extractions."""
    listed = ", ".join(f"'{name}'" for name in names)
    return db.rows(f"SELECT page_id, extractor, count(*) FROM extraction WHERE extractor IN ({listed}) "
                   "GROUP BY page_id, extractor")


def stored_count(db: Database, names: tuple[str, ...]) -> int:
    listed = ", ".join(f"'{name}'" for name in names)
    return db.scalar(f"SELECT count(*) FROM extraction WHERE extractor IN ({listed})")


def chunk_table(db: Database, job_id: int) -> list[tuple]:
    """The job's chunks other than pairs chunks done at the first attempt, for failure messages."""
    return db.rows("SELECT id, step, status, attempts, worker FROM job_chunk WHERE job_id = :job AND NOT "
                   "(step = 'pairs' AND status = 'done' AND attempts = 1) ORDER BY id", job=job_id)


def api_job(client: Client, job_id_or_path: int | str) -> dict[str, Any]:
    path = job_id_or_path if isinstance(job_id_or_path, str) else f"/api/jobs/{job_id_or_path}"
    reply = client.get(path)
    assert reply.status == 200, (path, reply.status, reply.text[:500])
    return reply.json()


def logs_clean(processes: Processes) -> None:
    """No process logged "database is locked", and no web process an unhandled exception."""
    for proc in processes.started:
        text = proc.output()
        assert LOCKED not in text, f"{proc.name}'s log says {LOCKED!r}:\n{proc.tail(80)}"
        if "serve" in proc.name:
            for mark in ("Exception on ", "Error handling request"):
                assert mark not in text, f"{proc.name}'s log has {mark!r}:\n{proc.tail(80)}"


# --- 1. two workers share a job; one is killed -----------------------------------------------------


@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_worker_killed_mid_job_leaves_its_chunks_to_the_other_and_every_pair_is_stored_once(
    backend, databases, processes, redis_broker, instance
):
    db = database(databases, backend)
    env = goldtext_env(instance, db.url, redis_broker, job_chunk_pairs=6, job_lease_seconds=3, extract_workers=1)
    workers = {proc.pid: proc for proc in (worker(processes, env, db, name="worker-a"),
                                           worker(processes, env, db, name="worker-b"))}
    pages = db.scalar("SELECT count(*) FROM page")
    assert pages == PAGES
    pairs = pages * len(EXTRACTORS)

    job_id = start_extraction(env, *EXTRACTORS)
    wait_for(extracting(db, job_id, pairs // 4), 120, f"job {job_id} to store a quarter of its {pairs} pairs",
             alive=workers.values())

    def holder() -> tuple[Proc, list[int]] | None:
        """A worker of ours holding running chunks of the job now, with those chunks."""
        held = defaultdict(list)
        for chunk_id, name in db.rows("SELECT id, worker FROM job_chunk WHERE job_id = :job AND step = 'pairs' "
                                      "AND status = 'running'", job=job_id):
            held[int(name.split(":")[1])].append(chunk_id)
        return next(((workers[pid], chunks) for pid, chunks in held.items() if pid in workers), None)

    victim, taken = wait_for(holder, 30, f"a worker to hold a running chunk of job {job_id}", interval=0.05)
    processes.kill(victim)  # SIGKILL to the worker and its extractor processes: its leases lapse
    survivor = next(proc for proc in workers.values() if proc is not victim)
    assert db.job(job_id)["status"] == "running", "the job ended before a worker could be killed in its middle"

    job = wait_for(finished(db, job_id), 240, f"job {job_id} to finish on {survivor.name}", interval=0.25,
                   alive=[survivor])
    assert (job["status"], job["error"]) == ("done", None), job
    rows = stored_pairs(db, EXTRACTORS)
    assert [row for row in rows if row[2] != 1] == [], "pairs stored more than once"
    assert len(rows) == pairs
    assert {(page, name) for page, name, _ in rows} == {
        (page, name) for (page,) in db.rows("SELECT id FROM page") for name in EXTRACTORS}
    assert job["result"]["extracted"] == pairs, (job["result"], chunk_table(db, job_id))  # none computed twice

    # the killed worker's chunks were taken over by the survivor and finished
    chunks = db.rows(f"SELECT id, status, attempts, worker FROM job_chunk WHERE id IN ({', '.join(map(str, taken))})")
    assert {status for _, status, _, _ in chunks} == {"done"}, chunks
    assert any(attempts >= 2 and int(name.split(":")[1]) == survivor.pid for _, _, attempts, name in chunks), chunks
    assert db.rows("SELECT status, count(*) FROM job_chunk WHERE job_id = :job GROUP BY status", job=job_id) == [
        ("done", db.scalar("SELECT count(*) FROM job_chunk WHERE job_id = :job", job=job_id))]
    logs_clean(processes)


# --- 2. the web server restarts under a running job ------------------------------------------------


@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_web_server_restarted_under_a_running_job_serves_its_progress_on_to_the_end(
    backend, databases, processes, instance
):
    db = database(databases, backend)
    env = goldtext_env(instance, db.url, "", job_chunk_pairs=6, extract_workers=1)  # the embedded broker file
    port = free_port()
    job_worker = worker(processes, env, db, concurrency=1)
    first = serve(processes, env, port, "--workers", "2", "--no-worker", name="serve-first")
    client = Client(port)

    job_id = start_extraction(env, *EXTRACTORS)

    def moving() -> dict[str, Any] | None:
        job = api_job(client, job_id)
        assert not job["finished"], f"job {job_id} finished before the restart: {job}"
        return job if job["stage"] == "extracting" and job["done"] >= 30 else None

    before = wait_for(moving, 120, f"job {job_id} to make progress", interval=0.2, alive=[first, job_worker])

    assert processes.terminate(first) == 0, first.tail()
    wait_for(lambda: group_gone(first), 30, f"{first.name}'s web processes to stop with it")
    assert not listening(port)
    during = db.job(job_id)
    assert during["status"] == "running", f"the job ended while no server ran (too short to test): {during}"

    second = processes.start("serve-second", serve_args(port, "--workers", "2", "--no-worker"), env)
    seen: list[dict[str, Any]] = []

    def follow() -> dict[str, Any] | None:
        try:
            job = api_job(client, job_id)
        except OSError:  # not listening yet
            return None
        seen.append(job)
        return job if job["finished"] else None

    final = wait_for(follow, 240, f"the new server to show job {job_id} finished", interval=0.2,
                     alive=[second, job_worker])
    assert (final["status"], final["error"], final["stalled"]) == ("done", None, None), final
    assert final["result"]["extracted"] == PAGES * len(EXTRACTORS), final["result"]
    running = [job for job in seen if job["status"] == "running"]
    assert running, f"the new server never showed the job running: {seen}"
    first_seen = running[0]
    assert first_seen["stage"] != "extracting" or first_seen["done"] >= before["done"], (before, first_seen)
    states = [(job["status"], job["stage"], job["done"]) for job in seen]
    assert len(set(states)) >= 2, f"the new server showed no progress: {states}"
    assert job_worker.alive()
    logs_clean(processes)


# --- 3. a hanging extractor beside 20 annotating clients on SQLite -------------------------------------


@pytest.mark.corpus(READABILITY)
def test_a_hanging_extractor_leaves_sqlite_free_for_20_clients_reading_and_saving_gold(
    databases, processes, instance, tmp_path
):
    db = database(databases, "sqlite")
    timeout = 8
    env = goldtext_env(instance, db.url, "", pythonpath=misbehaving_plugins(tmp_path / "plugins"),
                       extract_timeout=timeout, extract_workers=2, job_chunk_pairs=4)
    port = free_port()
    job_worker = worker(processes, env, db, concurrency=2)
    server = serve(processes, env, port, "--workers", "2", "--no-worker")
    job_id = start_extraction(env, "hang", "density")
    wait_for(lambda: db.scalar("SELECT count(*) FROM job_chunk WHERE job_id = :job AND step = 'pairs' "
                               "AND status = 'running'", job=job_id), 60,
             f"job {job_id}'s pairs to run (the hanging calls)", alive=[job_worker])

    page_ids = [page for (page,) in db.rows("SELECT id FROM page ORDER BY id LIMIT 5")]
    initial = {page: Client(port).get(f"/api/pages/{page}/gold").json()["version"] for page in page_ids}
    stop = threading.Event()
    records: list[tuple[str, str, int, Any, Any]] = []  # (method, path, status, base version, body)
    failures: list[str] = []
    lock = threading.Lock()

    def annotate(number: int) -> None:
        try:
            client = Client(port)
            client.sign_in(f"Client {number}")
            round_ = 0
            while not stop.is_set() or round_ < 3:
                page = page_ids[(number + round_) % len(page_ids)]
                got = []
                for path in ("/", f"/pages/{page}", f"/api/pages/{page}/gold"):
                    reply = client.get(path)
                    got.append(("GET", path, reply.status, None, reply.text))
                version = reply.json()["version"] if reply.status == 200 else 0
                path = f"/api/pages/{page}/gold"
                reply = client.post_json(path, {"text": f"Gold of page {page} by client {number}, round {round_}",
                                                "type": "article", "status": "done", "version": version,
                                                "client_save_id": f"client-{number}-{round_}"})
                got.append(("POST", path, reply.status, version, reply.text))
                with lock:
                    records.extend(got)
                round_ += 1
        except Exception as error:
            with lock:
                failures.append(f"client {number}: {type(error).__name__}: {error}")

    crew = [threading.Thread(target=annotate, args=(n,), daemon=True) for n in range(20)]
    for thread in crew:
        thread.start()
    try:
        # the load goes on until the hanging calls have timed out and been stored (2 calls at once)
        hung = wait_for(lambda: (job := db.job(job_id))["errors"] >= 2 and job, timeout + 90,
                        "two hanging calls to time out and be stored while the clients work", interval=0.5,
                        alive=[server, job_worker])
    finally:
        stop.set()
        for thread in crew:
            thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in crew), "a client hung"
    assert failures == []
    assert hung["status"] == "running", hung
    assert db.scalar("SELECT count(*) FROM extraction WHERE extractor = 'hang' AND error LIKE 'timeout after%'") >= 2

    by_page_type = Counter((method, path.split("/")[1] if path != "/" else "/", status)
                      for method, path, status, _, _ in records)
    assert len(records) >= 20 * 3 * 4, by_page_type
    bad = [(method, path, status, body[:300]) for method, path, status, _, body in records
           if status != 200 and not (method == "POST" and status == 409)]
    assert bad == [], by_page_type
    assert [r for r in records if LOCKED in r[4]] == []
    applied: dict[int, list[int]] = defaultdict(list)
    for method, path, status, base, body in records:
        if method != "POST":
            continue
        page = int(path.split("/")[3])
        answer = json.loads(body)
        if status == 409:  # a real conflict: the page's gold had moved past the version edited
            assert answer["conflict"] is True and answer["current"]["version"] > base, answer
        else:
            assert (answer["conflict"], answer["replayed"], answer["version"]) == (False, False, base + 1), answer
            applied[page].append(answer["version"])
    assert applied, "no save applied"
    for page in page_ids:  # every applied save made one version: none lost, none made twice
        final = db.scalar("SELECT version FROM gold WHERE page_id = :page", page=page) or 0
        assert sorted(applied[page]) == list(range(initial[page] + 1, final + 1)), (page, initial[page], final)
    logs_clean(processes)


# --- 4. a gold save is seen by every web process -----------------------------------------------------


@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_gold_save_is_seen_by_every_web_process_within_2_seconds(backend, databases, processes, instance):
    db = database(databases, backend)
    env = goldtext_env(instance, db.url)
    servers = [(port, serve(processes, env, port, "--workers", "1", "--no-worker", name=f"serve-{n}"))
               for n, port in enumerate(ports(2))]
    browser = Client(servers[0][0])
    browser.sign_in("Ann")
    clients = [browser] + [browser.at(port) for port, _ in servers[1:]]  # one browser session, either server

    def board(client: Client) -> dict[str, Any]:
        reply = client.get("/api/leaderboard?bootstrap=0")
        assert reply.status == 200, reply.text[:500]
        return reply.json()

    def gold(client: Client, page: int) -> dict[str, Any]:
        reply = client.get(f"/api/pages/{page}/gold")
        assert reply.status == 200, reply.text[:500]
        return reply.json()

    boards = [board(client) for client in clients]  # each process has read (and cached) the figures
    assert boards[0] == boards[1] and boards[0]["extractors"]["whole-page"]["pages"] == boards[0]["pages"]
    pages = boards[0]["pages"]
    chosen = [page for (page,) in db.rows("SELECT page_id FROM gold WHERE page_type = 'article' AND status = 'done' "
                                          "ORDER BY page_id LIMIT 3")]
    changes = [  # (server saving, page, what changes, pages on the leaderboard after)
        (0, chosen[0], {"type": "other", "text": ""}, pages - 1),
        (1, chosen[1], {"type": "other", "text": ""}, pages - 2),
        (1, chosen[0], {"type": "article", "text": "Back as an article, with another gold text."}, pages - 1),
        (0, chosen[2], {"type": "article", "text": "Nothing of what this page says."}, pages - 1),
    ]
    for number, (server, page, change, expected_pages) in enumerate(changes):
        before = board(clients[0])
        version = gold(clients[server], page)["version"]
        reply = clients[server].post_json(f"/api/pages/{page}/gold", {
            **change, "status": "done", "version": version, "client_save_id": f"save-{number}"})
        assert reply.status == 200 and reply.json()["version"] == version + 1, reply.text[:500]

        def everywhere(page=page, version=version, change=change, expected_pages=expected_pages,
                       before=before) -> list[dict[str, Any]] | None:
            golds = [gold(client, page) for client in clients]
            if any((g["version"], g["type"], g["text"]) != (version + 1, change["type"], change["text"])
                   for g in golds):
                return None
            shown = [board(client) for client in clients]
            if any(b["pages"] != expected_pages or b == before for b in shown) or shown[0] != shown[1]:
                return None
            return shown

        wait_for(everywhere, 2.0, f"save {number} (page {page} on server {server}) to show in the gold and the "
                                  "leaderboard of both servers", interval=0.05)
    assert not [proc for _, proc in servers if not proc.alive()]
    logs_clean(processes)


# --- 5. cancelling a running job ----------------------------------------------------------------------


@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_cancelled_job_stops_and_its_count_is_what_it_stored(backend, databases, processes, redis_broker, instance):
    db = database(databases, backend)
    env = goldtext_env(instance, db.url, redis_broker, job_chunk_pairs=6, extract_workers=1)
    job_worker = worker(processes, env, db, concurrency=2)
    job_id = start_extraction(env, *EXTRACTORS)
    wait_for(extracting(db, job_id, 60), 120, f"job {job_id} to store 60 pairs", alive=[job_worker])

    output = run_goldtext(["jobs", "cancel", str(job_id)], env)
    assert f"job {job_id} cancelled (" in output

    def settled() -> bool:
        return not db.scalar("SELECT count(*) FROM job_chunk WHERE job_id = :job AND status IN ('queued', 'running')",
                             job=job_id)

    wait_for(settled, 60, f"job {job_id}'s chunks to stop", interval=0.2, alive=[job_worker])
    stored = stored_count(db, EXTRACTORS)
    time.sleep(3)  # settle: a worker still computing the cancelled job would store more meanwhile
    assert stored_count(db, EXTRACTORS) == stored
    job = db.job(job_id)
    assert (job["status"], job["stage"]) == ("cancelled", "extracting"), job
    assert job["done"] == stored, job
    assert 60 <= stored < PAGES * len(EXTRACTORS)
    statuses = dict(db.rows("SELECT status, count(*) FROM job_chunk WHERE job_id = :job GROUP BY status", job=job_id))
    assert set(statuses) <= {"done", "cancelled"} and statuses.get("cancelled"), statuses

    # the worker is free for the next job
    host = db.scalar("SELECT host FROM site ORDER BY host LIMIT 1")
    next_id = start_extraction(env, "readability", site=host)
    after = wait_for(finished(db, next_id), 120, f"job {next_id} to finish", interval=0.25, alive=[job_worker])
    assert after["status"] == "done", after
    assert stored_count(db, EXTRACTORS) == stored
    logs_clean(processes)


# --- 6. web processes started together on a fresh database --------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_four_web_processes_started_together_on_a_fresh_database_answer_their_first_request(
    backend, databases, processes, instance
):
    db = database(databases, backend, corpus=False)
    env = goldtext_env(instance, db.url)  # a fresh instance folder too: no secret key yet
    chosen = ports(4)
    servers = [processes.start(f"serve-{n}", serve_args(port, "--workers", "1", "--no-worker"), env)
               for n, port in enumerate(chosen)]
    for port, server in zip(chosen, servers):
        wait_for(lambda port=port: listening(port), 120, f"{server.name} to listen on {port}", interval=0.1,
                 alive=[server])

    with ThreadPoolExecutor(len(chosen)) as pool:  # the first request to each, all at once
        firsts = list(pool.map(lambda port: Client(port).get("/"), chosen))
    assert [reply.status for reply in firsts] == [200] * 4, [(r.status, r.text[:300]) for r in firsts]
    assert all("<html" in reply.text.lower() for reply in firsts)
    assert [Client(port).get("/health").status for port in chosen] == [200] * 4
    assert len(db.rows("SELECT version_num FROM alembic_version")) == 1
    for server in servers:
        assert server.alive() and "Traceback" not in server.output(), server.tail()
    logs_clean(processes)

    # one browser session holds on every process: they share the instance's secret key
    browser = Client(chosen[0])
    browser.fetch_token()
    assert [browser.at(port).post_form("/annotator", {"name": "Ann"}).status for port in chosen] == [302] * 4


# --- 7. a browser's upload and export through four web processes ----------------------------------------


UPLOADED = ("aclu", "ars-1", "archive-of-our-own", "bbc-1")


def poll_to_the_end(client: Client, path: str, timeout: float, threads: int = 4) -> tuple[dict[str, Any], int]:
    """GET the job's progress from several threads at once (new connections: any web process answers)
    until it is finished; the final job and how many polls were answered (each must be a 200)."""
    stop = threading.Event()
    answered = []
    failures: list[str] = []

    def poll() -> None:
        while not stop.is_set():
            try:
                reply = client.get(path)
            except Exception as error:
                failures.append(f"{type(error).__name__}: {error}")
                return
            if reply.status != 200:
                failures.append(f"{reply.status}: {reply.text[:300]}")
                return
            answered.append(reply.json())
            time.sleep(0.05)

    crew = [threading.Thread(target=poll, daemon=True) for _ in range(threads)]
    for thread in crew:
        thread.start()
    try:
        wait_for(lambda: failures or any(job["finished"] for job in answered), timeout, f"{path} to say finished",
                 interval=0.1)
    finally:
        stop.set()
        for thread in crew:
            thread.join(timeout=60)
    assert failures == []
    return next(job for job in reversed(answered) if job["finished"]), len(answered)


@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("backend", BACKENDS)
def test_an_upload_and_an_export_through_four_web_processes(backend, databases, processes, instance, request):
    db = database(databases, backend, corpus=False)
    if backend == "sqlite":  # the embedded broker file; `serve` starts the worker itself
        env = goldtext_env(instance, db.url, "", upload_extractors="whole-page,density")
        port = free_port()
        server = serve(processes, env, port, "--workers", "4")
        others = []
    else:  # Redis, and a worker of its own
        broker = request.getfixturevalue("redis_broker")
        env = goldtext_env(instance, db.url, broker, upload_extractors="whole-page,density")
        port = free_port()
        server = serve(processes, env, port, "--workers", "4")
        others = [worker(processes, env, db)]
    browser = Client(port)
    browser.sign_in("Ann")

    files = [page for page in corpus_pages(200) if page[0].removesuffix(".html") in UPLOADED]
    assert len(files) == len(UPLOADED)
    reply = browser.post_files("/upload", files, {"format": "auto", "site_from": "url"})
    assert reply.status == 302, reply.text[:500]
    report_path = urlsplit(reply.location).path
    assert re.fullmatch(r"/upload/\d+", report_path), reply.location
    report = browser.get(report_path)
    assert report.status == 200
    progress = re.search(r'data-progress="(/api/jobs/\d+)"', report.text).group(1)
    upload, polls = poll_to_the_end(browser, progress, 180)
    assert (upload["kind"], upload["status"], upload["error"]) == ("upload", "done", None), upload
    assert polls >= 8
    for _ in range(8):  # the batch report, from whichever process answers
        report = browser.get(report_path)
        assert report.status == 200
        listed = re.findall(r'<tr class="outcome-imported">\s*<td><a href="/pages/\d+">([^<]+)</a>', report.text)
        assert sorted(Path(name).stem for name in listed) == sorted(UPLOADED), report.text[:2000]
        assert "4 imported, 0 duplicate, 0 rejected." in " ".join(report.text.split())
    assert db.scalar("SELECT count(*) FROM extraction") == 2 * len(UPLOADED)

    reply = browser.post_form("/exports", {"format": "jsonl"})
    assert reply.status == 302, reply.text[:500]
    job_path = urlsplit(reply.location).path
    export_id = int(re.fullmatch(r"/jobs/(\d+)", job_path).group(1))
    assert browser.get(job_path).status == 200
    export, _ = poll_to_the_end(browser, f"/api/jobs/{export_id}", 120)
    assert (export["kind"], export["status"], export["error"]) == ("export", "done", None), export
    assert export["result"]["pages"] == len(UPLOADED)
    name = f"goldtext-jsonl-{export_id}"
    for _ in range(8):  # the download, from whichever process answers
        reply = browser.get(f"/jobs/{export_id}/download")
        assert reply.status == 200, reply.text[:500]
        assert reply.headers["content-type"] == "application/zip"
        assert int(reply.headers["content-length"]) == len(reply.body) == export["result"]["size"]
        archive = zipfile.ZipFile(io.BytesIO(reply.body))
        assert archive.testzip() is None
        assert sorted(archive.namelist()) == [f"{name}/README.md", f"{name}/SHA256SUMS", f"{name}/pages.jsonl"]
        for line in archive.read(f"{name}/SHA256SUMS").decode().splitlines():
            digest, member = line.split(maxsplit=1)
            assert hashlib.sha256(archive.read(f"{name}/{member.lstrip('*')}")).hexdigest() == digest
        assert len(archive.read(f"{name}/pages.jsonl").decode().splitlines()) == len(UPLOADED)
    assert server.alive() and all(proc.alive() for proc in others)
    logs_clean(processes)
    # a service manager's stop: the web processes, and the worker `serve` started, stop with it
    assert processes.terminate(server) == 0, server.tail()
    wait_for(lambda: group_gone(server), 60, f"the processes {server.name} started to stop with it")
