"""Which errors are an outage rather than a fault of the work: the database or the broker down, a
dropped connection, a lock not granted in time. A step that meets one hands its chunk back (it runs
again once the outage ends); any other error fails the job with the reason."""

from __future__ import annotations

import sqlite3

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

BROKER_ERRORS = (RedisConnectionError, RedisTimeoutError, sqlite3.OperationalError, ConnectionError, TimeoutError)


def is_outage(error: BaseException) -> bool:
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
