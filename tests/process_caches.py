"""What every test of a process shares instead of redoing, as the tests make an app each (conftest.py loads
this module as a plugin). None of it changes what the code under test does, only what it costs:

- the templates' compiled code: compiling them anew for each app was most of a first request's cost (about
  35 ms a test); Jinja checks each template's source against the checksum stored with its code, so an edited
  template is compiled again;
- the parsing of the URL rules: each app adds its 100-odd rules to a URL map of its own, and werkzeug
  parsed each rule's text anew with a regular expression per part, most of a `create_app` (about 8 of its
  15 ms). A rule's parse (its parts, its trace, which converter each variable takes) is a function of its
  text and of the map's converter classes, and is kept per process; each rule still makes its own
  converters, bound to its own map. The URL builders werkzeug then writes and compiles for each rule (a
  tenth of the CPU of the route-walking tests) are kept too, by what they are made of;
- the entry points of the installed distributions (the environment's own folders, which no test changes):
  reading every dist-info cost about 14 ms a registry, and a test builds several; the other folders of
  sys.path, where a test installs a fake plugin, are read anew each time (a folder without distribution
  metadata, as the test folders are, by its listing alone: importlib's search of them cost about 5 ms a
  registry);
- the SQL of the statements, compiled per engine: each test's app has an engine of its own, whose cache
  started empty, so every test compiled each statement it ran again (about a tenth of the CPU of a test
  that makes requests). The engines of a process share one cache instead, as one application process's
  statements share its one engine's; SQLAlchemy keys the cache by dialect object, and here by its kind
  (class, server version, parameter style, identifier lengths), so a statement is compiled once per
  kind of database, with the same compiler;
- the garbage collector's passes over what imports and collection made (the modules, the test items): about
  a sixth of a test process's CPU went to collecting, each full pass walking every object of the process.
  Once the tests are collected, those objects are moved out of its reach (gc.freeze); what the tests make
  is collected as before;
- SQLite's fsync at each commit (PRAGMA synchronous=OFF): a test's database is a throwaway file, and the
  syncs cost milliseconds a commit on this disk. What a commit is and when locks are taken are unchanged."""

from __future__ import annotations

import gc
import os
import re
import sqlite3
import sys
from functools import cache
from importlib.metadata import EntryPoint, EntryPoints, distributions, version
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from sqlalchemy import event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.util import LRUCache
from werkzeug.routing import Rule

from webapp.foundation import engine as engines
from webapp.foundation import plugins


class CompiledTemplates(BytecodeCache):
    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()}

ENVIRONMENT = (sys.prefix, sys.base_prefix)


def _distributions_in(folder: str) -> tuple[tuple[str, tuple[EntryPoint, ...]], ...]:
    """(normalised name, entry points) of each distribution found in one folder of sys.path. A folder with no
    `.dist-info` or `.egg-info` entry holds none (the test folders pytest puts on sys.path): its listing
    says so without importlib.metadata's search."""
    if os.path.isdir(folder) and not any(name.lower().endswith((".dist-info", ".egg-info"))
                                         for name in os.listdir(folder)):
        return ()
    return tuple((re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower(), tuple(dist.entry_points))
                 for dist in distributions(path=[folder]))


_environment_distributions_in = cache(_distributions_in)


def entry_points(*, group: str) -> EntryPoints:
    """importlib.metadata.entry_points(group=...): the first distribution of a name on sys.path wins."""
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for folder in sys.path:
        read = _environment_distributions_in if folder.startswith(ENVIRONMENT) else _distributions_in
        for name, points in read(folder or "."):
            if name not in seen:
                seen.add(name)
                found.extend(point for point in points if point.group == group)
    return EntryPoints(found)


plugins.entry_points = entry_points  # type: ignore[assignment]


@event.listens_for(Engine, "connect")
def _unsynced_sqlite(dbapi_connection, _record) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.execute("PRAGMA synchronous=OFF")


