"""Which errors are an outage rather than a fault of the work: the database or the broker down, a
dropped connection, a lock not granted in time. A step that meets one hands its chunk back (it runs
again once the outage ends); any other error fails the job with the reason."""

from __future__ import annotations

import sqlite3

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

BROKER_ERRORS = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError)
SQLITE_OUTAGES = ("locked", "busy", "unable to open", "disk i/o", "disk is full", "readonly")
"""What an SQLite OperationalError says when the file is out of reach; its others ("no such column")
are faults of the code, which fail the job rather than run it again and again."""


def is_outage(error: BaseException) -> bool:
    if isinstance(error, sqlite3.OperationalError) or (
            isinstance(error, OperationalError) and isinstance(error.orig, sqlite3.OperationalError)):
        return any(word in str(getattr(error, "orig", None) or error).lower() for word in SQLITE_OUTAGES)
    if isinstance(error, (OperationalError, InterfaceError)):
        return True
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, BROKER_ERRORS)


def part_of(error: BaseException) -> str:
    """'database' or 'broker': what was out."""
    return "database" if isinstance(error, DBAPIError) else "broker"


def brief(error: BaseException) -> str:
    """The error's kind and the first line of its message, without the SQL statement SQLAlchemy adds."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0] if lines else ''}".strip().rstrip(":")
