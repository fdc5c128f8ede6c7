"""Reader for JSON Lines: one object per line, `{"url", "html", "gold"?, "kind"?}`.

The html string becomes the document's bytes as UTF-8 (charset "utf-8"). url may be null. Blank
lines are skipped; a line that is not such an object is rejected, named by its line number.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import BinaryIO

from ..kinds import PAGE_KINDS
from .document import Limits, RawDocument, Rejected
from .streams import CHUNK, Unreadable, over_cap

FIELDS = ("url", "html", "gold", "kind")
ESCAPE_ROOM = 6  # JSON escapes (\uXXXX) can make a line up to six times its text's UTF-8 size


def read_jsonl(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """The documents of the JSON Lines file at source, line by line."""
    cap = limits.max_bytes * ESCAPE_ROOM
    number = 0
    try:
        with open(source, "rb") as stream:
            for number, line in enumerate(_lines(stream, cap), start=1):
                item = f"line {number}"
                if line is None:
                    yield Rejected(item, source, over_cap(None, cap))
                elif line.strip():
                    try:
                        yield _document(line, item, source)
                    except Unreadable as err:
                        yield Rejected(item, source, str(err))
    except OSError as err:
        reason = f"cannot read the file ({err.strerror or err})"
        yield Rejected(f"line {number + 1}", source, reason)


def _lines(stream: BinaryIO, cap: int) -> Iterator[bytes | None]:
    """Each line, or None for a line longer than cap (skipped without holding it)."""
    while line := stream.readline(cap + 1):
        if len(line) <= cap or line.endswith(b"\n"):
            yield line
            continue
        while (rest := stream.readline(CHUNK)) and not rest.endswith(b"\n"):
            pass
        yield None


def _document(line: bytes, item: str, source: str) -> RawDocument:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        raise Unreadable(f"invalid JSON ({err.msg} at column {err.colno})") from err
    except UnicodeDecodeError as err:
        raise Unreadable(f"not UTF-8 text (byte {err.start})") from err
    if not isinstance(record, dict):
        raise Unreadable("not a JSON object")
    if record.get("html") is None:
        raise Unreadable("no html field")
    for field in FIELDS:
        value = record.get(field)
        if not isinstance(value, (str, type(None))):
            raise Unreadable(f"{field} is not a string")
        if value is not None and not _encodable(value):
            raise Unreadable(f"{field} holds a lone surrogate escape (\\ud800-\\udfff), not text")
    kind = record.get("kind")
    if kind is not None and kind not in PAGE_KINDS:
        raise Unreadable(f"unknown kind {kind!r} (known: {', '.join(PAGE_KINDS)})")
    data = record["html"].encode("utf-8")
    return RawDocument(item, data, source, url=record.get("url"), charset="utf-8",
                       gold=record.get("gold"), kind=kind)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
