"""Reader for JSON Lines: one object per line, `{"url", "html", "gold"?, "markdown"?, "type"?}`.

The gold is `gold` (its plain text), `markdown` (the gold as Markdown, as Hugging Face datasets of
Markdown hold it), or both; Goldtext's export also writes `text_source`, which keeps where the text came
from (corpus/gold_fields.py `gold_views`).

The html string becomes the document's bytes as UTF-8 (charset "utf-8"), or in the line's `encoding`
when it names one; `html_base64`, when present, holds the exact bytes instead (Goldtext's export
writes it for pages whose bytes the text cannot give back). Optional `status` and `snippets`
(`{"with": [...], "without": [...]}`) are the gold's status and snippet gold; other fields (those of
Goldtext's export, `gold_author`, `gold_note`, `gold_provenance` and `annotations`, are read back: who saved
the gold, the reviewer's note, where its text came from, and each annotator's own annotation
(`{"author", "text", "markdown", "text_source", "type", "status", "provenance", "metadata"}`, text or markdown
or both); `metadata`, the gold's title, authors and published in Goldtext's shape (annotation/article_metadata.py:
`{"title": "...", "authors": ["..."], "published": "2024-03-01"}`, a field null for none on the page and absent
when not annotated), is the metadata gold, checked by the import use case;
the import use case checks their provenance
and names); `guideline_version` (the gold's and each annotation's) is kept on the revision the import makes,
and the export's history of the gold (`effort` per revision, `annotators` in order, each annotation's
`effort`) is kept with the page and written back by its export, so that a round trip keeps them (`lead_time`
is their sum, made again); others are ignored. url may be null. Blank lines are skipped; a line that is not such an
object is rejected, named by its line number. A folder is read by its pages.jsonl (an export's folder).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .decoding import codec_for
from .document import Limits, RawDocument, ReadAnnotation, Rejected
from .gold_fields import gold_views, snippets_of, status_of, type_of
from .page_type_field import page_type_field
from .streams import CHUNK, Unreadable, over_cap

EXPORT_FILE = "pages.jsonl"  # the file of `goldtext export --format jsonl`, read from its folder
FIELDS = ("url", "html", "gold", "markdown", "type", "encoding", "html_base64", "status", "gold_author", "gold_note",
          "text_source")
ESCAPE_ROOM = 6  # JSON escapes (\uXXXX) can make a line up to six times its text's UTF-8 size


def is_jsonl_export(path: Path) -> bool:
    return path.is_dir() and (path / EXPORT_FILE).is_file()


def read_jsonl(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """The documents of the JSON Lines file at source (a folder: its pages.jsonl), line by line."""
    if Path(source).is_dir():
        source = str(Path(source) / EXPORT_FILE)
    return read_lines(source, limits, _document)


LineReader = Callable[[dict[str, Any], str, str], RawDocument]
"""A layout's document of one line's JSON object (the object, its item name, the source); Unreadable
naming what is wrong."""


def read_lines(source: str, limits: Limits, document: LineReader) -> Iterator[RawDocument | Rejected]:
    """The documents of the JSON Lines file at source, one per line that is a JSON object; a line over the
    size cap, or that ``document`` cannot read, is rejected, named by its number."""
    cap = limits.max_bytes * ESCAPE_ROOM
    number = 0
    try:
        with open(source, "rb") as stream:
            for number, line in enumerate(capped_lines(stream, cap), start=1):
                item = f"line {number}"
                if line is None:
                    yield Rejected(item, source, over_cap(None, cap))
                elif line.strip():
                    try:
                        yield document(json_object(line), item, source)
                    except Unreadable as err:
                        yield Rejected(item, source, str(err))
    except OSError as err:
        reason = f"cannot read the file ({err.strerror or err})"
        yield Rejected(f"line {number + 1}", source, reason)


def capped_lines(stream: BinaryIO, cap: int) -> Iterator[bytes | None]:
    """Each line, or None for a line longer than cap (skipped without holding it)."""
    while line := stream.readline(cap + 1):
        if len(line) <= cap or line.endswith(b"\n"):
            yield line
            continue
        while (rest := stream.readline(CHUNK)) and not rest.endswith(b"\n"):
            pass
        yield None


def json_object(line: bytes) -> dict[str, Any]:
    """One line's JSON object; Unreadable when it is not one."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        raise Unreadable(f"invalid JSON ({err.msg} at column {err.colno})") from err
    except UnicodeDecodeError as err:
        raise Unreadable(f"not UTF-8 text (byte {err.start})") from err
    if not isinstance(record, dict):
        raise Unreadable("not a JSON object")
    return record


