"""What `/health` checks: that the database takes a write within a short bound (a transaction that
takes the write lock and is rolled back: SQLite's `BEGIN IMMEDIATE` with a short busy timeout,
PostgreSQL's row lock on the score epoch under short statement and lock timeouts), and that the broker
answers. Each part is "ok" or says what failed."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine

from .broker import Broker
from .outages import brief

WRITE_SECONDS = 2


def database_writable(found: Callable[[], Engine]) -> str:
    """`found` gives the engine: its first call in a process also brings the schema up to date, which
    reaches the database too (an outage then is "unreachable", not an error of the check)."""
    try:
        engine = found()
        raw = engine.raw_connection()
    except Exception as error:
        return f"unreachable: {brief(error)}"
    try:
        _write_and_roll_back(raw, engine.dialect.name)
    except Exception as error:
        return f"not writable within {WRITE_SECONDS} s: {brief(error)}"
    finally:
        raw.close()  # back to the pool, rolled back
    return "ok"


def _write_and_roll_back(raw, dialect: str) -> None:
    cursor = raw.cursor()
    try:
        if dialect == "sqlite":
            # the connection goes back to the pool: it keeps the busy timeout it had (SQLITE_BUSY_SECONDS)
            kept = cursor.execute("PRAGMA busy_timeout").fetchone()[0]
            cursor.execute(f"PRAGMA busy_timeout={min(WRITE_SECONDS * 1000, kept)}")
            try:
                cursor.execute("BEGIN IMMEDIATE")
                cursor.execute("ROLLBACK")
            finally:
                cursor.execute(f"PRAGMA busy_timeout={kept}")
        else:
            cursor.execute(f"SET LOCAL statement_timeout = {WRITE_SECONDS * 1000}")
            cursor.execute(f"SET LOCAL lock_timeout = {WRITE_SECONDS * 1000 - 500}")  # a lock, named as such
            cursor.execute("UPDATE score_epoch SET value = value")
            raw.rollback()
    finally:
        cursor.close()


def broker_reachable(found: Callable[[], Broker]) -> str:
    try:
        found().reachable()
    except Exception as error:
        return f"unreachable: {brief(error)}"
    return "ok"
