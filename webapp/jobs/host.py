"""What the job system needs of the app that runs it, and nothing more: its settings (`config`, and the
objects the app built at start-up in `extensions`: the settings object, the metric registry, the
database, this process's broker and runner) and its instance folder (the embedded queue's file).

A Flask app is a Host as it is; so is any object with these three attributes, so the job system
imports no Flask.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..engine import Database, database_in


class Host(Protocol):
    @property
    def config(self) -> Mapping[str, Any]: ...

    @property
    def extensions(self) -> dict[str, Any]: ...

    @property
    def instance_path(self) -> str: ...


def database_of(host: Host) -> Database:
    """The host's database (made on first use, as db.database does for a face)."""
    return database_in(host.extensions, host.config, host.instance_path)
