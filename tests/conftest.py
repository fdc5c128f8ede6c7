"""Fixtures: app, client, runner and a session, on SQLite (default) or the database named by
GOLDTEXT_TEST_DATABASE_URL (PostgreSQL in CI), always on a clean schema. The browser fixtures and the
shared demo corpus are plugins of their own (browser_fixtures.py, demo_fixtures.py), and so are the serving
tests' processes and databases (serving_fixtures.py); compiled Python is kept between runs
(bytecode_cache.py).

A test marked `corpus` reads the shared real-page corpora (corpora.py says where): without them it is
skipped on a developer's machine and fails in CI (CI=true), as the browser tests do without Chromium."""

from __future__ import annotations

# isort: off
import bytecode_cache  # noqa: F401  first: what the run imports from here on is compiled into its cache
# isort: on
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from app_factory import make_test_app
from argon2 import PasswordHasher
from corpora import CORPORA, READABILITY_PAGES
from draining import drain
from flask import Flask
from sqlalchemy import make_url, select, text

from webapp.accounts import users
from webapp.foundation.engine import make_engine
from webapp.foundation.migrate import upgrade
from webapp.models import Extraction, Page
from webapp.web.db import dispose, sessions

pytest_plugins = ["process_caches", "browser_fixtures", "demo_fixtures", "serving_fixtures"]


