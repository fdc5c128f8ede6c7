"""Concurrency benchmark of a team's deployment: `goldtext serve --workers 4` on PostgreSQL and on SQLite,
many annotators saving gold at once while the leaderboard is polled, then one extraction job run by one
and by two `goldtext worker` processes.

    python benchmarks/bench_concurrency.py [--backends postgresql,sqlite] [--corpus PATH]
        [--annotators 50] [--saves 20] [--pollers 10] [--poll-interval 0] [--shared-pages 5]
        [--extractors density,whole-page,justext] [--keep]
    python benchmarks/bench_concurrency.py --login-flood [--backends sqlite,postgresql] [--flood-seconds 15]
    python benchmarks/bench_concurrency.py --team 10,20,30 [--saves 20]   # how many annotators SQLite serves

Per backend (PostgreSQL in a database of its own, created and dropped here; SQLite in a temporary
instance folder):

1. `goldtext import CORPUS` and `goldtext extract --extractor ...` (so the leaderboard has figures).
2. `goldtext serve --workers 4 --no-worker` on a free port. Every annotator is a thread with its own
   cookie session: it reads the CSRF token from the name form, gives its name, then makes --saves saves,
   half of them on a few pages shared by everyone (real 409s), half on pages of its own. A save reads the
   gold (GET /api/pages/<id>/gold), posts a text with that base version and a new client save id; on a
   409 it reads the gold again and saves its text again with the new base version (the browser's
   "keep mine"), counting the 409. Some saves are delivered twice with the same client save id: either
   the answer was read and the save is sent again (its answer must name the same revision), or the
   connection is closed before the answer (a lost response) and the save is sent again. Meanwhile
   --pollers clients poll GET /api/leaderboard with If-None-Match, like the leaderboard page.
3. Afterwards, straight from the database (SQLAlchemy): every text answered 200 or 409 must be a stored
   revision under its client save id (else "lost"), no client save id stored twice, no retried save
   answered with another revision ("double-applied"), no two saves answered 200 with the same new version
   of one page, and each page's final version = its first version + the saves applied to it.
4. The server's log (after the 4 web processes booted) is searched for crashed or restarted web
   processes and for "database is locked"; the web processes' pids are compared before and after.
5. The server is stopped; `goldtext extract --background --force` for the extractors is run once with one
   `goldtext worker` and once with two, timing the job (created -> done, read from the job row, and the
   outside wall time from enqueueing to the job seen done); duplicate (page, fingerprint) rows counted.

With --login-flood it measures only what a flood of wrong logins does to saves (issue 23: the write lock was
held across the Argon2 check): `goldtext import CORPUS`, `goldtext serve --workers 4 --no-worker` with the
login throttle set out of the way (LOGIN_MAX_FAILURES=1000000, so that every wrong login costs a real
Argon2 check), then 8 annotators saving back to back on pages of their own for --flood-seconds, once alone
and once while 8 threads post wrong logins back to back; the saves' p50 and p95 of both runs are printed.

PostgreSQL uses a Redis broker (db --redis-db, only if Redis answers and that db is empty), else the
embedded SQLite broker; SQLite uses the embedded broker. The gunicorn control socket is put in the
temporary folder (XDG_RUNTIME_DIR) so that other gunicorns on the machine keep theirs.
The last line printed is one JSON object of figures.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import add_quick, sample_corpus  # noqa: E402

from webapp.models import Extraction, Gold, GoldRevision, Job, Page, WorkerBeat  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "readability-test-pages"
GOLDTEXT = str(Path(sys.executable).with_name("goldtext"))
PG_HOST, PG_USER, PG_DB = "127.0.0.1", "postgres", "bench_concurrency"
TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')
LOCKED = "database is locked"
CRASH = re.compile(r"WORKER TIMEOUT|was sent (SIG|code)|exited with code|Booting worker|Unhandled exception")
DROPS = (ConnectionResetError, ConnectionRefusedError, ConnectionAbortedError, BrokenPipeError,
         http.client.RemoteDisconnected, http.client.IncompleteRead)
SAVE_P95_TARGET = 250  # ms, on PostgreSQL
POLL_P95_TARGET = 300  # ms
RESEND_RATE = 0.08  # saves delivered twice, the first answer read
ABANDON_RATE = 0.05  # saves whose first answer is lost (connection closed before it)
MAX_ATTEMPTS = 25  # of one logical save through its conflicts


# --- processes ---------------------------------------------------------------------------------------
class Processes:
    """Every process this benchmark starts, each in a session (process group) of its own, so that it and
    its children (gunicorn's web processes, a worker's extractor processes) are ended together."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []

    def start(self, args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
        out = open(log, "ab")
        proc = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True, cwd=str(ROOT))
        out.close()
        self.started.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen, grace: float = 30.0) -> None:
        """SIGTERM to the process (a graceful stop), SIGKILL to its group after `grace` seconds."""
        if proc.poll() is None:
            try:
                os.kill(proc.pid, signal.SIGTERM)
                proc.wait(timeout=grace)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # leftovers of its group, if any
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def stop_all(self) -> None:
        for proc in reversed(self.started):
            self.stop(proc, grace=10.0)
        self.started.clear()


def run(args: list[str], env: dict[str, str], timeout: float = 300) -> str:
    """A command to its end; its standard output (ClickException etc. raise with the output shown)."""
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout, cwd=str(ROOT),
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def children(pid: int) -> set[int]:
    try:
        return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- HTTP clients ------------------------------------------------------------------------------------
