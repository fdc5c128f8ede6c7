"""Reading bytes with a cap: never more than the cap plus one byte is held for one document."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Protocol

CHUNK = 2**16


class Unreadable(Exception):
    """An item that cannot be read; the message is the reason shown in the import report."""


def over_cap(size: int | None, cap: int) -> str:
    """The reason for a document over the size cap; size None when reading stopped at the cap."""
    if size is None:
        return f"over the size cap (more than {cap:,} bytes)"
    return f"over the size cap ({size:,} > {cap:,} bytes)"


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def read_capped(stream: Readable, cap: int) -> bytes:
    """All of stream, in chunks; Unreadable as soon as more than cap bytes have come."""
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(min(CHUNK, cap + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > cap:
            raise Unreadable(over_cap(None, cap))
    return b"".join(chunks)


def not_regular(path: Path) -> str | None:
    """Why path is not a regular file (a FIFO, a device, a socket: reading it could block forever or
    never end), or None. Symbolic links are followed."""
    mode = path.stat().st_mode
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    return f"{kind}, not a regular file: not read"


def read_file(path: Path, cap: int) -> bytes:
    """A regular file's bytes; Unreadable if it is not a regular file, or over the cap (its size checked
    before and while reading)."""
    try:
        if (reason := not_regular(path)) is not None:
            raise Unreadable(reason)
        size = path.stat().st_size
        if size > cap:
            raise Unreadable(over_cap(size, cap))
        with path.open("rb") as stream:
            return read_capped(stream, cap)
    except OSError as err:
        raise Unreadable(f"cannot read the file ({err.strerror or err})") from err


def read_utf8(data: bytes, what: str) -> str:
    """A small text file (gold text, URL, index) as UTF-8, a BOM allowed, line ends made \\n."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise Unreadable(f"{what} is not UTF-8 text (byte {err.start})") from err
    return text.replace("\r\n", "\n").replace("\r", "\n")
