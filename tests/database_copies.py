"""A test module's world (the pages, accounts, jobs and login its tests start from) built once per module and
copied for each test that asks for it, instead of built anew per test: a route walk's world cost about a
third of a second of CPU, and test_security.py walks each route in its own test.

`copied_world(build)` gives a fixture: `build(app, client, session)` makes the world and returns what the
tests read of it (ids, tokens). On SQLite it runs once per module on a database of its own; each test then
starts from a copy of that database file and of its instance folder (the audit log's checkpoint is kept
there), and its client carries the build's cookies (the login). On PostgreSQL (GOLDTEXT_TEST_DATABASE_URL)
a test's database is the process's one, emptied before each test: there the world is built per test, as
before. Either way a test starts from the same world, made by the same code, and writes only to its own."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from app_factory import make_test_app
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from webapp.accounts.devices import COOKIE as DEVICE_COOKIE
from webapp.foundation.engine import EXTENSION, sqlite_path
from webapp.web.db import dispose, sessions

T = TypeVar("T")
Build = Callable[[Flask, FlaskClient, Session], T]


@dataclass(frozen=True)
class Built:
    """The world as its build left it: the SQLite file, the instance folder, the client's cookies."""

    database: Path
    instance: Path
    cookies: tuple[Any, ...]
    made: Any


def build_once(folder: Path, schema: Path, build: Build) -> Built:
    """Run `build` on a fresh copy of the schema in `folder`, with an app, a client and a session of its own."""
    database = folder / "world.sqlite"
    shutil.copyfile(schema, database)
    app = make_test_app(folder, f"sqlite:///{database}")
    client = app.test_client()
    try:
        with sessions(app)() as session:
            made = build(app, client, session)
        kept = (client.get_cookie(name) for name in (app.config["SESSION_COOKIE_NAME"], DEVICE_COOKIE))
        cookies = tuple(cookie for cookie in kept if cookie is not None)
    finally:
        dispose(app)
    return Built(database, folder / "instance", cookies, made)


def copy_into(built: Built, app: Flask, client: FlaskClient) -> Any:
    """Put the built world under the test's app (before the app has opened its database) and the build's
    login in its client; returns what the build made."""
    assert app.extensions.get(EXTENSION) is None, "the world is copied before the app opens its database"
    target = Path(sqlite_path(app.config["DATABASE_URL"]))
    copying = target.with_name(target.name + ".copying")
    shutil.copyfile(built.database, copying)
    os.replace(copying, target)
    shutil.copytree(built.instance, app.instance_path, dirs_exist_ok=True)
    for cookie in built.cookies:
        client.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
    return built.made


def copied_world(build: Build, name: str) -> tuple[Any, Any]:
    """Two fixtures for a test module to keep (`NAME_built, NAME = copied_world(build, "NAME")`): `NAME`
    gives what `build` made, on a world of the test's own (see the module's docstring)."""

    @pytest.fixture(scope="module", name=f"{name}_built")
    def built(tmp_path_factory, server_database, request) -> Built | None:
        if server_database:
            return None
        return build_once(tmp_path_factory.mktemp(name), request.getfixturevalue("sqlite_schema"), build)

    @pytest.fixture(name=name)
    def world(app, client, request) -> Iterator[Any]:
        prepared = request.getfixturevalue(f"{name}_built")
        if prepared is not None:
            yield copy_into(prepared, app, client)
            return
        with sessions(app)() as session:
            yield build(app, client, session)

    return built, world
