"""`jsonl` (canonical): one JSON object per page in pages.jsonl.

Fields: id, url, site, sha256, encoding, type, gold (its plain text), markdown (the gold as Markdown),
text_source (where its plain text came from: derived from the Markdown, given apart from it, or flat:
given alone, the Markdown escaped from it), snippets, status, annotators, revisions,
created_at, updated_at, gold_note (the reviewer's note on an adjudicated gold), gold_author (who saved
the gold's current version), gold_provenance (where its text came from: annotation/provenance.py; null
when not recorded), effort (each gold revision's recorded effort: version, author, active_seconds and a
count of every action, annotation/effort_record.py) and lead_time (their active seconds summed, as Label
Studio's `lead_time`; null when none recorded one), guideline_version (the version of the page type's
guideline in force when the gold's current revision was saved; null: none), annotations (each
annotator's own annotation beside the gold: author, text, markdown, text_source, type, status, provenance,
its revisions' effort and lead_time as the gold's, its guideline_version and its metadata; empty without double
annotation), metadata (the gold's title, authors and published, annotation/article_metadata.py: a field null
is "none on the page", a field absent not annotated; null when none is annotated); with
the HTML (default) `html` (the raw bytes as text in the recorded encoding, a byte order mark kept as
U+FEFF) and `html_base64` (the exact bytes, only for a page whose bytes that text cannot give back;
otherwise null); with extractions, `extractions` (extractor,
fingerprint, text, error, accepted). Every line has the same fields with the same types (null where
empty), so `datasets.load_dataset("json", data_files=...)` loads it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..annotation.effort_record import ACTIONS
from .selection import ExportedPage, extraction_dicts, page_meta
from .writer import WriterOptions

FILE = "pages.jsonl"
LINE_BREAKING = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}  # line ends to str.splitlines


def html_fields(raw: bytes, encoding: str) -> dict[str, str | None]:
    """{"html", "html_base64"}: the text, and the bytes only when encoding the text would not give them."""
    try:
        text = raw.decode(encoding)
        if text.encode(encoding) == raw:
            return {"html": text, "html_base64": None}
    except (UnicodeError, LookupError):
        pass
    text = raw.decode(encoding, "replace") if _known(encoding) else raw.decode("utf-8", "replace")
    return {"html": text, "html_base64": base64.b64encode(raw).decode("ascii")}


def _known(encoding: str) -> bool:
    try:
        b"".decode(encoding)
    except LookupError:
        return False
    return True


def effort_fields(efforts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """{"effort", "lead_time"} of the gold's revisions that record one (every action counted, 0 where none)."""
    listed = [{"version": e["version"], "author": e["author"], "active_seconds": float(e["effort"]["active_seconds"]),
               "actions": {name: (e["effort"].get("actions") or {}).get(name, 0) for name in ACTIONS}}
              for e in efforts]
    return {"effort": listed, "lead_time": round(sum(e["active_seconds"] for e in listed), 1) if listed else None}


def one_line(record: dict[str, Any]) -> str:
    """The record as JSON on one line, UTF-8 text kept, with every character that some readers take for
    a line end escaped (they can only occur inside strings)."""
    line = json.dumps(record, ensure_ascii=False)
    for char, escape in LINE_BREAKING.items():
        line = line.replace(char, escape)
    return line


class JsonlWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._file = (out / FILE).open("w", encoding="utf-8", newline="\n")
        self._options = options

    def record(self, page: ExportedPage) -> dict[str, Any]:
        record = page_meta(page)
        record["gold"] = page.gold.text if page.gold else None
        record["markdown"] = page.gold.gold_markdown if page.gold else None
        record["text_source"] = page.gold.text_source if page.gold else None
        record["gold_note"] = page.gold.note if page.gold else None
        record |= effort_fields(page.gold.efforts if page.gold else ())
        record["gold_author"] = page.gold.author if page.gold else None
        record["gold_provenance"] = page.gold.provenance if page.gold else None
        record["guideline_version"] = page.gold.guideline_version if page.gold else None
        record["metadata"] = page.gold.metadata if page.gold else None
        record["annotations"] = [{"author": a.author, "text": a.text, "markdown": a.gold_markdown,
                                  "text_source": a.text_source, "type": a.page_type, "status": a.status,
                                  "provenance": a.provenance, **effort_fields(a.efforts),
                                  "guideline_version": a.guideline_version, "metadata": a.metadata}
                                 for a in page.annotations]
        if self._options.with_html and page.raw is not None:
            record |= html_fields(page.raw, page.encoding)
        if self._options.with_extractions:
            record["extractions"] = extraction_dicts(page)
        return record

    def add(self, page: ExportedPage) -> None:
        self._file.write(one_line(self.record(page)) + "\n")

    def close(self) -> None:
        self._file.close()
