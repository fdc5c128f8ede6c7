"""An outage answers 503 with Retry-After on every route, a page naming what is down, rendered without
touching the database: SQLite's write lock held by another process beyond SQLITE_BUSY_SECONDS, and
PostgreSQL out of reach (behind a forwarder the test cuts), with the login form, a login, the queue, a page
and /health, from the first request a process serves on. The served processes' and the browser's cases
are tests/faces/test_serving_outage.py and tests/browser/test_browser_outage.py."""

from __future__ import annotations

import threading
import time

import pytest
from outage_fixtures import hold_write_lock, postgres_forwarder, through
from serving_fixtures import free_port
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url
from workbench import PASSWORD, add_account, csrf, log_in, make_page, sign_in

from webapp import create_app
from webapp.models import Job
from webapp.web.db import database, dispose, sessions
from webapp.web.error_pages import RETRY_AFTER_SECONDS

pytestmark = pytest.mark.security

BUSY_SECONDS = 1
LOCK_SECONDS = 4


def assert_outage_page(response, part: str = "database") -> None:
    body = response.get_data(as_text=True)
    assert response.status_code == 503, body[:800]
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.mimetype == "text/html"
    assert f"The {part} is unavailable" in body
    assert f"Try again in {RETRY_AFTER_SECONDS} seconds" in body


@pytest.mark.settings(SQLITE_BUSY_SECONDS=BUSY_SECONDS)
def test_a_login_while_another_process_holds_sqlite_s_write_lock_answers_503_after_the_busy_timeout(
        app, client, session):
    if session.get_bind().dialect.name != "sqlite":
        pytest.skip("SQLite's write lock")
    add_account(session, "Ada", "admin")
    token = csrf(client)
    held, released = threading.Event(), threading.Event()
    locker = threading.Thread(target=hold_write_lock,
                              args=(make_url(app.config["DATABASE_URL"]).database, LOCK_SECONDS, held, released))
    locker.start()
    try:
        held.wait(30)
        started = time.monotonic()
        response = client.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": token})
        took = time.monotonic() - started
        assert_outage_page(response)
        assert "database is locked" in response.get_data(as_text=True)
        assert took < LOCK_SECONDS - 1, f"the login waited {took:.1f} s: the lock's whole hold, not the busy timeout"
        health = client.get("/health")
        assert health.status_code == 503 and health.json["database"].startswith("not writable")
    finally:
        released.set()
        locker.join()
    assert client.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": token}).status_code == 302


def test_every_page_and_the_login_answer_503_while_postgresql_is_down_and_the_first_health_too(
        tmp_path, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("the forwarder stands in front of PostgreSQL (SQLite's case is the test above)")
    forwarder = postgres_forwarder()
    instance = tmp_path / "instance"
    instance.mkdir()
    config = {"TESTING": True, "INSTANCE_PATH": str(instance), "SECRET_KEY": "test-secret",
              "DATABASE_URL": through(database_url, forwarder)}
    app = create_app(config)
    fresh = create_app({**config, "INSTANCE_PATH": str(instance)})  # a process that has not used the database yet
    try:
        with sessions(app)() as session:
            page_id = make_page(session).id
            add_account(session, "Ada", "admin")
        client = app.test_client()
        log_in(client, "Ada")
        token = csrf(client)
        forwarder.cut()
        first = fresh.test_client().get("/health")
        assert first.status_code == 503 and first.json["database"].startswith("unreachable: OperationalError")
        assert_outage_page(fresh.test_client().get("/login"))
        for path in ("/", f"/pages/{page_id}", "/login", "/leaderboard", "/jobs"):
            assert_outage_page(client.get(path))
        assert_outage_page(client.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": token}))
        api = client.get(f"/api/pages/{page_id}/gold")
        assert (api.status_code, api.json["down"]) == (503, "database")
        forwarder.restore()
        assert client.get(f"/pages/{page_id}").status_code == 200
    finally:
        forwarder.close()
        dispose(app)
        dispose(fresh)


def test_the_outage_page_touches_no_database(app, client, session, monkeypatch):
    """With every query failing as a stopped database fails, the queue's answer is still the 503 page."""
    from sqlalchemy import event
    from sqlalchemy.exc import OperationalError

    add_account(session, "Ada", "admin")
    log_in(client, "Ada")
    engine = database(app).engine
    queries: list[str] = []

    def refuse(conn, cursor, statement, parameters, context, executemany):
        queries.append(statement)
        raise OperationalError(statement, parameters, ConnectionRefusedError("connection refused"))

    event.listen(engine, "before_cursor_execute", refuse)
    try:
        assert_outage_page(client.get("/"))
        assert_outage_page(client.get("/login"))
    finally:
        event.remove(engine, "before_cursor_execute", refuse)
    assert len(queries) == 2, queries  # the one query of each request, none to render its answer
    session.execute(text("SELECT 1"))


@pytest.mark.settings(BROKER_URL=f"redis://127.0.0.1:{free_port()}/0")
def test_an_export_started_while_the_broker_is_down_answers_503_naming_the_broker_and_keeps_its_job(
        client, session):
    """The job is committed before it is sent: it waits in the database for the broker (the reaper sends
    it once the broker answers), and the page says so."""
    token = sign_in(client)
    response = client.post("/exports", data={"csrf_token": token, "format": "jsonl", "status": "done"})
    assert_outage_page(response, "broker")
    assert "what was saved stays saved" in response.get_data(as_text=True)
    assert session.scalar(select(func.count()).select_from(Job).where(Job.kind == "export")) == 1
