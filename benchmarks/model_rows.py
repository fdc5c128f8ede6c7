"""Rows for the benchmarks' bulk Core INSERTs, made like the app's own rows.

A synthetic corpus of 100,000 pages is written with `session.execute(insert(Model), rows)`: one statement per
chunk, not one ORM object per row. Such an INSERT ignores a key that names no column and fails on a
required column left out, so a renamed or added column once broke the benchmarks far from its cause. Here
every row is checked against its model (a key that is no column, or a required column missing, is an error
naming both), and the rows of a table the app writes through its own code are copied from one row that code
made (`Like`): a column the app sets is set in the copies too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import inspect


def _columns(model: type) -> dict[str, Any]:
    return {attr.key: attr.columns[0] for attr in inspect(model).column_attrs}


def _required(model: type) -> set[str]:
    """The columns an INSERT must name: not nullable, with no default of either side, and no autoincrement key."""
    return {
        key for key, column in _columns(model).items()
        if not column.nullable and column.default is None and column.server_default is None
        and not (column.primary_key and column.autoincrement in (True, "auto"))
    }


def checked(model: type, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows, each of whose keys names a column of `model` and which name every required column."""
    columns, required = set(_columns(model)), _required(model)
    found, seen = list(rows), set()
    for row in found:
        keys = frozenset(row)
        if keys in seen:
            continue
        seen.add(keys)
        if unknown := sorted(keys - columns):
            raise ValueError(f"{model.__name__} has no column {', '.join(unknown)}")
        if missing := sorted(required - keys):
            raise ValueError(f"{model.__name__} rows must set {', '.join(missing)} (a required column)")
    return found


class Like:
    """Rows like one the app's code stored (`instance`: every column's value, its primary key left out),
    each with the changes given."""

    def __init__(self, instance: Any) -> None:
        self.model = type(instance)
        self.columns = set(_columns(self.model))
        key = {column.key for column in inspect(self.model).primary_key}
        self.values = {name: getattr(instance, name) for name in self.columns if name not in key}

    def row(self, **changes: Any) -> dict[str, Any]:
        if unknown := sorted(set(changes) - self.columns):
            raise ValueError(f"{self.model.__name__} has no column {', '.join(unknown)}")
        return self.values | changes
