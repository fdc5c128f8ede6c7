"""Rows written straight into the tables of an older schema, for the migrations' own tests (the models
describe only the newest one)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, DateTime, LargeBinary, column
from sqlalchemy import table as sa_table

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def insert_row(conn, name: str, **values) -> int:
    """One row, written with the column types its values need; its id."""
    def typed(value):
        return {dict: JSON, list: JSON, datetime: DateTime(timezone=True), bytes: LargeBinary}.get(type(value))
    table = sa_table(name, *(column(key, typed(value)) for key, value in values.items()), column("id"))
    return conn.execute(table.insert().values(**values).returning(table.c.id)).scalar_one()


def one_page(conn) -> int:
    """A site, an import batch and one page of it; the page's id."""
    site = insert_row(conn, "site", host="a.example")
    batch = insert_row(conn, "import_batch", source="s", format="folder", created_at=NOW, imported=1, duplicates=0,
                       rejected=0, report=[])
    return insert_row(conn, "page", url=None, site_id=site, batch_id=batch, source_name="p", raw=b"<p>x</p>",
                      sha256="0" * 64, encoding="utf-8", encoding_source="meta", html="<p>x</p>", facts={},
                      created_at=NOW)