def _document(record: dict[str, Any], item: str, source: str) -> RawDocument:
    if record.get("html") is None:
        raise Unreadable("no html field")
    checked_strings(record, FIELDS)
    page_type = type_of(page_type_field(record))
    charset = record.get("encoding") or "utf-8"
    gold, markdown = gold_views(record.get("gold"), record.get("markdown"), record.get("text_source"))
    return RawDocument(item, html_bytes(record, charset), source, url=record.get("url"), charset=charset,
                       gold=gold, markdown=markdown, page_type=page_type, snippets=snippets_of(record.get("snippets")),
                       status=status_of(record.get("status")), author=record.get("gold_author"),
                       note=record.get("gold_note"), provenance=_object(record, "gold_provenance"),
                       metadata=_object(record, "metadata"), annotations=_annotations(record.get("annotations")),
                       guideline_version=_version(record, "guideline_version"), history=_history(record))


def _version(record: dict, field: str, where: str = "") -> int | None:
    value = record.get(field)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise Unreadable(f"{field}{where} is not a version (a whole number from 1)")
    return value


def _history(record: dict[str, Any]) -> dict[str, Any] | None:
    """The export's history of the gold, its lists type-checked (the import use case checks each effort):
    {"effort": [...], "annotators": [...], "annotations": {author: [...]}}; None when it has none."""
    annotators = record.get("annotators")
    if annotators is not None and (not isinstance(annotators, list)
                                   or not all(isinstance(name, str) for name in annotators)):
        raise Unreadable("annotators is not a list of names")
    annotations = {}
    for item in record.get("annotations") or ():
        author = item.get("author") or item.get("annotator")
        if efforts := _efforts(item.get("effort"), f" of annotation {author!r}"):
            annotations[author] = efforts
    kept = {"effort": _efforts(record.get("effort"), ""), "annotators": annotators or [], "annotations": annotations}
    return kept if any(kept.values()) else None


def _efforts(value: object, where: str) -> list[dict[str, Any]]:
    """An export's `effort`: a list of {version, author, active_seconds, actions} (absent or null: none)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(
            isinstance(entry, dict) and isinstance(entry.get("author"), str)
            and isinstance(entry.get("version"), int) for entry in value):
        raise Unreadable(f"effort{where} is not a list of {{version, author, active_seconds, actions}}")
    return value


def checked_strings(record: dict[str, Any], fields: Iterable[str]) -> None:
    """Unreadable naming the first of the fields that is neither a string nor null, or holds a lone surrogate."""
    for field in fields:
        value = record.get(field)
        if not isinstance(value, (str, type(None))):
            raise Unreadable(f"{field} is not a string")
        if value is not None and not _encodable(value):
            raise Unreadable(f"{field} holds a lone surrogate escape (\\ud800-\\udfff), not text")


def _object(record: dict, field: str) -> dict | None:
    value = record.get(field)
    if not isinstance(value, (dict, type(None))):
        raise Unreadable(f"{field} is not an object")
    return value


def _annotations(value: object) -> tuple[ReadAnnotation, ...]:
    """The export's annotations (absent or null: none), each one's fields type-checked."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise Unreadable("annotations is not a list")
    found = []
    for number, item in enumerate(value, start=1):
        where = f"annotation {number}"
        if not isinstance(item, dict):
            raise Unreadable(f"{where} is not an object")
        item = {**item, "type": page_type_field(item)}
        if "author" not in item:  # an export made before names it "annotator": read for one release
            item = {**item, "author": item.get("annotator")}
        if not all(isinstance(item.get(key), str) for key in ("author", "type", "status")) or not all(
                isinstance(item.get(key), (str, type(None))) for key in ("text", "markdown", "text_source")) or (
                item.get("text") is None and item.get("markdown") is None):
            raise Unreadable(f"{where} needs the strings author, type, status and text or markdown")
        if not all(_encodable(item.get(key) or "") for key in ("author", "text", "markdown")):
            raise Unreadable(f"{where} holds a lone surrogate escape (\\ud800-\\udfff), not text")
        text, markdown = gold_views(item.get("text"), item.get("markdown"), item.get("text_source"), f"in {where}")
        found.append(ReadAnnotation(item["author"], text, type_of(item["type"], f"in {where}") or "",
                                    status_of(item["status"]) or "", _object(item, "provenance"), markdown,
                                    _version(item, "guideline_version", f" of {where}"), _object(item, "metadata")))
    return tuple(found)


def html_bytes(record: dict, charset: str) -> bytes:
    """The page's bytes: html_base64 decoded, else the html text in its encoding."""
    if record.get("html_base64") is not None:
        try:
            return base64.b64decode(record["html_base64"], validate=True)
        except binascii.Error as err:
            raise Unreadable(f"html_base64 is not base64 ({err})") from err
    codec = codec_for(charset)
    if codec is None:
        raise Unreadable(f"unknown encoding {charset!r}")
    try:
        return record["html"].encode(codec)
    except UnicodeEncodeError as err:
        raise Unreadable(f"html has characters that {charset} cannot encode (at {err.start})") from err


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