@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    ms: float

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Tally:
    """What every client saw, shared (under a lock) by the threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    locked: int = 0
    dropped: int = 0
    dropped_page_types: Counter = field(default_factory=Counter)
    timeouts: int = 0
    unexpected: list[str] = field(default_factory=list)

    def answer(self, method: str, path: str, answer: Answer) -> None:
        with self.lock:
            self.statuses[answer.status] += 1
            if LOCKED.encode() in answer.body:
                self.locked += 1
            if answer.status >= 500:
                self.server_errors.append(f"{method} {path} -> {answer.status}: {answer.body[:300]!r}")

    def drop(self, error: BaseException) -> None:
        with self.lock:
            if isinstance(error, socket.timeout):
                self.timeouts += 1
            else:
                self.dropped += 1
            self.dropped_page_types[type(error).__name__] += 1

    def odd(self, note: str) -> None:
        with self.lock:
            self.unexpected.append(note)


class Client:
    """One browser: its own cookie session, one connection per request (as urllib does)."""

    def __init__(self, port: int, tally: Tally) -> None:
        self.port, self.tally = port, tally
        self.cookies: dict[str, str] = {}

    def _headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"Connection": "close", **(extra or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return headers

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                abandon: bool = False, tries: int = 5) -> Answer | None:
        """The answer; None for an abandoned request. A dropped connection is counted and the request sent
        again (a save with the same client save id, as the browser retries)."""
        for attempt in range(tries):
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                started = time.perf_counter()
                conn.request(method, path, body=body, headers=self._headers(headers))
                if abandon:
                    return None  # the connection is closed below, before the answer is read
                response = conn.getresponse()
                data = response.read()
                answer = Answer(response.status, response.headers, data, 1000 * (time.perf_counter() - started))
            except (TimeoutError, *DROPS) as error:
                self.tally.drop(error)
                time.sleep(0.2 * (attempt + 1))
                continue
            finally:
                conn.close()
            for header in answer.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            self.tally.answer(method, path, answer)
            return answer
        raise RuntimeError(f"{method} {path}: no answer after {tries} tries")

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def sign_in(self, name: str) -> str:
        """The name form as the browser fills it; returns the session's CSRF token."""
        page = self.get("/annotator")
        token = TOKEN.search(page.body.decode()).group(1)
        form = urlencode({"name": name, "csrf_token": token, "next": "/annotator"}).encode()
        answer = self.request("POST", "/annotator", form, {"Content-Type": "application/x-www-form-urlencoded"})
        if answer.status != 302:
            raise RuntimeError(f"name form answered {answer.status}: {answer.body[:200]!r}")
        return token


# --- the annotators and the pollers ------------------------------------------------------------------
@dataclass
class Sent:
    """One delivery of a save and what it was answered."""

    save_id: str
    page_id: int
    text: str
    status: int | None  # None: abandoned (its answer lost)
    revision: int | None = None
    version: int | None = None
    replayed: bool = False
    retry: bool = False  # a second delivery of the same client save id
    ms: float | None = None


@dataclass
class Load:
    tally: Tally
    sent: list[Sent] = field(default_factory=list)
    double_answers: list[str] = field(default_factory=list)  # retries answered with another revision
    poll_ms: list[float] = field(default_factory=list)
    poll_304_ms: list[float] = field(default_factory=list)  # answered Not Modified (nothing computed)
    poll_statuses: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    gave_up: list[str] = field(default_factory=list)  # saves still conflicting after MAX_ATTEMPTS
    lock: threading.Lock = field(default_factory=threading.Lock)


