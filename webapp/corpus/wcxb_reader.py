"""Reader for WCXB's layout (the Web Content eXtraction Benchmark, Foley 2026).

A split folder holding `ground-truth/ID.json` and `html/ID.html.gz` (or a plain `html/ID.html`), or a folder
holding such split folders (`dev/`, `test/`: the benchmark's own root, where its evaluate.py sits). Each
ground-truth file is `{"url", "file_id", "_internal": {"page_type": {"primary": TYPE}}, "ground_truth":
{"title", "author", "publish_date", "main_content", "main_content_markdown", "with", "without"}}`.

Read as WCXB's evaluate.py reads it: ID is the file's name without .json; the page type is
`_internal.page_type.primary` (or `_internal.page_type` when it is a string; `article` when missing), with
`category` read as `collection`; the gold text is `main_content` (empty when missing or null), the snippet
gold its `with` and `without` lists (none when both are empty), the metadata gold its `title`, `author` and
`publish_date` (corpus/metadata_fields.py: the author string split into names, "" and null none on the
page). `main_content_markdown`, the gold as
Markdown, is kept as given beside it: the two are not the same text (tables, links and lists are in one and
not the other), and the text metrics score `main_content` as evaluate.py does, the structure metrics the
Markdown. Where it is missing or null, the Markdown is `main_content` escaped (one paragraph per line);
`main_content` missing or null is an empty text beside a Markdown too, as evaluate.py reads it. A file
whose `ground_truth` is not an object is rejected (evaluate.py skips it). The benchmark's name, ID, split,
title, author and publish date are kept in the page's facts (`layout`), so that an export writes the same
IDs. A `goldtext` object
`{"status", "text_source"}`, which Goldtext's export adds, gives the gold's status and where its text came
from (corpus/gold_fields.py `gold_views`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .document import Limits, RawDocument, Rejected
from .gold_fields import gold_views, snippet_lists, status_of, type_of
from .metadata_fields import layout_metadata
from .scrapinghub_reader import page_bytes
from .streams import Unreadable, read_file, read_utf8

NAME = "wcxb"
GROUND_TRUTH = "ground-truth"
HTML = "html"
SIDECAR = "goldtext"
MARKDOWN = "main_content_markdown"
RENAMED_TYPES = {"category": "collection"}
METADATA_KEYS = {"title": "title", "authors": "author", "published": "publish_date"}


def is_split(path: Path) -> bool:
    """Whether path is one split of the layout: a ground-truth folder of .json files beside html/."""
    truth = path / GROUND_TRUTH
    return truth.is_dir() and (path / HTML).is_dir() and any(truth.glob("*.json"))


def splits_of(path: Path) -> list[Path]:
    """The split folders of path: path itself, or its sub-folders that are splits, by name."""
    if is_split(path):
        return [path]
    return sorted(child for child in path.iterdir() if child.is_dir() and is_split(child)) if path.is_dir() else []


def is_wcxb_layout(path: Path) -> bool:
    return bool(splits_of(path))


def read_wcxb(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """One document per ground-truth file, split by split and in file-name order (evaluate.py's order);
    then the html files that no ground-truth file names."""
    for split in splits_of(Path(source)):
        listed = set()
        for path in sorted((split / GROUND_TRUTH).glob("*.json")):
            listed.add(path.stem)
            try:
                yield _document(split, path, limits, source)
            except Unreadable as err:
                yield Rejected(path.stem, source, str(err))
        for path in sorted((split / HTML).iterdir()):
            if path.name.removesuffix(".gz").removesuffix(".html") not in listed:
                yield Rejected(f"{split.name}/{HTML}/{path.name}", source, f"no {GROUND_TRUTH}/ file names it")


def _document(split: Path, path: Path, limits: Limits, source: str) -> RawDocument:
    try:
        data = json.loads(read_utf8(read_file(path, limits.max_bytes), path.name))
    except json.JSONDecodeError as err:
        raise Unreadable(f"{path.name} is not valid JSON ({err.msg}, line {err.lineno})") from err
    truth = data.get("ground_truth") if isinstance(data, dict) else None
    if not isinstance(truth, dict):
        raise Unreadable(f'{path.name} has no "ground_truth" object (WCXB\'s evaluate.py skips it too)')
    text, markdown = truth.get("main_content") or "", truth.get(MARKDOWN)
    url, extra = data.get("url"), data.get(SIDECAR) or {}
    if not all(isinstance(value, (str, type(None))) for value in (text, markdown, url)) or not isinstance(extra, dict):
        raise Unreadable(f'main_content, {MARKDOWN} and url must be strings, "goldtext" an object')
    text, markdown = gold_views(text, markdown, extra.get("text_source"), f'in "{SIDECAR}"')
    page_type = type_of(wcxb_page_type(data), f"in {path.name}")
    snippets = snippet_lists(truth.get("with") or [], truth.get("without") or [])
    facts = {"name": NAME, "id": path.stem, "split": split.name, "title": truth.get("title"),
             "author": truth.get("author"), "date": truth.get("publish_date")}
    return RawDocument(path.stem, page_bytes(split / HTML, path.stem, limits), source, url=url, gold=text,
                       markdown=markdown, page_type=page_type, snippets=snippets if any(snippets.values()) else None,
                       status=status_of(extra.get("status")), metadata=layout_metadata(truth, METADATA_KEYS),
                       layout={key: value for key, value in facts.items() if value is not None})


def wcxb_page_type(data: dict[str, Any]) -> str | None:
    """The page type as evaluate.py's get_page_type reads it."""
    internal = data.get("_internal") or {}
    if not isinstance(internal, dict):
        raise Unreadable('"_internal" must be an object')
    found = internal.get("page_type", {})
    if isinstance(found, dict):
        found = found.get("primary", "article")
    elif not isinstance(found, str):
        found = "article"
    return RENAMED_TYPES.get(found, found)
