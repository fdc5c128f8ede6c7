"""An outage under a real `goldtext serve` (gunicorn), mid-session: a user logged in, then PostgreSQL goes
away (a forwarder in front of it, cut) or another process holds SQLite's write lock beyond
SQLITE_BUSY_SECONDS. Every page, the login and /health answer 503 with Retry-After and a page naming the
database, within the busy timeout, and the server serves on once the database is back, with nothing lost.
The helpers are serving_fixtures.py's and outage_fixtures.py's."""

from __future__ import annotations

import os
import re
import threading
import time

import pytest
from outage_fixtures import hold_write_lock, postgres_forwarder, through
from serving_fixtures import Client, Reply, free_port, goldtext_env, healthy, postgres_available, run_goldtext, wait_for
from sqlalchemy.engine import make_url

pytestmark = pytest.mark.slow

PASSWORD = "correct horse battery"
TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')
BUSY_SECONDS = 2
LOCK_SECONDS = 10


def assert_outage(reply: Reply, what: str) -> None:
    assert reply.status == 503, (what, reply.status, reply.text[:600])
    assert reply.headers.get("retry-after") == "5", (what, reply.headers)
    assert "The database is unavailable" in reply.text, (what, reply.text[:600])


def started(processes, tmp_path, url: str) -> Client:
    """A served Goldtext on `url` with an admin, Ada, logged in through the login form."""
    instance = tmp_path / "instance"
    instance.mkdir()
    env = goldtext_env(instance, url, SQLITE_BUSY_SECONDS=BUSY_SECONDS)
    secret = tmp_path / "password"
    secret.write_text(PASSWORD)
    run_goldtext(["users", "add", "Ada", "--role", "admin", "--password-file", str(secret)], env)
    port = free_port()
    proc = processes.start("serve", ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
                                     "--no-worker"], env)
    client = Client(port, timeout=30)
    wait_for(lambda: healthy(client), 120, "the server to answer /health", interval=0.2, alive=[proc])
    log_in(client)
    queue = client.get("/")
    assert queue.status == 200
    client.token = TOKEN.search(queue.text).group(1)  # the logged-in session's
    return client


def log_in(client: Client) -> Reply:
    client.token = TOKEN.search(client.get("/login").text).group(1)
    return client.post_form("/login", {"name": "Ada", "password": PASSWORD})


def test_a_served_goldtext_answers_503_everywhere_while_postgresql_is_down_mid_session(
        tmp_path, processes, databases):
    if not postgres_available() and not os.environ.get("CI"):
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1 (in CI it is, and this test runs)")
    forwarder = postgres_forwarder()
    try:
        db = databases.empty("postgresql")
        client = started(processes, tmp_path, through(db.url, forwarder))
        forwarder.cut()
        for path in ("/", "/login", "/pages/1", "/leaderboard", "/jobs", "/audit"):
            assert_outage(client.get(path), path)
        assert_outage(client.post_form("/login", {"name": "Ada", "password": PASSWORD}), "POST /login")
        assert_outage(client.post_form("/logout", {}), "POST /logout")
        client.token = "stale"  # an error page (a wrong CSRF token, 400) asks who is logged in: the outage answers
        assert_outage(client.post_form("/login", {"name": "Ada", "password": PASSWORD}), "POST /login, stale token")
        health = client.get("/health")
        assert health.status == 503 and health.json()["database"].startswith("unreachable: "), health.text
        forwarder.restore()
        wait_for(lambda: client.get("/").status == 200, 30, "the queue to answer once PostgreSQL is back")
        assert log_in(client).status == 302
    finally:
        forwarder.close()


def test_a_served_goldtext_answers_503_to_a_login_while_another_process_holds_sqlite_s_lock(
        tmp_path, processes, databases):
    db = databases.empty("sqlite")
    client = started(processes, tmp_path, db.url)
    held = threading.Event()
    locker = threading.Thread(target=hold_write_lock, args=(make_url(db.url).database, LOCK_SECONDS, held))
    locker.start()
    try:
        held.wait(30)
        begun = time.monotonic()
        reply = log_in(client)
        took = time.monotonic() - begun
        assert_outage(reply, "POST /login")
        assert "database is locked" in reply.text
        assert took < LOCK_SECONDS / 2, f"the login took {took:.1f} s: it waited for the lock, not the busy timeout"
        assert client.get("/health").status == 503
        assert client.get("/").status == 200  # reading never waits for the write lock (WAL)
    finally:
        locker.join()
    assert log_in(client).status == 302
