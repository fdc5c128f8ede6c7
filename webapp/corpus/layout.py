"""The folder layout, wherever its files live (a folder on disk or a zip archive).

In each folder: `NAME.html` / `NAME.htm` pages, optional `NAME.gold.txt` (gold text), `NAME.gold.md` (the
gold as Markdown; with only one of the two, the other is made from it) and `NAME.url` (one URL, or a Windows
Internet Shortcut) and `NAME.json` (metadata, as Goldtext's folder export writes it: `url`, `type`,
`status`, `snippets`, `text_source` (corpus/gold_fields.py `gold_views`), and `gold_exact: true` when
NAME.gold.txt and NAME.gold.md are the gold byte for byte, UTF-8 with their line ends kept) beside them, and
optionally an `index.csv` (columns name,url[,type], header row optional) or `index.json` (`{"NAME": "url"}`
or `{"NAME": {"url": ..., "type": ...}}`) for the pages of that folder. NAME is the page's file name without
.html; a `NAME.url` file wins over NAME.json, which wins over the index. Names match whatever their case.

Nothing is half-imported: when a folder's index is unreadable its pages are rejected (a page stored without
its URL could not be fixed by importing again: same bytes, a duplicate). Gold, URL and index entries that
match no page are reported, so a misspelt name does not pass unseen.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from .document import RawDocument, Rejected
from .gold_fields import gold_views, snippets_of, status_of, type_of
from .page_type_field import page_type_field
from .streams import Unreadable, read_utf8

PAGE_SUFFIXES = (".html", ".htm")
GOLD_SUFFIX = ".gold.txt"
MARKDOWN_SUFFIX = ".gold.md"
URL_SUFFIX = ".url"
META_SUFFIX = ".json"
INDEX_NAMES = ("index.csv", "index.json")

Loader = Callable[[str], bytes]  # relative path -> bytes, raising Unreadable
Namer = Callable[[str], str]  # relative path -> item name in the report


@dataclass(frozen=True)
class IndexEntry:
    url: str | None
    page_type: str | None


def page_stem(name: str) -> str | None:
    """NAME for a page file name NAME.html / NAME.htm (any case), else None."""
    lower = name.lower()
    for suffix in PAGE_SUFFIXES:
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return None


def read_layout(
    names: Iterable[str], load: Loader, item_of: Namer, source: str
) -> Iterator[RawDocument | Rejected]:
    """Documents of the pages among names (relative POSIX paths), folder by folder in name order."""
    folders: dict[str, dict[str, str]] = defaultdict(dict)
    for name in names:
        path = PurePosixPath(name)
        folders[str(path.parent)][path.name.lower()] = path.name
    for folder, files in sorted(folders.items()):
        yield from _Folder(None if folder == "." else folder, files, load, item_of, source).read()


@dataclass(frozen=True)
class _Folder:
    """One folder of the layout: its files, matched case-insensitively (as Windows and macOS do),
    and how to load and name them."""

    folder: str | None
    files: dict[str, str]  # lower-case name -> name
    load: Loader
    item_of: Namer
    source: str

    def path_of(self, name: str) -> str:
        return name if self.folder is None else f"{self.folder}/{name}"

    def reject(self, name: str, reason: str) -> Rejected:
        return Rejected(self.item_of(self.path_of(name)), self.source, reason)

    def read(self) -> Iterator[RawDocument | Rejected]:
        index: dict[str, tuple[str, IndexEntry]] = {}  # lower-case NAME -> NAME, entry
        broken: str | None = None
        for index_name in INDEX_NAMES:
            if index_name in self.files:
                try:
                    data = self.load(self.path_of(self.files[index_name]))
                    index |= {k.lower(): (k, e) for k, e in parse_index(index_name, data).items()}
                except Unreadable as err:
                    broken = index_name
                    yield self.reject(self.files[index_name], str(err))
        pages = sorted(name for name in self.files.values() if page_stem(name) is not None)
        for name in pages:
            if broken is not None:
                yield self.reject(name, f"not read: the {broken} beside it is unreadable")
                continue
            try:
                yield self.document(name, index)
            except Unreadable as err:
                yield self.reject(name, str(err))
        stems = {(page_stem(name) or name).lower() for name in pages}
        for stem in sorted(index[key][0] for key in index.keys() - stems):
            yield self.reject(stem, f"listed in the index, but no {stem}.html")
        for lower, name in sorted(self.files.items()):
            for suffix, what in ((GOLD_SUFFIX, "gold text"), (MARKDOWN_SUFFIX, "Markdown gold"),
                                 (URL_SUFFIX, "URL file")):
                if lower.endswith(suffix) and lower[: -len(suffix)] not in stems:
                    yield self.reject(name, f"{what} with no {name[: -len(suffix)]}.html beside it")

    def document(self, name: str, index: dict[str, tuple[str, IndexEntry]]) -> RawDocument:
        stem = page_stem(name) or name
        _, entry = index.get(stem.lower(), (stem, IndexEntry(None, None)))
        type_of(entry.page_type, "in the index")
        data = self.load(self.path_of(name))
        meta = self.metadata(stem)
        exact = meta.get("gold_exact") is True
        gold, markdown = gold_views(self.text(stem + GOLD_SUFFIX, exact), self.text(stem + MARKDOWN_SUFFIX, exact),
                                    meta.get("text_source"), f"in {stem}{META_SUFFIX}")
        url = _url_in(self.text(stem + URL_SUFFIX) or "") or meta.get("url") or entry.url
        page_type = type_of(page_type_field(meta) or None, f"in {stem}{META_SUFFIX}") or entry.page_type
        return RawDocument(self.item_of(self.path_of(name)), data, self.source, url=url, gold=gold,
                           markdown=markdown, page_type=page_type, folder=self.folder,
                           snippets=snippets_of(meta.get("snippets")),
                           status=status_of(meta.get("status")), metadata=meta.get("metadata"))

    def metadata(self, stem: str) -> dict:
        """The page's NAME.json metadata ({} when there is none; index.json is the folder's index)."""
        name = stem + META_SUFFIX
        if name.lower() in INDEX_NAMES:
            return {}
        text = self.text(name)
        if text is None:
            return {}
        try:
            meta = json.loads(text)
        except json.JSONDecodeError as err:
            raise Unreadable(f"{name} is not valid JSON ({err.msg}, line {err.lineno})") from err
        if not isinstance(meta, dict) or not all(
            isinstance(meta.get(key), (str, type(None))) for key in ("url", "type", "status", "text_source")
        ):
            raise Unreadable(f"{name} must be an object whose url, type, status and text_source are strings")
        if not isinstance(meta.get("metadata"), (dict, type(None))):
            raise Unreadable(f"{name}: metadata must be an object (title, authors, published)")
        return meta

    def text(self, name: str, exact: bool = False) -> str | None:
        """The UTF-8 text of the file name in this folder (any case), None when there is none; exact
        keeps a leading U+FEFF and the line ends as they are."""
        actual = self.files.get(name.lower())
        if actual is None:
            return None
        data = self.load(self.path_of(actual))
        return read_exact_utf8(data, actual) if exact else read_utf8(data, actual)


def _url_in(text: str) -> str | None:
    """A NAME.url file's URL: its first line, or the URL= line of a Windows Internet Shortcut."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    shortcut = next((line[4:].strip() for line in lines if line.lower().startswith("url=")), None)
    return shortcut or next(iter(lines), None)


