"""Helpers of the serving tests (tests/faces/test_serving.py): real `goldtext` processes in their own process
groups, free ports, bounded waits, a small cookie-keeping HTTP client, and the databases they run on
(SQLite files and PostgreSQL databases of their own, made from one imported copy of the shared corpus)."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any, TypeVar

import pytest
from corpora import READABILITY_PAGES
from extractor_fixtures import installed
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

TESTS = Path(__file__).resolve().parent
CHECKOUT = TESTS.parent  # the checkout under test: its `webapp` comes first in every process started here
CORPUS = READABILITY_PAGES
POSTGRES_SERVER = os.environ.get("GOLDTEXT_SERVING_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")
# Redis database 7, and 8, 9... for the further workers of pytest-xdist (gw1, gw2...): each flushes its own.
REDIS_URL = os.environ.get(
    "GOLDTEXT_SERVING_REDIS_URL",
    f"redis://127.0.0.1:6379/{7 + int(os.environ.get('PYTEST_XDIST_WORKER', 'gw0').removeprefix('gw'))}",
)
TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')
T = TypeVar("T")


def goldtext_command() -> list[str]:
    """The venv's `goldtext` console script (the interpreter running the tests belongs to that venv)."""
    script = Path(sys.executable).with_name("goldtext")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from webapp.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


# --- processes -----------------------------------------------------------------------------------


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen
    log: Path

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.output().splitlines()[-lines:])


class Processes:
    """Every process a test starts, each the leader of its own process group; `cleanup` kills every
    group that is left (call it in a finally, or use the `processes` fixture)."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.logs.mkdir(parents=True, exist_ok=True)
        self.started: list[Proc] = []
        self.runtimes: list[str] = []
        self._serial = itertools.count(1)

    def start(self, name: str, args: Sequence[str], env: dict[str, str]) -> Proc:
        name = f"{next(self._serial):02d}-{name}"
        env = dict(env)
        if args and args[0] == "serve":
            # gunicorn's control socket defaults to one path per user: give each server its own
            # (a short path: a Unix socket's path is limited to about 100 characters)
            runtime = tempfile.mkdtemp(prefix="goldtext-serving-")
            self.runtimes.append(runtime)
            env["XDG_RUNTIME_DIR"] = runtime
        log = self.logs / f"{name}.log"
        with log.open("wb") as out:
            popen = subprocess.Popen([*goldtext_command(), *args], env=env, stdin=subprocess.DEVNULL,
                                     stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        proc = Proc(name, popen, log)
        self.started.append(proc)
        return proc

    def terminate(self, proc: Proc, timeout: float = 60.0) -> int:
        """SIGTERM to the leader (as a service manager stops it); its exit code once it has stopped."""
        if proc.alive():
            proc.popen.send_signal(signal.SIGTERM)
        try:
            return proc.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{proc.name} did not stop within {timeout} s of SIGTERM:\n{proc.tail()}") from None

    def kill(self, proc: Proc) -> None:
        """SIGKILL to the whole group (the process and its extractor or gunicorn children)."""
        _killpg(proc.pid)
        try:
            proc.popen.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass

    def cleanup(self) -> None:
        for proc in self.started:
            _killpg(proc.pid)
        for proc in self.started:
            try:
                proc.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        for runtime in self.runtimes:
            shutil.rmtree(runtime, ignore_errors=True)


def group_gone(proc: Proc) -> bool:
    """No process is left in the group the process led (its children stopped with it)."""
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return True
    return False


def _killpg(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_goldtext(args: Sequence[str], env: dict[str, str], timeout: float = 180.0) -> str:
    """Run a `goldtext` command to its end; its standard output (fails with both outputs if it failed)."""
    with subprocess.Popen([*goldtext_command(), *args], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as proc:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _killpg(proc.pid)  # the command and any extractor process it started
            proc.communicate()
            raise AssertionError(f"goldtext {' '.join(args)} did not end within {timeout} s") from None
    if proc.returncode != 0:
        raise AssertionError(f"goldtext {' '.join(args)} exited {proc.returncode}:\n{stdout}\n{stderr}")
    return stdout


def goldtext_env(instance: Path, database_url: str, broker_url: str = "", pythonpath: Iterable[Path] = (),
                 **settings: Any) -> dict[str, str]:
    """The environment of a `goldtext` process: no GOLDTEXT_* setting inherited, these set."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GOLDTEXT_")}
    env["GOLDTEXT_INSTANCE_PATH"] = str(instance)
    env["GOLDTEXT_DATABASE_URL"] = database_url
    env["GOLDTEXT_BROKER_URL"] = broker_url
    for key, value in settings.items():
        env["GOLDTEXT_" + key.upper()] = ",".join(value) if isinstance(value, (list, tuple)) else str(value)
    # The checkout first: an editable install of another checkout (a git worktree's venv) must not answer.
    paths = [str(p) for p in pythonpath] + [str(CHECKOUT)]
    env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONUNBUFFERED"] = "1"
    return env