class SharedStatements(LRUCache):
    """One compiled-statement cache for every engine of the process (SQLAlchemy's own LRU cache), keyed by
    the dialect's kind instead of the engine's dialect object."""

    @staticmethod
    def _kind(key: tuple) -> tuple:
        dialect: Dialect = key[0]
        return (type(dialect), dialect.server_version_info, dialect.paramstyle, dialect.label_length,
                dialect.max_identifier_length, *key[1:])

    def get(self, key, default=None):
        return super().get(self._kind(key), default)

    def __setitem__(self, key, value) -> None:
        super().__setitem__(self._kind(key), value)


STATEMENTS = SharedStatements(5000)
_create_engine = engines.create_engine


def create_engine(*args, **kwargs) -> Engine:
    made = _create_engine(*args, **kwargs)
    made._compiled_cache = STATEMENTS
    return made


engines.create_engine = create_engine  # type: ignore[assignment]


Parsed = tuple[list, list, list]  # the rule's parts, its trace, (variable, converter, args, kwargs) of each variable
PARSED: dict[tuple, Parsed] = {}
_parse_rule = getattr(Rule, "_parse_rule", None)
REPLAYED_WERKZEUG = re.compile(r"3\.1\.")
"""The werkzeug releases whose private Rule._parse_rule the replay was checked against (it sets the rule's
converters, arguments and trace); under any other release each rule is parsed by werkzeug as it is."""


def parse_rule(self: Rule, rule: str) -> list:
    """Rule._parse_rule, replayed from the first parse of the same text with the same converters."""
    assert self.map is not None
    # the map's converter classes as a key, made again only when they change (a dict's comparison is far cheaper)
    seen = self.map.__dict__.get("_replayed_converters")
    if seen is None or seen[0] != self.map.converters:
        converters = self.map.converters
        seen = self.map.__dict__["_replayed_converters"] = (dict(converters), tuple(converters.items()))
    key = (type(self), rule, seen[1])
    parsed = PARSED.get(key)
    if parsed is None:
        variables: list[tuple] = []
        trace_from = len(self._trace)

        def get_converter(variable, name, args, kwargs):
            variables.append((variable, name, args, kwargs))
            return type(self).get_converter(self, variable, name, args, kwargs)

        self.get_converter = get_converter  # type: ignore[method-assign]
        try:
            parts = list(_parse_rule(self, rule))
        finally:
            del self.get_converter
        PARSED[key] = (parts, self._trace[trace_from:], variables)
        return parts
    parts, trace, variables = parsed
    for variable, name, args, kwargs in variables:
        self._converters[variable] = self.get_converter(variable, name, args, kwargs)
        self.arguments.add(variable)
    self._trace.extend(trace)
    return list(parts)


BUILDERS: dict[tuple, Any] = {}
_compile_builder = Rule._compile_builder


def compile_builder(self: Rule, append_unknown: bool = True):
    """Rule._compile_builder, kept: the URL-building function werkzeug writes and compiles for each rule of each
    app. It is a function of what it reads (the rule's trace, its defaults and the converters of its defaulted
    variables, append_unknown) and takes the rule as its first argument, so rules alike share one."""
    defaults = self.defaults or {}
    key = (self.rule, tuple(self._trace), repr(sorted(defaults.items())), append_unknown,
           tuple((name, type(self._converters[name])) for name in sorted(defaults) if name in self._converters))
    built = BUILDERS.get(key)
    if built is None:
        built = BUILDERS[key] = _compile_builder(self, append_unknown)
    return built


if REPLAYED_WERKZEUG.match(version("werkzeug")):  # the parse's side effects as checked; others parse each rule
    Rule._parse_rule = parse_rule  # type: ignore[method-assign]
    Rule._compile_builder = compile_builder  # type: ignore[method-assign]


def pytest_collection_finish(session) -> None:
    gc.collect()
    gc.freeze()
