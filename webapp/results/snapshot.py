"""The score cache's snapshot on disk, shared by the web processes of one instance folder: the process
that reads every count from the database stores them with the change log's epoch they are current at;
another process starting cold loads the file and catches up with the pages changed since, instead of
reading every count again. The file is written whole to a temporary name and renamed, so a reader
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

FORMAT = 1


def path_for(instance: str, database_url: str) -> Path:
    """The snapshot of this database's counts in this instance folder."""
    return Path(instance) / f"score-cache-{hashlib.sha256(database_url.encode()).hexdigest()[:16]}.pickle"


def read(path: Path, versions: dict[str, int], floor: int, newest: int) -> tuple[int, Any] | None:
    """(epoch, rows) of the stored snapshot, or None when there is none usable: none stored, of other
    metric versions, older than the log's pruned floor, or newer than the database (a database made anew)."""
    try:
        with path.open("rb") as handle:
            header = pickle.load(handle)
            if header != {"format": FORMAT, "versions": versions}:
                return None
            epoch = pickle.load(handle)
            if not floor <= epoch <= newest:
                return None
            return epoch, pickle.load(handle)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, TypeError, ValueError):
        return None


def write(path: Path, versions: dict[str, int], epoch: int, rows: Any) -> None:
    """Store the rows current at `epoch`; a failure to write (a read-only folder) only loses the sharing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".score-cache-")
        with os.fdopen(handle, "wb") as out:
            pickle.dump({"format": FORMAT, "versions": versions}, out, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump(epoch, out, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump(rows, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        return
