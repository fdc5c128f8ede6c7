"""Whether a JSON column's object has a key, in SQL, on each database Goldtext runs on: SQLite's
`json_type(column, '$."key"') IS NOT NULL` (`json_type` is 'null' for a key whose value is null, NULL for a key
that is absent) and PostgreSQL's `CAST(column AS JSONB) ? 'key'`. An article's metadata tells "not given" (the
key absent) from "none on the page" (the key's value null) this way (annotation/article_metadata.py)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Boolean
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.expression import ColumnElement, FunctionElement


class HasKey(FunctionElement):
    """The column's JSON object has the key (its value null or not). The key and its SQLite path are both bound
    parameters, so that a statement cached for one key is never run for another."""

    type = Boolean()
    inherit_cache = True
    name = "has_key"


def has_key(column: Any, key: str) -> ColumnElement[bool]:
    """`has_key(Gold.article_metadata, "title")`: true where the column's object has the key "title"."""
    return HasKey(column, key, "$." + json.dumps(key))


@compiles(HasKey)
def _sqlite(element: HasKey, compiler: Any, **kw: Any) -> str:
    column, _key, path = list(element.clauses)
    return f"(json_type({compiler.process(column, **kw)}, {compiler.process(path, **kw)}) IS NOT NULL)"


@compiles(HasKey, "postgresql")
def _postgresql(element: HasKey, compiler: Any, **kw: Any) -> str:
    column, key, _path = list(element.clauses)
    return f"(CAST({compiler.process(column, **kw)} AS JSONB) ? {compiler.process(key, **kw)})"