def wait_for(condition: Callable[[], T], timeout: float, what: str, interval: float = 0.1,
             alive: Iterable[Proc] = ()) -> T:
    """Poll condition() until it returns something true (returned), failing after `timeout` seconds,
    or at once when one of the `alive` processes has exited, with a message saying what was awaited."""
    watched = list(alive)
    deadline = time.monotonic() + timeout
    last: Any = None
    while True:
        last = condition()
        if last:
            return last
        for proc in watched:
            if not proc.alive():
                raise AssertionError(f"{proc.name} exited ({proc.popen.returncode}) while waiting for {what}:\n"
                                     f"{proc.tail()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what} (last seen: {last!r})")
        time.sleep(interval)


# --- HTTP ----------------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def location(self) -> str | None:
        return self.headers.get("location")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Client:
    """A browser-like client of one server: its own cookies (shared with `at`), no redirects followed,
    a new connection per request (so any of the server's processes may answer)."""

    def __init__(self, port: int, jar: CookieJar | None = None, timeout: float = 60.0) -> None:
        self.port = port
        self.jar = jar if jar is not None else CookieJar()
        self.timeout = timeout
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())
        self.token: str | None = None

    def at(self, port: int) -> Client:
        """The same browser (cookies, CSRF token) talking to another server."""
        other = Client(port, self.jar, self.timeout)
        other.token = self.token
        return other

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Reply:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, method=method,
                                         headers=headers or {})
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return Reply(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read())
        except urllib.error.HTTPError as error:
            with error:
                return Reply(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post_form(self, path: str, fields: dict[str, Any]) -> Reply:
        data = urllib.parse.urlencode({**fields, "csrf_token": self.token}, doseq=True).encode()
        return self.request("POST", path, data, {"Content-Type": "application/x-www-form-urlencoded"})

    def post_json(self, path: str, payload: Any) -> Reply:
        return self.request("POST", path, json.dumps(payload).encode(),
                            {"Content-Type": "application/json", "X-CSRF-Token": self.token or ""})

    def post_files(self, path: str, files: Sequence[tuple[str, bytes]], fields: dict[str, str]) -> Reply:
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in {**fields, "csrf_token": self.token or ""}.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for filename, content in files:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{filename}"\r\n'
                         "Content-Type: text/html\r\n\r\n".encode() + content + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        return self.request("POST", path, b"".join(parts),
                            {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def fetch_token(self) -> str:
        reply = self.get("/annotator")
        assert reply.status == 200, (reply.status, reply.text[:500])
        self.token = TOKEN.search(reply.text).group(1)
        return self.token

    def sign_in(self, name: str) -> str:
        """The annotator's name, given through the name form (as a browser does); returns the CSRF token."""
        self.fetch_token()
        reply = self.post_form("/annotator", {"name": name})
        assert reply.status == 302, (reply.status, reply.text[:500])
        return self.token


def healthy(client: Client) -> bool:
    try:
        return client.get("/health").status == 200
    except OSError:
        return False


# --- databases -----------------------------------------------------------------------------------


@dataclass
class Database:
    backend: str
    url: str
    engine: Engine = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.engine = create_engine(self.url, poolclass=NullPool)

    def scalar(self, sql: str, **params: Any) -> Any:
        with self.engine.connect() as connection:
            return connection.execute(text(sql), params).scalar()

    def rows(self, sql: str, **params: Any) -> list[tuple]:
        with self.engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql), params)]

    def job(self, job_id: int) -> dict[str, Any]:
        with self.engine.connect() as connection:
            row = connection.execute(
                text("SELECT status, stage, done, total, errors, error, result FROM job WHERE id = :id"),
                {"id": job_id}).one()
        result = row.result if isinstance(row.result, dict) else json.loads(row.result or "{}")
        return {"status": row.status, "stage": row.stage, "done": row.done, "total": row.total,
                "errors": row.errors, "error": row.error, "result": result}

    def dispose(self) -> None:
        self.engine.dispose()