def parse_index(name: str, data: bytes) -> dict[str, IndexEntry]:
    """NAME -> url and type from an index.csv or index.json; Unreadable when it is malformed.

    Types are checked per page, so one unknown type rejects that page, not its whole folder.
    """
    text = read_utf8(data, name)
    rows = _json_rows(text) if name.endswith(".json") else _csv_rows(text)
    return {
        page_stem(stem) or stem: IndexEntry(url or None, page_type or None) for stem, url, page_type in rows
    }


def _csv_rows(text: str) -> list[tuple[str, str | None, str | None]]:
    try:
        table = list(csv.reader(io.StringIO(text)))
    except csv.Error as err:
        raise Unreadable(f"index.csv is not valid CSV ({err})") from err
    rows: list[tuple[str, str | None, str | None]] = []
    for number, row in enumerate(table, start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells) or (number == 1 and [c.lower() for c in cells[:2]] == ["name", "url"]):
            continue
        if len(cells) not in (2, 3):
            raise Unreadable(
                f"index.csv row {number}: expected name,url[,type], got {len(cells)} cells"
            )
        rows.append((cells[0], cells[1], cells[2] if len(cells) == 3 else None))
    return rows


def _json_rows(text: str) -> list[tuple[str, str | None, str | None]]:
    try:
        mapping = json.loads(text)
    except json.JSONDecodeError as err:
        raise Unreadable(f"index.json is not valid JSON ({err.msg}, line {err.lineno})") from err
    if not isinstance(mapping, dict):
        raise Unreadable("index.json must be an object mapping NAME to a URL or to {url, type}")
    rows = []
    for stem, value in mapping.items():
        fields = {"url": value} if value is None or isinstance(value, str) else value
        if not isinstance(fields, dict) or not all(
            isinstance(fields.get(key), (str, type(None))) for key in ("url", "type")
        ):
            raise Unreadable(f"index.json entry {stem!r}: expected a URL or {{url, type}} strings")
        rows.append((stem, fields.get("url"), page_type_field(fields)))
    return rows


def read_exact_utf8(data: bytes, what: str) -> str:
    """A file's UTF-8 text exactly as written."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Unreadable(f"{what} is not UTF-8 text (byte {err.start})") from err
