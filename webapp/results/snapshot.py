"""The score cache's snapshot on disk, shared by the web processes of one instance folder: the process
that reads every count from the database stores them with the change log's epoch they are current at;
another process starting cold loads the file and catches up with the pages changed since, instead of
reading every count again. It holds the cache's numpy columns (columns.py), so loading it is a few
bulk reads, not one object per row. The file is written whole to a temporary name and renamed, so a reader
never sees half of one; it is only ever read from the instance folder, which only Goldtext writes.

A snapshot is used only while the change log still reaches back to its epoch (above the pruned floor)
and when it was taken with the same metric versions; otherwise the cache reads the database.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

FORMAT = 5
PROTOCOL = 5
"""Pickle's protocol 5 stores a numpy array as its bytes, read back in one piece."""


def path_for(instance: str, database_url: str) -> Path:
    """The snapshot of this database's counts in this instance folder."""
    return Path(instance) / f"score-cache-{hashlib.sha256(database_url.encode()).hexdigest()[:16]}.pickle"


def read(path: Path, versions: dict[str, int], floor: int, newest: int) -> tuple[int, dict[str, Any]] | None:
    """(epoch, the cache's state: plain arrays, lists and strings) of the stored snapshot, or None when
    there is none usable: none stored, unreadable to its end, of other metric versions, older than the
    log's pruned floor, or newer than the database (a database made anew)."""
    try:
        with path.open("rb") as handle:
            header = pickle.load(handle)
            usable = (header.get("format") == FORMAT and header.get("versions") == versions
                      and floor <= header["epoch"] <= newest)
            state = pickle.load(handle) if usable else None
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, KeyError, TypeError, ValueError):
        return None
    if state is None:
        return None
    return header["epoch"], state


def write(path: Path, versions: dict[str, int], epoch: int, state: dict[str, Any]) -> None:
    """Store the cache's state as the snapshot current at `epoch`, replacing the stored one once it is
    written whole; failing to write (a read-only folder, a full disk) only loses the sharing, and an
    unfinished file is removed."""
    temporary = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".score-cache-")
        with os.fdopen(handle, "wb") as out:
            pickle.dump({"format": FORMAT, "versions": versions, "epoch": epoch}, out, protocol=PROTOCOL)
            pickle.dump(state, out, protocol=PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
