"""The demo corpus, built once per test run by the real command (`goldtext demo --no-serve`), for every
test that needs it.

`demo_app`: an app on the shared demo database, for tests that only read it (one app per test module).
Its counts of the slow metrics (ROUGE) are computed too (`goldtext score --metric M`), so that reading
leaves nothing to compute. When the module ends, the database must be exactly as it was made (a digest
of every table): a test that wrote to it fails there, naming the tables it changed.
`demo_copy`: a private copy of the demo as `goldtext demo --no-serve` leaves it, for a test that changes
it (made from the built database, never from the shared one, so no test's writes leak into another's).

SQLite: files in the run's temporary folder, the built demo and the shared database made once for the whole
run (made_once.py: under pytest-xdist the first process to need them makes them, the others wait and read),
the private copies in each process's own folder. PostgreSQL (GOLDTEXT_TEST_DATABASE_URL): databases of
their own beside the test database (NAME_demo_build, NAME_demo_shared, NAME_demo_copy_N), never the one that
conftest.py empties before each test; all are dropped when the run ends.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from made_once import made_once
from sqlalchemy import create_engine, make_url, select, text
from sqlalchemy.engine import Engine

from webapp import create_app
from webapp.foundation.engine import WRITES, make_engine, sqlite_path
from webapp.models import Base
from webapp.scoring import build_metrics
from webapp.web.db import dispose

TEST_DATABASE_URL = os.environ.get("GOLDTEXT_TEST_DATABASE_URL")  # as conftest.py reads it


def digest(url: str) -> dict[str, str]:
    """table -> sha256 of its rows in primary-key order."""
    engine = make_engine(url)
    found = {}
    try:
        with engine.execution_options(**{WRITES: False}).connect() as connection:
            for table in Base.metadata.sorted_tables:
                rows = connection.execute(select(table).order_by(*table.primary_key.columns))
                found[table.name] = hashlib.sha256(repr(rows.all()).encode()).hexdigest()
    finally:
        engine.dispose()
    return found


def demo_app_on(url: str, instance: Path):
    instance.mkdir(parents=True, exist_ok=True)
    return create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "DATABASE_URL": url,
                       "SECRET_KEY": "test-secret", "EXTRACT_TIMEOUT": 60.0})


def run_commands(url: str, instance: Path, *commands: list[str]) -> None:
    """`goldtext COMMAND` for each command, on the database."""
    app = demo_app_on(url, instance)
    try:
        for args in commands:
            result = app.test_cli_runner().invoke(args=args)
            assert result.exit_code == 0, f"goldtext {' '.join(args)}: {result.output}{result.exception!r}"
    finally:
        dispose(app)


def sqlite_copy(url: str, target: Path) -> str:
    """The URL of a new SQLite file `target` holding what the database at `url` holds."""
    with sqlite3.connect(sqlite_path(url)) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    source.close()
    copy.close()
    return f"sqlite:///{target}"


@dataclass
class DemoDatabases:
    """The built demo (`built`, opened only to copy it) and the copies made of it."""

    root: Path  # this process's own folder (the copies)
    built: str = ""
    serial: itertools.count = field(default_factory=lambda: itertools.count(1))
    made: list[str] = field(default_factory=list)  # PostgreSQL databases to drop at the end

    # --- PostgreSQL -------------------------------------------------------------------------------

    def _admin(self) -> Engine:
        server = make_url(TEST_DATABASE_URL).set(database="postgres")
        return create_engine(server, isolation_level="AUTOCOMMIT")

    def _pg_name(self, label: str) -> str:
        return f"{make_url(TEST_DATABASE_URL).database}_demo_{label}"

    def _pg_url(self, name: str) -> str:
        return make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False)

    def _pg_create(self, name: str, template: str | None = None) -> str:
        engine = self._admin()
        with engine.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")))
        engine.dispose()
        self.made.append(name)
        return self._pg_url(name)

    def _pg_drop(self, name: str) -> None:
        engine = self._admin()
        with engine.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()
        self.made.remove(name)

    # --- both -------------------------------------------------------------------------------------

    def build(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        if TEST_DATABASE_URL:
            self.built = self._pg_create(self._pg_name("build"))
            run_commands(self.built, self.root / "build-instance", ["demo", "--no-serve"])
            return

        def make(folder: Path) -> None:
            run_commands(f"sqlite:///{folder / 'demo.sqlite'}", folder / "instance", ["demo", "--no-serve"])

        self.built = f"sqlite:///{made_once(tmp_path_factory, 'demo-build', make) / 'demo.sqlite'}"

    def copy(self, label: str | None = None) -> str:
        """A new database holding what `build` made."""
        label = label or f"copy_{next(self.serial)}"
        if TEST_DATABASE_URL:
            return self._pg_create(self._pg_name(label), template=make_url(self.built).database)
        return sqlite_copy(self.built, self.root / f"demo-{label}.sqlite")

    def drop(self, url: str) -> None:
        if TEST_DATABASE_URL:
            self._pg_drop(make_url(url).database)
        else:
            path = Path(sqlite_path(url))
            for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                leftover.unlink(missing_ok=True)

    def cleanup(self) -> None:
        for name in list(reversed(self.made)):
            self._pg_drop(name)


@pytest.fixture(scope="session")
def demo_databases(tmp_path_factory) -> Iterator[DemoDatabases]:
    databases = DemoDatabases(tmp_path_factory.mktemp("demo"))
    try:
        databases.build(tmp_path_factory)
        yield databases
    finally:
        databases.cleanup()


@dataclass(frozen=True)
class SharedDemo:
    url: str
    as_made: dict[str, str]  # its digest once made


def score_every_metric(url: str, instance: Path) -> None:
    available = [name for name, metric in build_metrics().items() if metric.available]
    run_commands(url, instance, *[["score", "--metric", name, "--bootstrap", "0"] for name in available])


@pytest.fixture(scope="session")
def demo_shared(demo_databases, tmp_path_factory) -> SharedDemo:
    """The database the reading tests share: a copy of the demo with every metric's counts computed."""
    if TEST_DATABASE_URL:
        url = demo_databases.copy("shared")
        score_every_metric(url, demo_databases.root / "shared-instance")
        return SharedDemo(url, digest(url))

    def make(folder: Path) -> None:
        score_every_metric(sqlite_copy(demo_databases.built, folder / "shared.sqlite"), folder / "instance")

    url = f"sqlite:///{made_once(tmp_path_factory, 'demo-shared', make) / 'shared.sqlite'}"
    return SharedDemo(url, digest(url))


@pytest.fixture(scope="module")
def demo_app(demo_shared, tmp_path_factory):
    """An app on the shared demo database (15 pages, 10 of them articles with gold, every built-in
    extractor's extraction and every metric's counts). Read it; never change it."""
    app = demo_app_on(demo_shared.url, tmp_path_factory.mktemp("demo-instance"))
    yield app
    dispose(app)
    now = digest(demo_shared.url)
    changed = sorted(name for name, value in now.items() if demo_shared.as_made[name] != value)
    assert not changed, f"a test of this module changed the shared demo database (tables {changed}): " \
                        "a test that writes takes `demo_copy`"


@pytest.fixture
def demo_copy(demo_databases) -> Iterator[str]:
    """The URL of a private copy of the demo database, dropped after the test."""
    url = demo_databases.copy()
    yield url
    demo_databases.drop(url)