def _worker_database_url(url: str | None) -> str | None:
    """Under pytest-xdist each worker runs on a database of its own beside the named one (`test` gives
    `test_gw0`, `test_gw1`), so that one worker's clean schema never wipes the other's tables."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    named = make_url(url)
    return named.set(database=f"{named.database}_{worker}").render_as_string(hide_password=False)


TEST_DATABASE_URL = _worker_database_url(os.environ.get("GOLDTEXT_TEST_DATABASE_URL"))
if TEST_DATABASE_URL:  # the demo corpus's databases (demo_fixtures.py) are named after this one
    os.environ["GOLDTEXT_TEST_DATABASE_URL"] = TEST_DATABASE_URL


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow (minutes each: whole corpora, real servers) run first, in their order: under
    pytest-xdist the short tests then fill both processes to the end, instead of one process running a long
    test alone while the other waits."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_collection_modifyitems_xdist_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """xdist_group on pytest 9: pytest-xdist 3.8 names a test's group by writing `item._nodeid`, which pytest 9
    no longer reads (the id is `item._id`), so both processes ran the tests of a group, each building its
    session fixtures (the Readability pages extracted twice, the wheel built twice in one checkout). A worker
    gives the id the group's suffix itself where xdist's write did not take."""
    if not config.getoption("loadgroup", False):  # set in the workers of pytest-xdist only
        return
    for item in items:
        names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                        for mark in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid and hasattr(item, "_id"):
            from _pytest.nodeid import NodeId

            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture of a `corpus` test: its folders of the shared corpora must be there."""
    for mark in item.iter_markers("corpus"):
        for folder in [CORPORA / name for name in mark.args] or [CORPORA]:
            if not folder.is_dir():
                if os.environ.get("CI") == "true":
                    pytest.fail(f"{folder} is missing: the corpus tests must run in CI", pytrace=False)
                pytest.skip(f"{folder} is missing (the shared corpora; GOLDTEXT_SHARED_CORPORA names another place)")


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashes():
    """Argon2id at its smallest cost in the test process: the default costs about 0.3 s of CPU a hash,
    and tests log in often. The hashes are still Argon2's, checked by the same code. Set for the whole run,
    so that the worlds built once per module (database_copies.py) have it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(users, "HASHER", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
        yield


def _on_server(url: str, *statements: str) -> None:
    """Run `statements` (about the database `url` names, as {name}) on its server, outside a transaction."""
    name = make_url(url).database
    server = make_engine(make_url(url).set(database="postgres").render_as_string(hide_password=False))
    with server.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        for statement in statements:
            conn.execute(text(statement.format(name=name)))
    server.dispose()


def _create_database(url: str) -> None:
    """Make the database `url` names on its server (a worker's own), empty; any earlier one is dropped."""
    _on_server(url, 'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', 'CREATE DATABASE "{name}"')


@pytest.fixture(scope="session")
def server_database() -> str | None:
    """The shared test server's database, emptied once per run (None on SQLite); a worker of
    pytest-xdist makes its own."""
    if not TEST_DATABASE_URL:
        return None
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _create_database(TEST_DATABASE_URL)
    engine = make_engine(TEST_DATABASE_URL)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    upgrade(engine)
    engine.dispose()
    return TEST_DATABASE_URL


OWNED_SEQUENCES = """SELECT s.relname FROM pg_class s
JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i') JOIN pg_class t ON t.oid = d.refobjid
WHERE s.relkind = 'S' AND t.relname = ANY(:tables) ORDER BY s.relname"""


@pytest.fixture(scope="session")
def empty_server_tables(server_database):
    """A function emptying every table of the server's database and restarting their ids, as each test
    starts there (None on SQLite). DELETE, not TRUNCATE: TRUNCATE makes every table's files anew, and on
    tables of a few rows that cost about five times as much (measured 0.9 s against 0.17 s a test on the
    loaded 2-core machine); the statements go in one round trip, on a connection kept for the run."""
    if not server_database:
        yield None
        return
    from webapp.models import Base

    tables = [t.name for t in reversed(Base.metadata.sorted_tables) if t.name != "score_epoch"]
    engine = make_engine(server_database)
    with engine.connect() as conn:
        sequences = conn.execute(text(OWNED_SEQUENCES), {"tables": tables}).scalars().all()
    restart = ", ".join(f"setval('\"{name}\"', 1, false)" for name in sequences)
    statements = text("; ".join([*(f'DELETE FROM "{name}"' for name in tables),
                                 "UPDATE score_epoch SET value = 0", f"SELECT {restart}"]))

    def empty() -> None:
        with engine.begin() as conn:
            conn.execute(text("SET LOCAL session_replication_role = replica"))  # the audit log refuses DELETE
            conn.execute(statements)

    yield empty
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_schema(tmp_path_factory) -> Path:
    """A SQLite file at the newest migration, built once per run; each test starts from a copy of it
    (running the migrations per test cost about 0.2 s a test). The migrations' own tests build theirs."""
    path = tmp_path_factory.mktemp("schema") / "schema.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return path


@pytest.fixture
def database_url(tmp_path, server_database, empty_server_tables, request) -> str:
    if server_database:
        empty_server_tables()
        return server_database
    path = tmp_path / "test.sqlite"
    shutil.copyfile(request.getfixturevalue("sqlite_schema"), path)
    return f"sqlite:///{path}"


@pytest.fixture
def app(tmp_path, database_url, request):
    """The app, created with the settings of the test's `settings` marks (the closest last)."""
    marked = {}
    for mark in reversed(list(request.node.iter_markers("settings"))):
        marked.update(mark.kwargs)
    app = make_test_app(tmp_path, database_url, **marked)
    yield app
    dispose(app)


@dataclass(frozen=True)
class Extracted:
    """An app whose database holds a corpus imported and extracted through the commands, and what they printed."""

    app: Flask
    imported: str
    extracted: str

    def stored(self) -> list[tuple[str, str, str | None]]:
        """(page's folder, extractor, error) of every stored extraction."""
        with sessions(self.app)() as session:
            rows = session.execute(select(Page.source_name, Extraction.extractor, Extraction.error)
                                   .join(Extraction.page))
            return [tuple(row) for row in rows]


@pytest.fixture(scope="session")
def readability_extracted(tmp_path_factory, server_database, request):
    """The Readability pages imported by `goldtext import` and extracted by `goldtext extract` (every runnable
    extractor), once per run: the 2,000-odd calls take minutes, and several tests read what came of them (mark
    them xdist_group("readability-extracted") so that they share one run). Its database is its own, beside the
    tests' (a file, or a database of the test server)."""
    folder = tmp_path_factory.mktemp("readability")
    if server_database:
        url = make_url(server_database)
        url = url.set(database=f"{url.database}_readability").render_as_string(hide_password=False)
        _create_database(url)
        engine = make_engine(url)
        upgrade(engine)
        engine.dispose()
    else:
        shutil.copyfile(request.getfixturevalue("sqlite_schema"), folder / "readability.sqlite")
        url = f"sqlite:///{folder / 'readability.sqlite'}"
    app = make_test_app(folder, url)
    runner = app.test_cli_runner()
    imported = runner.invoke(args=["import", str(READABILITY_PAGES)])
    assert imported.exit_code == 0, imported.output + repr(imported.exception)
    extracted = runner.invoke(args=["extract"])
    assert extracted.exit_code == 0, extracted.output + repr(extracted.exception)
    yield Extracted(app, imported.output, extracted.output)
    dispose(app)
    if server_database:
        _on_server(url, 'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def run_jobs(app):
    """Run every queued job to its end in the test's process, with the workers' own code; returns the
    jobs run."""
    return lambda: drain(app)


@pytest.fixture
def session(app):
    with sessions(app)() as session:
        yield session


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def cli(runner, session):
    """Run `goldtext ARGS` (paths welcome), which must succeed, and return what it printed; the test's
    session lets go of the database first (SQLite's BEGIN IMMEDIATE). Modules that read the exit code
    themselves define their own."""

    def invoke(*args) -> str:
        session.rollback()
        result = runner.invoke(args=[str(a) for a in args])
        assert result.exit_code == 0, result.output + repr(result.exception)
        return result.output

    return invoke


@pytest.fixture
def plugin_dist(tmp_path, monkeypatch):
    """Install a fake distribution `goldtext-fake-plugin`: install(source, group, lines) writes its module
    goldtext_fake_plugin (source) and its entry points (lines "name = module:attribute") in the group."""
    dist_info = tmp_path / "goldtext_fake_plugin-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: goldtext-fake-plugin\nVersion: 1.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def install(source: str, group: str, lines: list[str]) -> None:
        (tmp_path / "goldtext_fake_plugin.py").write_text(source)
        (dist_info / "entry_points.txt").write_text(f"[{group}]\n" + "\n".join(lines) + "\n")

    yield install
    sys.modules.pop("goldtext_fake_plugin", None)
