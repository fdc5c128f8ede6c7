"""Reader for WebMainBench's layout (opendatalab/WebMainBench), the benchmark that scores main content as
Markdown: JSON lines, one page each,

    {"track_id", "html", "url", "main_html", "convert_main_content", "groundtruth_content",
     "meta": {"language", "style", "level", "table", "code", "equation"}}

`groundtruth_content` is the page's gold as Markdown (its plain text is derived from it); `html` the page
as text, stored as UTF-8. Its result files (a dataset run through its extractors) name the page `id`
instead of `track_id`; they are read alike, their `EXTRACTOR_content` predictions left out. A line without
`groundtruth_content` (null or missing) is a page without gold. The benchmark's name, the page's id and
its `meta` are kept in the page's facts (`layout`), so that an export writes them back as they were.

A `goldtext` object, which Goldtext's export adds, gives what the layout has no room for: the gold's page
type, status, snippets and `text_source` with its plain `text` where that is not derived from the Markdown
(corpus/gold_fields.py `gold_views`), and the page's `encoding` and `html_base64` (its exact bytes, where
the text cannot give them back), as the `jsonl` layout writes them. A folder is read by its
`webmainbench.jsonl` (an export's folder).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .document import Limits, RawDocument, Rejected
from .gold_fields import gold_views, snippets_of, status_of, type_of
from .jsonl_reader import checked_strings, html_bytes, read_lines
from .streams import Unreadable

NAME = "webmainbench"
FILE = "webmainbench.jsonl"
SIDECAR = "goldtext"
GOLD = "groundtruth_content"
META = "meta"
ID_FIELDS = ("track_id", "id")


def is_webmainbench_export(path: Path) -> bool:
    return path.is_dir() and (path / FILE).is_file()


def read_webmainbench(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """The documents of the JSON Lines file at source (a folder: its webmainbench.jsonl), line by line."""
    if Path(source).is_dir():
        source = str(Path(source) / FILE)
    return read_lines(source, limits, _document)


def _document(record: dict[str, Any], item: str, source: str) -> RawDocument:
    if record.get("html") is None:
        raise Unreadable("no html field")
    checked_strings(record, ("html", "url", GOLD, *ID_FIELDS))
    extra, meta = record.get(SIDECAR) or {}, record.get(META)
    if not isinstance(extra, dict) or not isinstance(meta, (dict, type(None))):
        raise Unreadable(f'"{SIDECAR}" and "{META}" must be objects')
    checked_strings(extra, ("type", "status", "text_source", "text", "encoding", "html_base64"))
    page_id = next((record[key] for key in ID_FIELDS if record.get(key) is not None), None)
    text, markdown = (None, None) if record.get(GOLD) is None else gold_views(
        extra.get("text"), record[GOLD], extra.get("text_source"), f'in "{SIDECAR}"')
    charset = extra.get("encoding") or "utf-8"
    facts = {"name": NAME, "id": page_id, META: meta}
    return RawDocument(item, html_bytes({"html": record["html"], "html_base64": extra.get("html_base64")}, charset),
                       source, url=record.get("url"), charset=charset, gold=text, markdown=markdown,
                       page_type=type_of(extra.get("type")), snippets=snippets_of(extra.get("snippets")),
                       status=status_of(extra.get("status")),
                       layout={key: value for key, value in facts.items() if value is not None})
