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
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

FORMAT = 2
PROTOCOL = pickle.HIGHEST_PROTOCOL


def path_for(instance: str, database_url: str) -> Path:
    """The snapshot of this database's counts in this instance folder."""
    return Path(instance) / f"score-cache-{hashlib.sha256(database_url.encode()).hexdigest()[:16]}.pickle"


class Unreadable(Exception):
    """A snapshot that cannot be read to its end: the caller reads the database instead."""


def read(path: Path, versions: dict[str, int], floor: int, newest: int) -> tuple[int, Iterator[list[tuple]]] | None:
    """(epoch, its rows chunk by chunk) of the stored snapshot, or None when there is none usable: none
    stored, of other metric versions, older than the log's pruned floor, or newer than the database (a
    database made anew). The chunks are read as they are asked for (a snapshot replaced meanwhile is no
    harm: the open file stays the old one); Unreadable if the file breaks off."""
    try:
        handle = path.open("rb")
    except OSError:
        return None
    try:
        header = pickle.load(handle)
        usable = (header.get("format") == FORMAT and header.get("versions") == versions
                  and floor <= header["epoch"] <= newest)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, KeyError, TypeError, ValueError):
        usable = False
    if not usable:
        handle.close()
        return None
    return header["epoch"], _chunks(handle)


def _chunks(handle: IO[bytes]) -> Iterator[list[tuple]]:
    with handle:
        try:
            while (chunk := pickle.load(handle)) is not None:
                yield chunk
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, TypeError, ValueError) as error:
            raise Unreadable(str(error)) from error


def writing(path: Path, versions: dict[str, int], epoch: int, chunks: Iterable[list[tuple]]) -> Iterator[list[tuple]]:
    """Yield the chunks while storing them as the snapshot current at `epoch`, which replaces the stored
    one once the last chunk is written; failing to write (a read-only folder, a full disk) only loses the
    sharing, and an unfinished file is removed."""
    out, temporary = None, ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".score-cache-")
        out = os.fdopen(handle, "wb")
        pickle.dump({"format": FORMAT, "versions": versions, "epoch": epoch}, out, protocol=PROTOCOL)
    except OSError:
        out = _discard(out, temporary)
    try:
        for chunk in chunks:
            if out is not None:
                try:
                    pickle.dump(chunk, out, protocol=PROTOCOL)
                except OSError:
                    out = _discard(out, temporary)
            yield chunk
        if out is not None:
            pickle.dump(None, out, protocol=PROTOCOL)
            out.close()
            os.replace(temporary, path)
            out = None
    finally:
        _discard(out, temporary)


def _discard(out: IO[bytes] | None, temporary: str) -> None:
    """Close and remove an unfinished snapshot file."""
    if out is not None:
        out.close()
        Path(temporary).unlink(missing_ok=True)
