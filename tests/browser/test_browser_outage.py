"""An outage in Chromium, mid-session: Ada is logged in, then the database goes away (SQLite: another
process holds the write lock beyond SQLITE_BUSY_SECONDS; PostgreSQL: a forwarder in front of it, cut). The
browser shows a 503 page saying the database is unavailable, and the next try once it is back works."""

from __future__ import annotations

import threading

import pytest
from browser_fixtures import serve
from outage_fixtures import hold_write_lock, postgres_forwarder, through
from sqlalchemy.engine import make_url
from workbench import PASSWORD, add_account, make_page

from webapp import create_app
from webapp.web.db import dispose, sessions

pytestmark = pytest.mark.browser


def log_in(tab, base: str):
    tab.goto(f"{base}/login")
    tab.fill("input[name=name]", "Ada")
    tab.fill("input[name=password]", PASSWORD)
    with tab.expect_navigation() as answer:
        tab.click("button[type=submit]")
    return answer.value


def assert_outage_shown(tab, response) -> None:
    assert response.status == 503 and response.headers["retry-after"] == "5"
    assert tab.get_by_role("heading", level=1).inner_text() == "The database is unavailable"
    assert "Try again in 5 seconds" in tab.locator("#outage").inner_text()


def test_an_outage_mid_session_shows_the_browser_a_503_page_naming_the_database(browser, tmp_path, database_url):
    forwarder = postgres_forwarder() if database_url.startswith("postgresql") else None
    instance = tmp_path / "instance"
    instance.mkdir()
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "SECRET_KEY": "test-secret",
                      "SQLITE_BUSY_SECONDS": 1,
                      "DATABASE_URL": through(database_url, forwarder) if forwarder else database_url})
    context = browser.new_context()
    try:
        with sessions(app)() as session:
            page_id = make_page(session, "<html><body><p>Harbour news</p></body></html>").id
            add_account(session, "Ada", "admin")
        for base in serve(app):
            tab = context.new_page()
            assert log_in(tab, base).status == 200  # the queue, after the login's redirect
            if forwarder is not None:
                forwarder.cut()
                assert_outage_shown(tab, tab.goto(f"{base}/pages/{page_id}"))
                assert_outage_shown(tab, tab.goto(f"{base}/login"))
                forwarder.restore()
            else:
                held = threading.Event()
                locker = threading.Thread(target=hold_write_lock,
                                          args=(make_url(database_url).database, 4, held))
                locker.start()
                held.wait(30)
                assert_outage_shown(tab, log_in(tab, base))
                locker.join()
            assert tab.goto(f"{base}/pages/{page_id}").status == 200
            assert log_in(tab, base).status == 200
    finally:
        context.close()
        if forwarder is not None:
            forwarder.close()
        dispose(app)
