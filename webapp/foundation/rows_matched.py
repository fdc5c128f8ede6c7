"""How many rows an UPDATE or DELETE matched: SQLAlchemy types `session.execute` as a plain `Result`, while
a DML statement's result is a `CursorResult`, which counts them."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy.engine import CursorResult, Result


def rows_matched(result: Result[Any]) -> int:
    """The rows the UPDATE or DELETE that gave `result` matched (0 where the driver does not say)."""
    return cast(CursorResult[Any], result).rowcount or 0