def _postgres_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=postgres", autocommit=True) as connection:
        connection.execute(sql)


def postgres_available() -> bool:
    try:
        _postgres_admin("SELECT 1")
        return True
    except Exception:
        return False


def redis_available(url: str = REDIS_URL) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except Exception:
        return False


def flush_redis(url: str = REDIS_URL) -> None:
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


class Databases:
    """Databases made for the tests (dropped in `cleanup`): empty ones, and copies of one template
    into which the shared corpus was imported once per run (with whole-page's extractions)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.prefix = f"serving_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        self.serial = itertools.count(1)
        self.made: list[str] = []
        self.templates: dict[str, str] = {}
        self.open: list[Database] = []

    def _name(self, label: str) -> str:
        return f"{self.prefix}_{label}_{next(self.serial)}"

    def empty(self, backend: str) -> Database:
        """A database with no schema yet (a fresh SQLite path, or a new PostgreSQL database)."""
        name = self._name("fresh")
        if backend == "sqlite":
            url = f"sqlite:///{self.root / name}.sqlite"
        else:
            _postgres_admin(f'CREATE DATABASE "{name}"')
            self.made.append(name)
            url = f"{POSTGRES_SERVER}/{name}"
        return self._track(Database(backend, url))

    def with_corpus(self, backend: str) -> Database:
        """A copy of the template holding the imported corpus."""
        template = self._template(backend)
        name = self._name("corpus")
        if backend == "sqlite":
            target = self.root / f"{name}.sqlite"
            with sqlite3.connect(template) as source, sqlite3.connect(target) as copy:
                source.backup(copy)
            source.close()
            copy.close()
            url = f"sqlite:///{target}"
        else:
            _postgres_admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            self.made.append(name)
            url = f"{POSTGRES_SERVER}/{name}"
        return self._track(Database(backend, url))

    def _track(self, database: Database) -> Database:
        self.open.append(database)
        return database

    def _template(self, backend: str) -> str:
        if backend in self.templates:
            return self.templates[backend]
        name = self._name("template")
        instance = self.root / f"{name}-instance"
        if backend == "sqlite":
            found = str(self.root / f"{name}.sqlite")
            url = f"sqlite:///{found}"
        else:
            _postgres_admin(f'CREATE DATABASE "{name}"')
            self.made.append(name)
            found, url = name, f"{POSTGRES_SERVER}/{name}"
        env = goldtext_env(instance, url)
        run_goldtext(["import", str(CORPUS)], env, timeout=300)
        run_goldtext(["extract", "--extractor", "whole-page"], env, timeout=300)
        self.templates[backend] = found
        return found

    def cleanup(self) -> None:
        for database in self.open:
            database.dispose()
        for name in reversed(self.made):
            try:
                _postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except Exception:
                pass
        shutil.rmtree(self.root, ignore_errors=True)


# --- an installed distribution of misbehaving extractors -----------------------------------------


def misbehaving_plugins(folder: Path) -> list[Path]:
    """A distribution registering extractor_fixtures' hang, crash and kill-worker as extractors; the
    PYTHONPATH entries that make it visible to a subprocess."""
    return [installed(folder, "misbehaving", {"hang": "HANG", "crash": "CRASH", "kill-worker": "KILL"}), TESTS]


def corpus_pages(count: int) -> list[tuple[str, bytes]]:
    """`count` pages of the shared corpus as upload files: (NAME.html, the page's bytes)."""
    folders = sorted(p for p in CORPUS.iterdir() if (p / "source.html").is_file())
    return [(f"{folder.name}.html", (folder / "source.html").read_bytes()) for folder in folders[:count]]


@pytest.fixture(scope="session")
def databases(tmp_path_factory):
    """The serving tests' databases (see Databases), dropped at the end of the run: the test modules of one
    process share the corpus's templates, each built once (an import and an extraction of the corpus)."""
    made = Databases(tmp_path_factory.mktemp("databases"))
    try:
        yield made
    finally:
        made.cleanup()


@pytest.fixture
def processes(tmp_path):
    """The test's `goldtext` processes, each stopped with its process group at the end."""
    started = Processes(tmp_path / "logs")
    try:
        yield started
    finally:
        started.cleanup()
