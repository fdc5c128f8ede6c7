"""Reader for the output of a Goldtext crawl pipeline on datatrove (`goldtext export --format datatrove`).

The output folder holds data/RANK.jsonl.gz: one document a line, `{"text", "id", "metadata"}`, the page's raw
bytes in `metadata.html_base64` (and its HTTP charset in `metadata.charset`) when the pipeline kept them. A
document is read back as the page it came from: its bytes, URL and charset, its facts from the crawl (the
extractor, the page type read from its facts, the agreement with the challenger, rs-trafilatura's predicted
extraction quality where the crawl recorded it) kept in the page's layout facts. A document whose HTML was not
kept, or whose line is broken, is a rejection naming it.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from .document import Limits, RawDocument, Rejected
from .screening import screen

DATA = "data"
LAYOUT_NAME = "datatrove"
CRAWL_FACTS = ("extractor", "fingerprint", "page_type", "agreement", "challenger", "routed", "extraction_quality")

Position = tuple[str, int]  # (file name in data/, line number)


def data_files(out: Path) -> list[Path]:
    folder = out / DATA
    return sorted(p for p in folder.glob("*.jsonl*") if p.is_file()) if folder.is_dir() else []


def iter_records(out: Path) -> Iterator[tuple[Position, dict[str, Any]]]:
    """((file name, line number), record) of every document of the output folder; ValueError naming a file or a
    line that is not a pipeline's output."""
    files = data_files(out)
    if not files:
        raise ValueError(f"{out} holds no documents: expected {DATA}/*.jsonl.gz, as the pipeline writes them")
    for path in files:
        yield from _records_of(path)


def _records_of(path: Path) -> Iterator[tuple[Position, dict[str, Any]]]:
    opener = gzip.open if path.name.endswith(".gz") else open
    number = 0
    try:
        with opener(path, "rt", encoding="utf-8") as stream:
            for number, line in enumerate(stream, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path.name} line {number}: invalid JSON ({error.msg})") from error
                if not isinstance(record, dict) or not isinstance(record.get("metadata"), dict):
                    raise ValueError(f"{path.name} line {number}: not a document with metadata")
                yield (path.name, number), record
    except EOFError as error:  # gzip's: the file was cut off (a task killed while writing, a partial copy)
        raise ValueError(f"{path}: the file is truncated after line {number} ({error})") from error
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot be read after line {number} ({type(error).__name__}: {error})") from error


def document_of(position: Position, record: dict[str, Any], source: str) -> RawDocument | Rejected:
    meta = record["metadata"]
    item = f"{position[0]} line {position[1]} ({record.get('id') or 'no id'})"
    if not isinstance(meta.get("html_base64"), str):
        why = meta.get("html_omitted") or "run the pipeline with --keep-html-bytes to keep it"
        return Rejected(item, source, f"the page's HTML was not kept ({why})")
    try:
        data = base64.b64decode(meta["html_base64"], validate=True)
    except binascii.Error as error:
        return Rejected(item, source, f"html_base64 is not base64 ({error})")
    layout = {"name": LAYOUT_NAME, "id": record.get("id")} | {k: meta[k] for k in CRAWL_FACTS if k in meta}
    url = meta.get("url") if isinstance(meta.get("url"), str) else None
    charset = meta.get("charset") if isinstance(meta.get("charset"), str) else None
    return RawDocument(item, data, source, url=url, charset=charset, layout=layout)


def read_datatrove(
    source: str, limits: Limits, chosen: Collection[Position] | None = None
) -> Iterator[RawDocument | Rejected]:
    """The documents of the output folder at source (only those at the chosen positions, when given), screened."""
    for position, record in iter_records(Path(source)):
        if chosen is None or position in chosen:
            yield screen(document_of(position, record, source), limits)
