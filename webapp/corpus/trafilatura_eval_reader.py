"""Reader for trafilatura's evaluation layout: snippet gold.

A folder holding `evaldata.json`: `{KEY: {"file": NAME, "with": [...], "without": [...]}}`, where KEY
is the page's URL and NAME its HTML file, beside evaldata.json or in its `cache/` folder (trafilatura's
own repository keeps them there). The must-include (`with`) and must-exclude (`without`) snippets become
the page's snippet gold. Optional `url` (when KEY is not the URL), `type` and `status` fields are read
too; the rest (author, title, date...) is ignored.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from .document import Limits, RawDocument, Rejected
from .gold_fields import snippet_lists, status_of, type_of
from .json_files import load_object
from .page_type_field import page_type_field
from .streams import Unreadable, read_file

EVALDATA = "evaldata.json"
CACHE = "cache"


def is_trafilatura_eval_layout(path: Path) -> bool:
    return path.is_dir() and (path / EVALDATA).is_file()


def read_trafilatura_eval(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """One document per evaldata.json entry, in the file's order."""
    root = Path(source)
    try:
        entries = load_object(root / EVALDATA, limits)
    except Unreadable as err:
        yield Rejected(EVALDATA, source, str(err))
        return
    for key, entry in entries.items():
        try:
            yield _document(root, key, entry, limits)
        except Unreadable as err:
            yield Rejected(key, source, str(err))


def _document(root: Path, key: str, entry: Any, limits: Limits) -> RawDocument:
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        raise Unreadable('the entry must be an object with a "file" name')
    url = entry["url"] if "url" in entry else (key if "://" in key else None)
    page_type = page_type_field(entry)
    if not isinstance(url, (str, type(None))):
        raise Unreadable("url must be a string")
    type_of(page_type)
    snippets = snippet_lists(entry.get("with"), entry.get("without"))
    return RawDocument(entry["file"], read_file(_html_path(root, entry["file"]), limits.max_bytes),
                       str(root), url=url, page_type=page_type, snippets=snippets,
                       status=status_of(entry.get("status")))


def _html_path(root: Path, name: str) -> Path:
    """The page file, beside evaldata.json or in cache/; names that climb out are refused."""
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts:
        raise Unreadable(f"file name {name!r} leaves the folder")
    for folder in (root, root / CACHE):
        if (folder / relative).is_file():
            return folder / relative
    raise Unreadable(f"no {name} beside {EVALDATA} nor in {CACHE}/")
