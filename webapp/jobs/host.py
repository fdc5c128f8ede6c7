"""What the job system needs of the app that runs it, and nothing more: the objects the app built at
start-up in `extensions` (the settings object, the database, this process's broker and runner) and its
instance folder (the embedded queue's file).

A Flask app is a Host as it is; so is any object with these two attributes, so the job system
imports no Flask.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..foundation.engine import Database, database_in
from ..foundation.settings import settings_of


class Host(Protocol):
    @property
    def extensions(self) -> dict[str, Any]: ...

    @property
    def instance_path(self) -> str: ...


def database_of(host: Host) -> Database:
    """The host's database (made on first use, as db.database does for a face)."""
    return database_in(host.extensions, settings_of(host).database, host.instance_path)
