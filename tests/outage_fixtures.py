"""Real outages for the tests: PostgreSQL behind a forwarder the test cuts (forwarder.py), and SQLite's
write lock held by another connection, as another process holds it."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from forwarder import Forwarder
from serving_fixtures import postgres_available
from sqlalchemy.engine import make_url


def postgres_forwarder() -> Forwarder:
    if not postgres_available():
        pytest.fail("PostgreSQL is not reachable on 127.0.0.1:5432")
    return Forwarder(("127.0.0.1", 5432))


def through(url: str, forwarder: Forwarder) -> str:
    return make_url(url).set(port=forwarder.port).render_as_string(hide_password=False)


def hold_write_lock(path: str, seconds: float, held: threading.Event,
                    released: threading.Event | None = None) -> None:
    """An external writer holding SQLite's write lock for `seconds`, or until `released` is set."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("BEGIN EXCLUSIVE")
        held.set()
        (released or threading.Event()).wait(seconds)
        connection.execute("ROLLBACK")
    finally:
        connection.close()