def annotator(number: int, port: int, pages: list[int], shared: list[int], base: dict[int, tuple[str, str, str]],
              saves: int, load: Load, seed: int, start: threading.Barrier, think: float) -> None:
    rng = random.Random(seed * 1000 + number)
    client = Client(port, load.tally)
    mine: list[Sent] = []
    doubles: list[str] = []
    try:
        token = client.sign_in(f"annotator {number}")
    except Exception as error:
        token = None
        with load.lock:
            load.failures.append(f"annotator {number} could not sign in: {type(error).__name__}: {error}")
    try:
        start.wait(timeout=180)  # every annotator signed in: the load starts at once
    except threading.BrokenBarrierError:
        pass
    if token is None:
        return
    try:
        json_headers = {"Content-Type": "application/json", "X-CSRF-Token": token}
        for k in range(saves):
            page_id = rng.choice(shared) if k % 2 == 0 else pages[(k // 2) % len(pages)]
            text, page_type, status = base[page_id]
            text = f"{text}\n\nbench: annotator {number}, save {k}"
            version = client.get(f"/api/pages/{page_id}/gold").json()["version"]
            if think:
                time.sleep(rng.uniform(0, 2 * think))  # editing
            for attempt in range(MAX_ATTEMPTS):
                save_id = f"bench-r{seed}-a{number}-s{k}-t{attempt}"
                body = json.dumps({"text": text, "type": page_type, "status": status, "version": version,
                                   "client_save_id": save_id}).encode()
                path = f"/api/pages/{page_id}/gold"
                roll = rng.random()
                if roll < ABANDON_RATE:  # the answer is lost: the browser sends the save again
                    client.request("POST", path, body, json_headers, abandon=True)
                    mine.append(Sent(save_id, page_id, text, None))
                answer = client.request("POST", path, body, json_headers)
                reply = answer.json() if answer.status in (200, 409) else {}
                first = Sent(save_id, page_id, text, answer.status, reply.get("revision"), reply.get("version"),
                             bool(reply.get("replayed")), retry=roll < ABANDON_RATE, ms=answer.ms)
                mine.append(first)
                if ABANDON_RATE <= roll < ABANDON_RATE + RESEND_RATE and answer.status in (200, 409):
                    again = client.request("POST", path, body, json_headers)
                    reply2 = again.json() if again.status in (200, 409) else {}
                    second = Sent(save_id, page_id, text, again.status, reply2.get("revision"),
                                  reply2.get("version"), bool(reply2.get("replayed")), retry=True, ms=again.ms)
                    mine.append(second)
                    # the same answer again: same status and revision (a 200 also says replayed, same version)
                    if (again.status != answer.status or second.revision != first.revision
                            or (again.status == 200 and (not second.replayed or second.version != first.version))):
                        doubles.append(f"{save_id}: first {answer.status} rev {first.revision} v{first.version}, "
                                       f"retry {again.status} rev {second.revision} v{second.version} "
                                       f"replayed={second.replayed}")
                if answer.status == 200:
                    break
                if answer.status == 409:  # re-read the gold, save the same text on its version
                    version = client.get(path).json()["version"]
                    continue
                load.tally.odd(f"{save_id}: answered {answer.status}: {answer.body[:200]!r}")
                break
            else:
                with load.lock:
                    load.gave_up.append(f"annotator {number} save {k} (page {page_id}): "
                                        f"still conflicting after {MAX_ATTEMPTS} attempts")
    except Exception as error:
        with load.lock:
            load.failures.append(f"annotator {number}: {type(error).__name__}: {error}")
    finally:
        with load.lock:
            load.sent.extend(mine)
            load.double_answers.extend(doubles)


def poller(port: int, load: Load, stop: threading.Event, interval: float) -> None:
    client = Client(port, load.tally)
    tag = None
    times, unchanged, statuses = [], [], Counter()
    try:
        while not stop.is_set():
            answer = client.get("/api/leaderboard", {"If-None-Match": tag} if tag else None)
            times.append(answer.ms)
            if answer.status == 304:
                unchanged.append(answer.ms)
            statuses[answer.status] += 1
            if answer.status == 200:
                tag = answer.headers.get("ETag")
            if interval:
                stop.wait(interval)
    except Exception as error:
        with load.lock:
            load.failures.append(f"poller: {type(error).__name__}: {error}")
    finally:
        with load.lock:
            load.poll_ms.extend(times)
            load.poll_304_ms.extend(unchanged)
            load.poll_statuses.update(statuses)


# --- checks on the stored data -----------------------------------------------------------------------
def check_stored(engine: Engine, load: Load, first_versions: dict[int, int]) -> dict[str, Any]:
    answered = [s for s in load.sent if s.status in (200, 409)]
    expected = {s.save_id: s.text for s in answered}
    with engine.connect() as conn:
        stored: dict[str, list[str]] = defaultdict(list)
        for save_id, text in conn.execute(
            select(GoldRevision.client_save_id, GoldRevision.text).where(GoldRevision.client_save_id.like("bench-%"))
        ):
            stored[save_id].append(text)
        finals = dict(conn.execute(select(Gold.page_id, Gold.version)).all())
    lost = [sid for sid, text in expected.items() if text not in stored.get(sid, [])]
    twice = [sid for sid, texts in stored.items() if len(texts) > 1]
    applied = {(s.page_id, s.version, s.save_id) for s in answered if s.status == 200}
    per_version = Counter((page, version) for page, version, _ in applied)
    collisions = [key for key, n in per_version.items() if n > 1]
    applied_per_page = Counter(page for page, _, _ in applied)
    drift = []  # every delivery of a save gets an answer in the end (an abandoned one through its retry)
    for page, count in applied_per_page.items():
        if finals.get(page, 0) != first_versions.get(page, 0) + count:
            drift.append(f"page {page}: first version {first_versions.get(page, 0)} + {count} applied saves, "
                         f"stored version {finals.get(page)}")
    return {"lost": lost, "stored_twice": twice, "collisions": collisions, "version_drift": drift,
            "stored_bench_revisions": sum(len(t) for t in stored.values())}


def duplicate_extractions(engine: Engine) -> int:
    with engine.connect() as conn:
        rows = conn.execute(
            select(Extraction.page_id, Extraction.fingerprint, func.count())
            .group_by(Extraction.page_id, Extraction.fingerprint).having(func.count() > 1)
        ).all()
    return sum(n - 1 for _, _, n in rows)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


# --- one backend -------------------------------------------------------------------------------------
@dataclass
class Backend:
    name: str
    url: str
    broker: str
    folder: Path
    env: dict[str, str]


def redis_broker(db: int) -> str:
    """redis://127.0.0.1:6379/<db> if Redis answers and that db holds no key, else '' (embedded)."""
    try:
        import redis

        client = redis.Redis(host="127.0.0.1", port=6379, db=db, socket_timeout=2)
        if client.ping() and client.dbsize() == 0:
            return f"redis://127.0.0.1:6379/{db}"
        print(f"redis db {db} is not empty: the PostgreSQL run uses the embedded broker")
    except Exception as error:
        print(f"no Redis ({type(error).__name__}): the PostgreSQL run uses the embedded broker")
    return ""


def clear_redis(url: str) -> None:
    if not url:
        return
    import redis

    client = redis.Redis.from_url(url, socket_timeout=2)
    keys = list(client.scan_iter("huey*goldtext*"))
    if keys:
        client.delete(*keys)


def make_backend(name: str, redis_db: int) -> Backend:
    folder = Path(tempfile.mkdtemp(prefix=f"bench-concurrency-{name}-"))
    if name == "postgresql":
        url = f"postgresql+psycopg://{PG_USER}@{PG_HOST}:5432/{PG_DB}"
        broker = redis_broker(redis_db)
    else:
        url = f"sqlite:///{folder / 'goldtext.sqlite'}"
        broker = ""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOLDTEXT_")}
    env.update({"GOLDTEXT_INSTANCE_PATH": str(folder), "GOLDTEXT_DATABASE_URL": url, "GOLDTEXT_BROKER_URL": broker,
                "XDG_RUNTIME_DIR": str(folder), "PYTHONUNBUFFERED": "1"})
    return Backend(name, url, broker, folder, env)


def pg(command: str, *args: str) -> None:
    subprocess.run([command, "-h", PG_HOST, "-U", PG_USER, *args], check=True, capture_output=True, text=True)


def wait_until(check, timeout: float, what: str, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise RuntimeError(f"timed out waiting for {what}")


def serve_load(b: Backend, procs: Processes, engine: Engine, args: argparse.Namespace) -> dict[str, Any]:
    """The save and poll load on `goldtext serve --workers 4`; what it found."""
    with engine.connect() as conn:
        rows = conn.execute(select(Page.id, Gold.text, Gold.page_type, Gold.status, Gold.version)
                            .outerjoin(Gold, Gold.page_id == Page.id).order_by(Page.id)).all()
    base = {pid: (text or "", page_type or "article", status or "done") for pid, text, page_type, status, _ in rows}
    first_versions = {pid: version or 0 for pid, *_, version in rows}
    page_ids = [pid for pid, *_ in rows]
    shared = page_ids[: args.shared_pages]
    probe_page = page_ids[-1]  # unloaded reference saves; no annotator uses it
    others = page_ids[args.shared_pages:-1] or shared
    own = {i: [others[(2 * i) % len(others)], others[(2 * i + 1) % len(others)]] for i in range(args.annotators)}

    port = free_port()
    log = b.folder / "serve.log"
    server = procs.start([GOLDTEXT, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "4",
                          "--no-worker"], b.env, log)
    tally = Tally()
    probe = Client(port, Tally())  # refused connections while the server boots are not drops

    def healthy() -> bool:
        if server.poll() is not None:
            raise RuntimeError(f"goldtext serve exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            return probe.request("GET", "/health", tries=1).status == 200 and len(children(server.pid)) >= 4
        except RuntimeError:
            return False

    wait_until(healthy, 90, "goldtext serve")
    time.sleep(0.5)
    web_pids = children(server.pid)
    log_offset = log.stat().st_size
    warm = Client(port, Tally())
    for _ in range(8):  # every web process computes the board once before the clock starts
        warm.get("/api/leaderboard")
    unloaded = unloaded_times(port, probe_page, base[probe_page])
    loadavg_before = os.getloadavg()

    load = Load(tally)
    stop = threading.Event()
    barrier = threading.Barrier(args.annotators + 1)
    writers = [threading.Thread(target=annotator, args=(i, port, own[i], shared, base, args.saves, load, args.seed,
                                                        barrier, args.think), name=f"annotator-{i}")
               for i in range(args.annotators)]
    readers = [threading.Thread(target=poller, args=(port, load, stop, args.poll_interval), name=f"poller-{i}")
               for i in range(args.pollers)]
    for thread in writers:
        thread.start()
    try:
        barrier.wait(timeout=120)  # every annotator signed in
    except threading.BrokenBarrierError:
        pass
    started = time.perf_counter()
    for thread in readers:
        thread.start()
    for thread in writers:
        thread.join()
    elapsed = time.perf_counter() - started
    stop.set()
    for thread in readers:
        thread.join()
    loadavg_after = os.getloadavg()

    time.sleep(0.5)
    text = log.read_text(errors="replace")
    after = text[log_offset:] if len(text) >= log_offset else text
    crash_lines = [line for line in after.splitlines() if CRASH.search(line)]
    locked_lines = [line for line in text.splitlines() if LOCKED in line]
    tracebacks = after.count("Traceback (most recent call last)")
    pids_after = children(server.pid)
    server_alive = server.poll() is None
    procs.stop(server)
    procs.started.remove(server)

    stored = check_stored(engine, load, first_versions)
    save_ms = [s.ms for s in load.sent if s.ms is not None]
    return {
        "elapsed_s": elapsed,
        "accepted": len({s.save_id for s in load.sent if s.status == 200}),
        "conflicts": len({s.save_id for s in load.sent if s.status == 409}),
        "save_posts": len(save_ms),
        "retries": len([s for s in load.sent if s.retry]),
        "abandoned": len([s for s in load.sent if s.status is None]),
        "5xx": sum(n for status, n in tally.statuses.items() if status >= 500),
        "server_errors": tally.server_errors,
        "locked": tally.locked + len(locked_lines),
        "locked_lines": locked_lines,
        "dropped": tally.dropped,
        "dropped_page_types": dict(tally.dropped_page_types),
        "timeouts": tally.timeouts,
        "crashed": len(crash_lines) + len(web_pids - pids_after) + (0 if server_alive else 1),
        "crash_lines": crash_lines,
        "tracebacks": tracebacks,
        "lost": stored["lost"],
        "double": len(stored["stored_twice"]) + len(load.double_answers),
        "double_notes": stored["stored_twice"][:5] + load.double_answers[:5],
        "collisions": stored["collisions"],
        "version_drift": stored["version_drift"],
        "unexpected": tally.unexpected + load.failures,
        "gave_up": load.gave_up,
        "unloaded_save": unloaded[0],
        "unloaded_board": unloaded[1],
        "loadavg": (loadavg_before, loadavg_after),
        "statuses": dict(sorted(tally.statuses.items())),
        "save_p50": statistics.median(save_ms) if save_ms else float("nan"),
        "save_p95": percentile(save_ms, 95),
        "save_p99": percentile(save_ms, 99),
        "saves_per_s": len(save_ms) / elapsed if elapsed else 0.0,
        "poll_p50": statistics.median(load.poll_ms) if load.poll_ms else float("nan"),
        "poll_p95": percentile(load.poll_ms, 95),
        "polls": len(load.poll_ms),
        "poll_304_p95": percentile(load.poll_304_ms, 95),
        "poll_statuses": dict(load.poll_statuses),
    }


def unloaded_times(port: int, page_id: int, base: tuple[str, str, str], runs: int = 8) -> tuple[float, float]:
    """Median ms of one save, and of /api/leaderboard recomputed after it, with nothing else running:
    the service times the loaded figures queue behind."""
    client = Client(port, Tally())
    token = client.sign_in("probe")
    headers = {"Content-Type": "application/json", "X-CSRF-Token": token}
    text, page_type, status = base
    version = client.get(f"/api/pages/{page_id}/gold").json()["version"]
    saves, boards = [], []
    for n in range(runs):
        body = json.dumps({"text": f"{text}\n\nprobe {n}", "type": page_type, "status": status, "version": version,
                           "client_save_id": f"probe-{n}"}).encode()
        answer = client.request("POST", f"/api/pages/{page_id}/gold", body, headers)
        if answer.status != 200:
            raise RuntimeError(f"probe save answered {answer.status}: {answer.body[:200]!r}")
        version = answer.json()["version"]
        saves.append(answer.ms)
        boards.append(client.get("/api/leaderboard").ms)
    return statistics.median(saves), statistics.median(boards)


def job_run(b: Backend, procs: Processes, engine: Engine, extractors: list[str], workers: int) -> dict[str, Any]:
    """One forced extraction job with `workers` worker processes: its times and final status."""
    started = [procs.start([GOLDTEXT, "worker"], b.env, b.folder / f"worker-{workers}-{n}.log")
               for n in range(workers)]
    pids = [p.pid for p in started]

    def alive() -> bool:
        for proc in started:
            if proc.poll() is not None:
                raise RuntimeError(f"goldtext worker exited with {proc.returncode}")
        with engine.connect() as conn:
            return conn.scalar(select(func.count()).select_from(WorkerBeat).where(WorkerBeat.pid.in_(pids))) == workers

    try:
        wait_until(alive, 90, f"{workers} worker(s)")
        command = [GOLDTEXT, "extract", "--background", "--force"]
        for name in extractors:
            command += ["--extractor", name]
        outside = time.perf_counter()
        job_id = int(run(command, b.env).strip().splitlines()[-1])

        def finished():
            with engine.connect() as conn:
                row = conn.execute(select(Job.status, Job.created_at, Job.finished_at, Job.error, Job.result)
                                   .where(Job.id == job_id)).first()
            return row if row and row.status in ("done", "failed", "cancelled") else None

        row = wait_until(finished, 300, f"job {job_id}", every=0.1)
        outside = time.perf_counter() - outside
        inside = (row.finished_at - row.created_at).total_seconds()
        return {"job": job_id, "status": row.status, "error": row.error, "result": row.result,
                "job_s": inside, "outside_s": outside, "loadavg": os.getloadavg()[0]}
    finally:
        for proc in started:
            procs.stop(proc)
            procs.started.remove(proc)


def run_backend(name: str, args: argparse.Namespace, procs: Processes) -> dict[str, Any]:
    b = make_backend(name, args.redis_db)
    engine = None
    found: dict[str, Any] = {"broker": b.broker or "embedded (SQLite)"}
    try:
        if name == "postgresql":
            pg("dropdb", "--if-exists", "--force", PG_DB)
            pg("createdb", PG_DB)
        started = time.perf_counter()
        run([GOLDTEXT, "import", str(args.corpus)], b.env)
        command = [GOLDTEXT, "extract"]
        for extractor in args.extractors:
            command += ["--extractor", extractor]
        run(command, b.env)
        print(f"[{name}] import + extract: {time.perf_counter() - started:.1f} s (broker {found['broker']})",
              flush=True)
        engine = create_engine(b.url, connect_args={"timeout": 30} if name == "sqlite" else {})
        found.update(serve_load(b, procs, engine, args))
        print(f"[{name}] {found['save_posts']} save posts in {found['elapsed_s']:.1f} s, "
              f"{found['polls']} polls {found['poll_statuses']}; answers {found['statuses']}", flush=True)
        jobs = [job_run(b, procs, engine, args.extractors, n) for n in (1, 2)]
        for n, job in zip((1, 2), jobs):
            print(f"[{name}] job {job['job']} with {n} worker(s): {job['status']} in {job['job_s']:.1f} s "
                  f"(enqueue -> seen done {job['outside_s']:.1f} s) {job['error'] or ''}", flush=True)
        found["jobs"] = jobs
        found["duplicates"] = duplicate_extractions(engine)
        worker_logs = "".join(p.read_text(errors="replace") for p in b.folder.glob("worker-*.log"))
        worker_locked = [line for line in worker_logs.splitlines() if LOCKED in line]
        found["locked"] += len(worker_locked)
        found["locked_lines"] += worker_locked
        found["worker_tracebacks"] = worker_logs.count("Traceback (most recent call last)")
        if found["worker_tracebacks"]:
            found["worker_traceback_text"] = worker_logs[worker_logs.find("Traceback"):][:2000]
        return found
    finally:
        procs.stop_all()
        if engine is not None:
            engine.dispose()
        clear_redis(b.broker)
        if name == "postgresql":
            try:
                pg("dropdb", "--if-exists", "--force", PG_DB)
            except subprocess.CalledProcessError as error:
                print(f"dropdb failed: {error.stderr}")
        if args.keep:
            print(f"[{name}] kept {b.folder}")
        else:
            shutil.rmtree(b.folder, ignore_errors=True)


# --- a flood of wrong logins beside the saves ------------------------------------------------------
def saver(number: int, port: int, page_id: int, base: tuple[str, str, str], until: float, times: list[float],
          statuses: Counter, lock: threading.Lock) -> None:
    client = Client(port, Tally())
    token = client.sign_in(f"saver {number}")
    headers = {"Content-Type": "application/json", "X-CSRF-Token": token}
    path = f"/api/pages/{page_id}/gold"
    version = client.get(path).json()["version"]
    k = 0
    while time.perf_counter() < until:
        body = json.dumps({"text": f"{base[0]}\n\nflood bench: saver {number}, save {k}", "type": base[1],
                           "status": base[2], "version": version, "client_save_id": f"flood-{number}-{k}-{until}"})
        answer = client.request("POST", path, body.encode(), headers)
        with lock:
            times.append(answer.ms)
            statuses[answer.status] += 1
        version = answer.json()["version"] if answer.status == 200 else client.get(path).json()["version"]
        k += 1


def wrong_logins(number: int, port: int, stop: threading.Event, sent: Counter, lock: threading.Lock) -> None:
    client = Client(port, Tally())
    token = TOKEN.search(client.get("/login").body.decode()).group(1)
    k = 0
    while not stop.is_set():
        form = urlencode({"name": f"guess-{number}", "password": f"wrong {k}", "csrf_token": token}).encode()
        answer = client.request("POST", "/login", form, {"Content-Type": "application/x-www-form-urlencoded"})
        with lock:
            sent[answer.status] += 1
        k += 1


def login_flood(name: str, args: argparse.Namespace, procs: Processes) -> dict[str, Any]:
    """Saves' latencies with and without a flood of wrong logins (8 threads each)."""
    b = make_backend(name, args.redis_db)
    b.env["GOLDTEXT_LOGIN_MAX_FAILURES"] = "1000000"
    engine = None
    try:
        if name == "postgresql":
            pg("dropdb", "--if-exists", "--force", PG_DB)
            pg("createdb", PG_DB)
        run([GOLDTEXT, "import", str(args.corpus)], b.env)
        engine = create_engine(b.url, connect_args={"timeout": 30} if name == "sqlite" else {})
        with engine.connect() as conn:
            rows = conn.execute(select(Page.id, Gold.text, Gold.page_type, Gold.status)
                                .outerjoin(Gold, Gold.page_id == Page.id).order_by(Page.id).limit(8)).all()
        port = free_port()
        log = b.folder / "serve.log"
        server = procs.start([GOLDTEXT, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "4",
                              "--no-worker"], b.env, log)
        probe = Client(port, Tally())

        def healthy() -> bool:
            if server.poll() is not None:
                raise RuntimeError(f"goldtext serve exited with {server.returncode}:\n{log.read_text()[-3000:]}")
            try:
                return probe.request("GET", "/health", tries=1).status == 200
            except RuntimeError:
                return False

        wait_until(healthy, 90, "goldtext serve")
        found: dict[str, Any] = {}
        for phase in ("alone", "flood"):
            times: list[float] = []
            statuses: Counter = Counter()
            logins: Counter = Counter()
            lock = threading.Lock()
            stop = threading.Event()
            flood = [threading.Thread(target=wrong_logins, args=(i, port, stop, logins, lock))
                     for i in range(8 if phase == "flood" else 0)]
            for thread in flood:
                thread.start()
            until = time.perf_counter() + args.flood_seconds
            savers = [threading.Thread(target=saver, args=(i, port, pid, (text or "", page_type or "article",
                                                                          status or "done"), until, times,
                                                           statuses, lock))
                      for i, (pid, text, page_type, status) in enumerate(rows)]
            for thread in savers:
                thread.start()
            for thread in savers:
                thread.join()
            stop.set()
            for thread in flood:
                thread.join()
            found[phase] = {"saves": len(times), "p50": percentile(times, 50), "p95": percentile(times, 95),
                            "statuses": dict(statuses), "wrong_logins": dict(logins)}
            print(f"[{name}] {phase}: {len(times)} saves, p50 {found[phase]['p50']:.0f} ms, "
                  f"p95 {found[phase]['p95']:.0f} ms, answers {dict(statuses)}; wrong logins {dict(logins)}",
                  flush=True)
        found["locked"] = log.read_text(errors="replace").count(LOCKED)
        return found
    finally:
        procs.stop_all()
        if engine is not None:
            engine.dispose()
        if name == "postgresql":
            pg("dropdb", "--if-exists", "--force", PG_DB)
        if not args.keep:
            shutil.rmtree(b.folder, ignore_errors=True)


def flood_figures(name: str, r: dict[str, Any]) -> dict[str, dict]:
    alone, flood = r["alone"], r["flood"]
    errors = sum(n for status, n in flood["statuses"].items() if status >= 500)
    return {
        f"{name}_saves_p95_alone": figure(alone["p95"], "ms"),
        f"{name}_saves_p95_during_wrong_login_flood": figure(flood["p95"], "ms"),
        f"{name}_flood_over_alone_p95": figure(flood["p95"] / alone["p95"], "ratio", "<= 3",
                                               bool(flood["p95"] <= 3 * alone["p95"])),
        f"{name}_wrong_logins_during_flood": figure(sum(flood["wrong_logins"].values()), "requests"),
        f"{name}_save_5xx_during_flood": at_most(errors, "answers", 0),
    }


# --- report ------------------------------------------------------------------------------------------
def figure(value: float, unit: str, target: str | None = None, met: bool | None = None) -> dict:
    if isinstance(value, float) and value != value:  # NaN: nothing was measured
        value, met = None, (None if target is None else False)
    shown = {"value": round(value, 3) if isinstance(value, float) else value, "unit": unit}
    if target is not None:
        shown.update(target=target, met=met)
    return shown


def at_most(value: float, unit: str, limit: float) -> dict:
    return figure(value, unit, f"<= {limit:g}", bool(value <= limit))


def figures_of(name: str, r: dict[str, Any]) -> dict[str, dict]:
    out = {
        f"{name}_saves_accepted": figure(r["accepted"], "saves"),
        f"{name}_409_conflicts": figure(r["conflicts"], "saves"),
        f"{name}_5xx": at_most(r["5xx"], "answers", 0),
        f"{name}_database_locked": at_most(r["locked"], "occurrences", 0),
        f"{name}_dropped_connections": at_most(r["dropped"], "connections", 0),
        f"{name}_timeouts": at_most(r["timeouts"], "requests", 0),
        f"{name}_crashed_web_processes": at_most(r["crashed"], "processes", 0),
        f"{name}_lost_revisions": at_most(len(r["lost"]), "revisions", 0),
        f"{name}_double_applied_retries": at_most(r["double"], "saves", 0),
        f"{name}_version_collisions": at_most(len(r["collisions"]) + len(r["version_drift"]), "pages", 0),
        f"{name}_unexpected_answers": at_most(len(r["unexpected"]), "answers", 0),
        f"{name}_saves_given_up": figure(len(r["gave_up"]), "saves"),
        f"{name}_unloaded_save": figure(r["unloaded_save"], "ms"),
        f"{name}_unloaded_leaderboard": figure(r["unloaded_board"], "ms"),
        f"{name}_save_p50": figure(r["save_p50"], "ms"),
        f"{name}_save_p95": (at_most(r["save_p95"], "ms", SAVE_P95_TARGET) if name == "postgresql"
                             else figure(r["save_p95"], "ms")),
        f"{name}_leaderboard_p95": at_most(r["poll_p95"], "ms", POLL_P95_TARGET),
        f"{name}_leaderboard_304_p95": figure(r["poll_304_p95"], "ms"),
    }
    if "jobs" in r:
        one, two = r["jobs"]
        out.update({
            f"{name}_job_1_worker": figure(one["job_s"], "s"),
            f"{name}_job_2_workers": figure(two["job_s"], "s"),
            f"{name}_job_2_over_1": figure(two["job_s"] / one["job_s"] if one["job_s"] else float("nan"), "ratio"),
            f"{name}_jobs_done": figure(sum(j["status"] == "done" for j in r["jobs"]), "jobs", "== 2",
                                        all(j["status"] == "done" for j in r["jobs"])),
            f"{name}_duplicate_extractions": at_most(r["duplicates"], "rows", 0),
        })
    return out


def report(results: dict[str, dict[str, Any]], failed: dict[str, str], args: argparse.Namespace,
           load: MachineLoad) -> None:
    print(f"\n{os.cpu_count()} cores; the load average counts every process on the machine, not only these")
    print(f"{args.annotators} annotators x {args.saves} saves (half on {args.shared_pages} shared pages), "
          f"{args.pollers} leaderboard pollers, corpus {args.corpus.name}, extractors {','.join(args.extractors)}")
    names = list(results)
    rows = [
        ("broker", lambda r: r["broker"]),
        ("load duration (s)", lambda r: f"{r['elapsed_s']:.1f}"),
        ("save POSTs (incl. retries)", lambda r: r["save_posts"]),
        ("saves/s", lambda r: f"{r['saves_per_s']:.1f}"),
        ("saves accepted (200)", lambda r: r["accepted"]),
        ("409 conflicts", lambda r: r["conflicts"]),
        ("retried deliveries", lambda r: f"{r['retries']} ({r['abandoned']} lost answers)"),
        ("5xx answers", lambda r: r["5xx"]),
        ("'database is locked'", lambda r: r["locked"]),
        ("dropped connections", lambda r: r["dropped"]),
        ("timeouts", lambda r: r["timeouts"]),
        ("crashed web processes", lambda r: r["crashed"]),
        ("tracebacks in server log", lambda r: r["tracebacks"]),
        ("lost revisions", lambda r: len(r["lost"])),
        ("double-applied retries", lambda r: r["double"]),
        ("version collisions/drift", lambda r: len(r["collisions"]) + len(r["version_drift"])),
        ("unexpected answers", lambda r: len(r["unexpected"])),
        (f"saves given up (>{MAX_ATTEMPTS} 409s)", lambda r: len(r["gave_up"])),
        ("unloaded save / board (ms)", lambda r: f"{r['unloaded_save']:.0f} / {r['unloaded_board']:.0f}"),
        ("save p50 / p95 (ms)", lambda r: f"{r['save_p50']:.0f} / {r['save_p95']:.0f}"),
        ("leaderboard polls", lambda r: f"{r['polls']} {r['poll_statuses']}"),
        ("leaderboard p50 / p95 (ms)", lambda r: f"{r['poll_p50']:.0f} / {r['poll_p95']:.0f}"),
        ("leaderboard p95 of 304s (ms)", lambda r: f"{r['poll_304_p95']:.0f}"),
        ("load average before / after", lambda r: f"{r['loadavg'][0][0]:.1f} / {r['loadavg'][1][0]:.1f}"),
        ("job, 1 worker (s)", lambda r: f"{r['jobs'][0]['job_s']:.1f} ({r['jobs'][0]['status']})"),
        ("job, 2 workers (s)", lambda r: f"{r['jobs'][1]['job_s']:.1f} ({r['jobs'][1]['status']})"),
        ("2 workers / 1 worker", lambda r: f"{r['jobs'][1]['job_s'] / r['jobs'][0]['job_s']:.2f}"),
        ("enqueue->seen done 1 / 2 (s)",
         lambda r: f"{r['jobs'][0]['outside_s']:.1f} / {r['jobs'][1]['outside_s']:.1f}"),
        ("load average after job 1 / 2", lambda r: f"{r['jobs'][0]['loadavg']:.1f} / {r['jobs'][1]['loadavg']:.1f}"),
        ("duplicate (page, fingerprint)", lambda r: r["duplicates"]),
        ("worker log tracebacks", lambda r: r["worker_tracebacks"]),
    ]
    print(f"{'':32}" + "".join(f"{n:>36}" for n in names))
    for label, get in rows:
        cells = []
        for n in names:
            try:
                cells.append(f"{str(get(results[n])):>36}")
            except (KeyError, IndexError, ZeroDivisionError):
                cells.append(f"{'-':>36}")
        print(f"{label:32}" + "".join(cells))
    for n, r in results.items():
        evidence = {
            "5xx": r.get("server_errors", [])[:5],
            "database is locked": r.get("locked_lines", [])[:5],
            "crash lines in the server log": r.get("crash_lines", [])[:10],
            "dropped connection types": [r["dropped_page_types"]] if r.get("dropped_page_types") else [],
            "lost revisions": r.get("lost", [])[:10],
            "double-applied": r.get("double_notes", [])[:10],
            "version collisions": [str(c) for c in r.get("collisions", [])[:5]] + r.get("version_drift", [])[:5],
            "unexpected": r.get("unexpected", [])[:10],
            "given up": r.get("gave_up", [])[:10],
            "worker traceback": [r["worker_traceback_text"]] if r.get("worker_traceback_text") else [],
        }
        for what, lines in evidence.items():
            if lines:
                print(f"[{n}] {what}:")
                for line in lines:
                    print(f"    {line}")
    for n, error in failed.items():
        print(f"[{n}] FAILED: {error}")
    figures: dict[str, dict] = {}
    for n, r in results.items():
        figures.update(figures_of(n, r))
    for n in failed:
        figures[f"{n}_completed"] = figure(0, "runs", "== 1", False)
    print(json.dumps(figures | load.figures()))


# --- how many annotators SQLite serves: saves with and without an extraction running -------------------
TEAM_P99_TARGET = 2000  # ms: the slowest save in a hundred an annotator waits for, at most


def keep_extracting(b: Backend, procs: Processes, engine: Engine, extractors: list[str], stop: threading.Event,
                    jobs: list[int]) -> None:
    """One `goldtext worker` running forced extraction jobs back to back until `stop`."""
    worker = procs.start([GOLDTEXT, "worker"], b.env, b.folder / "team-worker.log")
    try:
        while not stop.is_set():
            command = [GOLDTEXT, "extract", "--background", "--force"]
            for name in extractors:
                command += ["--extractor", name]
            job_id = int(run(command, b.env).strip().splitlines()[-1])
            jobs.append(job_id)
            while not stop.wait(0.5):
                with engine.connect() as conn:
                    if conn.scalar(select(Job.status).where(Job.id == job_id)) in ("done", "failed", "cancelled"):
                        break
    finally:
        procs.stop(worker)
        procs.started.remove(worker)


def team_step(b: Backend, procs: Processes, engine: Engine, args: argparse.Namespace, annotators: int,
              extracting: bool) -> dict[str, Any]:
    """The save load of `annotators` clients (no pollers), with an extraction running or not."""
    # a seed of its own: each step's client save ids are new (a reused one is a replay, applied once)
    seed = args.seed * 1000 + annotators * 2 + extracting
    step = argparse.Namespace(**{**vars(args), "annotators": annotators, "pollers": 0, "seed": seed})
    stop, jobs = threading.Event(), []
    extraction = None
    if extracting:
        extraction = threading.Thread(target=keep_extracting, args=(b, procs, engine, args.extractors, stop, jobs))
        extraction.start()
        wait_until(lambda: bool(jobs), 120, "the extraction to start")
    try:
        found = serve_load(b, procs, engine, step)
    finally:
        stop.set()
        if extraction is not None:
            extraction.join()
    with engine.connect() as conn:
        statuses = [conn.scalar(select(Job.status).where(Job.id == job)) for job in jobs]
    return {"annotators": annotators, "extracting": extracting, "p50": found["save_p50"], "p95": found["save_p95"],
            "p99": found["save_p99"], "5xx": found["5xx"], "locked": found["locked"], "lost": len(found["lost"]),
            "saves": found["save_posts"], "saves_per_s": found["saves_per_s"], "jobs": statuses,
            "errors": found["server_errors"][:3], "loadavg": found["loadavg"][1][0]}


def team_sqlite(args: argparse.Namespace, procs: Processes, load: MachineLoad) -> None:
    """SQLite with `goldtext serve --workers 4`: for each number of annotators in --team, the saves' p50,
    p95, p99 and errors without and with an extraction running; the most annotators whose p99 stays
    within TEAM_P99_TARGET with no 5xx and nothing lost, both ways. Last line: the JSON figures."""
    b = make_backend("sqlite", args.redis_db)
    engine = None
    rows = []
    try:
        run([GOLDTEXT, "import", str(args.corpus)], b.env)
        run([GOLDTEXT, "extract", *(a for e in args.extractors for a in ("--extractor", e))], b.env)
        engine = create_engine(b.url, connect_args={"timeout": 30})
        for annotators in args.team:
            for extracting in (False, True):
                row = team_step(b, procs, engine, args, annotators, extracting)
                rows.append(row)
                print(f"[sqlite] {annotators:3} annotators, extraction {'running' if extracting else 'idle   '}: "
                      f"save p50/p95/p99 {row['p50']:.0f}/{row['p95']:.0f}/{row['p99']:.0f} ms, "
                      f"{row['saves']} saves ({row['saves_per_s']:.1f}/s), 5xx {row['5xx']}, locked {row['locked']}, "
                      f"lost {row['lost']}, jobs {row['jobs']}, load average {row['loadavg']:.1f} "
                      f"{row['errors'] or ''}", flush=True)
    finally:
        procs.stop_all()
        if engine is not None:
            engine.dispose()
        if not args.keep:
            shutil.rmtree(b.folder, ignore_errors=True)
    served = [n for n in args.team if all(r["p99"] <= TEAM_P99_TARGET and not r["5xx"] and not r["lost"]
                                          for r in rows if r["annotators"] == n)]
    figures: dict[str, dict] = {}
    for r in rows:
        key = f"sqlite_{r['annotators']}_annotators_{'extracting' if r['extracting'] else 'idle'}"
        figures[f"{key}_save_p95"] = figure(r["p95"], "ms")
        figures[f"{key}_save_p99"] = at_most(r["p99"], "ms", TEAM_P99_TARGET)
        figures[f"{key}_5xx"] = at_most(r["5xx"], "answers", 0)
        figures[f"{key}_saves_per_s"] = figure(r["saves_per_s"], "saves/s")
    figures["sqlite_annotators_served"] = figure(max(served, default=0), "annotators")
    print(json.dumps(figures | load.figures()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="postgresql,sqlite")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--annotators", type=int, default=50)
    parser.add_argument("--saves", type=int, default=20, help="saves per annotator")
    parser.add_argument("--pollers", type=int, default=10)
    parser.add_argument("--poll-interval", type=float, default=0.0,
                        help="seconds between one poller's polls (0: back to back; the page waits 1 s)")
    parser.add_argument("--shared-pages", type=int, default=5)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds an annotator edits between reading the gold and saving (default 0)")
    parser.add_argument("--extractors", default="density,whole-page,justext")
    parser.add_argument("--redis-db", type=int, default=13, help="Redis db of the PostgreSQL run's broker")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the temporary instance folders (logs)")
    parser.add_argument("--login-flood", action="store_true",
                        help="only measure saves with and without a flood of wrong logins")
    parser.add_argument("--flood-seconds", type=float, default=15.0, help="seconds of each --login-flood phase")
    parser.add_argument("--team", default="",
                        help="SQLite only: numbers of annotators to try (10,20,30), each without and with an "
                             "extraction running, to find how many SQLite serves")
    add_quick(parser)
    args = parser.parse_args()
    args.extractors = [e for e in args.extractors.split(",") if e]
    if not args.corpus.exists():
        parser.error(f"no corpus at {args.corpus}")
    if not args.quick:
        measure_all(args)
        return
    if args.team or args.login_flood:
        parser.error("--quick runs the main measurement: leave out --team and --login-flood")
    with tempfile.TemporaryDirectory() as tmp:  # SQLite, 3 annotators on 8 pages, one cheap extractor
        args.corpus = sample_corpus(args.corpus, Path(tmp) / "corpus", 8)
        args.backends, args.annotators, args.saves, args.pollers, args.shared_pages = "sqlite", 3, 2, 1, 2
        args.extractors = ["whole-page"]
        measure_all(args)


def measure_all(args: argparse.Namespace) -> None:
    load = MachineLoad()
    if args.team:
        args.team = [int(n) for n in args.team.split(",") if n]
        procs = Processes()
        try:
            team_sqlite(args, procs, load)
        finally:
            procs.stop_all()
        return

    procs = Processes()
    if args.login_flood:
        figures: dict[str, dict] = {}
        try:
            for name in [n for n in args.backends.split(",") if n]:
                figures.update(flood_figures(name, login_flood(name, args, procs)))
        finally:
            procs.stop_all()
        print(json.dumps(figures | load.figures()))
        return
    results: dict[str, dict[str, Any]] = {}
    failed: dict[str, str] = {}
    started = time.perf_counter()
    try:
        for name in [n for n in args.backends.split(",") if n]:
            try:
                results[name] = run_backend(name, args, procs)
            except Exception as error:
                traceback.print_exc()
                failed[name] = f"{type(error).__name__}: {error}"
    finally:
        procs.stop_all()
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    report(results, failed, args, load)
    if failed:  # a benchmark that could not run fails (CI runs it in its quick mode)
        sys.exit(f"failed on {', '.join(failed)}")


if __name__ == "__main__":
    main()
