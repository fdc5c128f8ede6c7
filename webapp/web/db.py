"""The app's database for the faces: its engine and sessionmakers (engine.py, made on first use), and
one session per request.

`sessions()` opens write sessions, `readers()` read-only ones; a request's session (`get_session`) is a
reader for GET and HEAD, a writer otherwise. `flask_app()` is the app object behind `current_app`, for
what outlives the app context (a server, a worker, a thread).
"""

from __future__ import annotations

from typing import TypeVar, cast

from flask import Flask, abort, current_app, g, has_request_context, request
from sqlalchemy.orm import Session, sessionmaker
from werkzeug.local import LocalProxy

from ..foundation.engine import EXTENSION, Database, database_in, detached
from ..foundation.settings import settings_of

READ_METHODS = ("GET", "HEAD", "OPTIONS")
T = TypeVar("T")


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = None
    app.teardown_appcontext(close_session)


def flask_app() -> Flask:
    """The app object behind `current_app` (Flask's stubs type the proxy as the app itself)."""
    return cast("LocalProxy[Flask]", current_app)._get_current_object()


def database(app: Flask | None = None) -> Database:
    """The app's engine and sessionmakers; the first call makes the engine and upgrades the schema."""
    app = app or flask_app()
    return database_in(app.extensions, settings_of(app).database, app.instance_path)


def sessions(app: Flask | None = None) -> sessionmaker[Session]:
    """Sessions that may write (BEGIN IMMEDIATE on SQLite)."""
    return database(app).writer


def readers(app: Flask | None = None) -> sessionmaker[Session]:
    """Sessions that only read (never the write lock on SQLite)."""
    return database(app).reader


def get_session() -> Session:
    """The request's session: a reader for GET and HEAD, a writer for the methods that change state."""
    if "db_session" not in g:
        maker = readers() if has_request_context() and request.method in READ_METHODS else sessions()
        g.db_session = maker()
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def dispose(app: Flask) -> None:
    detached(app.extensions)


def get_or_404(session: Session, model: type[T], ident: int) -> T:
    obj = session.get(model, ident)
    if obj is None:
        abort(404)
    return obj
