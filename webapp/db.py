"""Database wiring: one engine and sessionmaker per app, one session per request.

The engine is made on first use, and the schema is brought to the newest migration then (a cheap
version check once per process), so `goldtext run` on a fresh instance just works.
SQLite gets WAL, a busy timeout, foreign keys, and BEGIN IMMEDIATE transactions so that several
workers queue for the write lock instead of failing with "database is locked".
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from flask import Flask, abort, current_app, g
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from .migrate import upgrade

EXTENSION = "goldtext.db"
T = TypeVar("T")


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})
        _sqlite_pragmas(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = None
    app.teardown_appcontext(close_session)


def sessions(app: Flask | None = None) -> sessionmaker[Session]:
    """The app's sessionmaker; the first call makes the engine and upgrades the schema."""
    app = app or current_app._get_current_object()
    maker = app.extensions[EXTENSION]
    if maker is None:
        engine = make_engine(app.config["DATABASE_URL"])
        upgrade(engine)
        maker = sessionmaker(engine, expire_on_commit=False)
        app.extensions[EXTENSION] = maker
    return maker


def get_session() -> Session:
    if "db_session" not in g:
        g.db_session = sessions()()
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def dispose(app: Flask) -> None:
    maker = app.extensions.get(EXTENSION)
    if maker is not None:
        maker.kw["bind"].dispose()
        app.extensions[EXTENSION] = None


def get_or_404(session: Session, model: type[T], ident: int) -> T:
    obj = session.get(model, ident)
    if obj is None:
        abort(404)
    return obj
