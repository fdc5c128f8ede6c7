"""Fixtures of the browser tests: the app on a real local server, and Debian's Chromium via Playwright.

Without /usr/bin/chromium the browser tests are skipped locally, and fail when CI=true.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from served import served
from werkzeug.serving import make_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]


def serve(app) -> Iterator[str]:
    """Serve the WSGI app on 127.0.0.1 at a free port in a thread; yields its base URL."""
    with served(make_server("127.0.0.1", 0, app, threaded=True)) as server:
        yield f"http://127.0.0.1:{server.server_port}"


@pytest.fixture
def live_server(app) -> Iterator[str]:
    yield from serve(app)


@pytest.fixture(scope="session")
def browser():
    """One Chromium per test process (conftest.py registers this module as a plugin); each test makes its own
    context, so no cookie or storage passes from one to the next."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: the browser tests must run in CI")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture
def laptop(browser):
    """A context with a 1366x768 window: the smallest screen the annotate view must be usable on."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    yield context
    context.close()


def signed_in(context, base: str, name: str = "Ann"):
    """A new tab of the context whose session has an annotator's name."""
    page = context.new_page()
    page.goto(f"{base}/annotator")
    page.fill("input[name=name]", name)
    page.click("button[type=submit]")
    return page


def logged_in_by_keyboard(context, base: str, name: str, password: str):
    """A new tab of the context, logged in as `name` through the login form by keyboard alone (the name
    field has the focus: autofocus)."""
    tab = context.new_page()
    tab.goto(f"{base}/login")
    until(tab, "document.activeElement?.name === 'name'")
    tab.keyboard.type(name)
    tab.keyboard.press("Tab")
    tab.keyboard.type(password)
    tab.keyboard.press("Enter")
    tab.wait_for_url(lambda url: "/login" not in url)
    return tab


def until(tab, expression: str, timeout: float = 10.0) -> None:
    """Wait until the tab's `expression` is true (AssertionError after `timeout` seconds). While the tab
    navigates, the new document may have no body yet or the old context may be gone: such a moment counts
    as false, and the last error is named if the expression never comes true."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    guarded = f"(() => {{ try {{ return [!!({expression}), null]; }} catch (e) {{ return [false, String(e)]; }} }})()"
    last_error = None
    while True:
        try:
            done, last_error = tab.evaluate(guarded)
        except PlaywrightError as error:  # the execution context was destroyed by a navigation
            done, last_error = False, str(error)
        if done:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}"
                                 + (f" (last error: {last_error})" if last_error else ""))
        tab.wait_for_timeout(50)
