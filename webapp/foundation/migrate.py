"""Schema migrations with Alembic, driven from code (no alembic.ini needed).

`upgrade_once` is what every process calls on first use of the database: a cheap check of the stored
revision, and only when it is behind, the upgrade, under a lock that every process on the same database
shares (a PostgreSQL advisory lock; on SQLite an exclusive lock on a file beside the database), so that
web processes started together never run the schema upgrade at once.
"""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, func, inspect, select, table, text

SCRIPTS = Path(__file__).resolve().parents[1] / "migrations"
ADVISORY_LOCK = 7_404_117  # any fixed number: the PostgreSQL advisory lock key of Goldtext's upgrades


def alembic_config(engine: Engine) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    command.downgrade(alembic_config(engine), revision)


def _schema(engine: Engine) -> dict[str, set[str]]:
    """Table -> column names (Alembic's own table left out)."""
    found = inspect(engine)
    return {name: {c["name"] for c in found.get_columns(name)} for name in found.get_table_names()
            if name != "alembic_version"}


def dropped_by_downgrade(engine: Engine, revision: str) -> list[str]:
    """What taking the schema back to `revision` would drop: each table (with its rows) and each column
    that the schema at `revision` does not have. The schema at `revision` is built in a scratch SQLite
    file, never on the database itself."""
    with tempfile.TemporaryDirectory() as scratch:
        target_engine = create_engine(f"sqlite:///{Path(scratch) / 'target.sqlite'}")
        try:
            if revision != "base":
                upgrade(target_engine, revision)
            target = _schema(target_engine)
        finally:
            target_engine.dispose()
    now = _schema(engine)
    dropped = []
    with engine.connect() as connection:
        for name in sorted(set(now) - set(target)):
            rows = connection.scalar(select(func.count()).select_from(table(name)))
            dropped.append(f"table {name} ({rows} row{'s' if rows != 1 else ''})")
        connection.rollback()
    for name in sorted(set(now) & set(target)):
        dropped.extend(f"column {name}.{column}" for column in sorted(now[name] - target[name]))
    return dropped


@cache
def heads() -> frozenset[str]:
    """The newest migrations' revisions, read from the scripts once per process (walking them parses every
    migration file: tens of milliseconds that each new engine would otherwise pay)."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def is_current(engine: Engine) -> bool:
    """Whether the database's schema is at the newest migration."""
    with engine.connect() as connection:
        stored = set(MigrationContext.configure(connection).get_current_heads())
        connection.rollback()
    return stored == heads()


@contextmanager
def upgrade_lock(engine: Engine) -> Iterator[None]:
    """Held by one process at a time across every process using this database."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_LOCK})
            connection.commit()
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK})
                connection.commit()
        return
    database = engine.url.database
    if not database or database == ":memory:":
        yield
        return
    with open(f"{database}.upgrade-lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def upgrade_once(engine: Engine, reader: Engine | None = None) -> None:
    """Bring the schema to the newest migration unless it is there already; one process at a time.
    `reader`: the same database for the check, opened so that it takes no write lock (SQLite)."""
    if is_current(reader or engine):
        return
    with upgrade_lock(engine):
        if not is_current(reader or engine):
            upgrade(engine)
