"""A database: one engine and two sessionmakers on it, writers and readers. Knows no Flask: the faces
(db.py) and the job system (jobs/host.py) keep one per app in the app's `extensions`.

On SQLite a writer's transaction begins with `BEGIN IMMEDIATE` (it queues for the write lock at once,
instead of failing with "database is locked" when a read turns into a write), a reader's with a plain
deferred `BEGIN`, which in WAL mode never takes the write lock. WAL, a busy timeout (`SQLITE_BUSY_SECONDS`:
how long a write waits for another process's write lock before it fails with "database is locked") and
foreign keys are set on every connection.

The engine is made on first use, and the schema is brought to the newest migration then, once per
process and under a lock shared by every process on the database (see `migrate.upgrade_once`). A forked
child (gunicorn's web processes, the extractor worker processes) never reuses a connection of its parent:
the pool is discarded in the child right after the fork.
"""

from __future__ import annotations

import os
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from .migrate import upgrade_once

EXTENSION = "goldtext.db"
"""Where an app keeps its Database among its extensions (None until its first use)."""
WRITES = "goldtext_writes"
BUSY_SECONDS = 30.0
"""SQLite's busy timeout unless the settings say otherwise (SQLITE_BUSY_SECONDS)."""
AUDIT_HEAD = "audit_head"
"""Where a session's `info` names the audit log's checkpoint file (accounts/audit_head.py)."""
AUDIT_HEAD_FILE = "audit-head.json"
"""The checkpoint's file in the instance folder."""


@dataclass(frozen=True)
class DatabaseAddress:
    """Where the database is (DATABASE_URL), and how long a write waits for SQLite's lock (SQLITE_BUSY_SECONDS)."""

    url: str
    busy_seconds: float = BUSY_SECONDS


@dataclass(frozen=True)
class Database:
    engine: Engine
    writer: sessionmaker[Session]
    reader: sessionmaker[Session]


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL, None for any other database or an in-memory one."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[-1]
    return path if path and path != ":memory:" else None


def private_file(path: Path) -> None:
    """Create the file readable and writable by its owner only (0600, whatever the umask), unless it
    exists. An SQLite database made this way gives its -wal and -shm files the same mode (SQLite copies
    the database's), so password hashes and token digests are not readable by the machine's other users."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


def make_engine(url: str, busy_seconds: float = BUSY_SECONDS) -> Engine:
    """The engine of `url`; on SQLite a write waits up to `busy_seconds` for another process's write lock."""
    if url.startswith("sqlite"):
        path = sqlite_path(url)
        if path:
            private_file(Path(path))
        engine = create_engine(url, connect_args={"timeout": busy_seconds})
        _sqlite_pragmas(engine, busy_seconds)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    _discard_pool_after_fork(engine)
    return engine


def _sqlite_pragmas(engine: Engine, busy_seconds: float) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={round(busy_seconds * 1000)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection) -> None:
        writes = connection.get_execution_options().get(WRITES, True)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def _discard_pool_after_fork(engine: Engine) -> None:
    """A child process gets a fresh pool: sharing a connection across fork corrupts it (SQLAlchemy's
    advice: dispose with close=False in the child, leaving the parent's connections alone)."""
    ref = weakref.ref(engine)

    def after_fork() -> None:
        alive = ref()
        if alive is not None:
            alive.dispose(close=False)

    os.register_at_fork(after_in_child=after_fork)


def configured_engine(address: DatabaseAddress) -> Engine:
    """The engine the settings name: DATABASE_URL, with SQLITE_BUSY_SECONDS on SQLite."""
    return make_engine(address.url, address.busy_seconds)


def database_in(extensions: dict[str, Any], address: DatabaseAddress, instance_path: str) -> Database:
    """The Database kept in `extensions`, made on the first call at the settings' address (the engine,
    and the schema upgraded); its sessions name the audit log's checkpoint in the instance folder."""
    found = extensions.get(EXTENSION)
    if found is None:
        engine = configured_engine(address)
        reading = engine.execution_options(**{WRITES: False})
        upgrade_once(engine, reading)
        info = {AUDIT_HEAD: Path(instance_path) / AUDIT_HEAD_FILE}
        found = Database(
            engine,
            writer=sessionmaker(engine.execution_options(**{WRITES: True}), expire_on_commit=False, info=info),
            reader=sessionmaker(reading, expire_on_commit=False, info=info),
        )
        extensions[EXTENSION] = found
    return found


def detached(extensions: dict[str, Any]) -> None:
    """Close the kept Database's connections and forget it (the next use makes it again)."""
    found = extensions.get(EXTENSION)
    if found is not None:
        found.engine.dispose()
        extensions[EXTENSION] = None
