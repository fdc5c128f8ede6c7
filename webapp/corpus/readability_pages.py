"""Reader for Mozilla Readability's test-page layout: SLUG/source.html, SLUG/expected.html,
SLUG/expected-metadata.json, in a folder or inside a zip archive.

The gold text is the visible text of expected.html, one block per line. A page whose metadata says
`"readerable": false` is page type "other" with no gold text; `true` makes it an "article". The URL
is the metadata's "url" when it has one. The metadata gold of a page with gold text is the metadata's
`title`, `byline` (split into names) and `publishedTime` (corpus/metadata_fields.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path, PurePosixPath

from .decoding import decode
from .document import Limits, RawDocument, Rejected
from .metadata_fields import layout_metadata
from .streams import Unreadable, read_file, read_utf8
from .visible_text import visible_text

SOURCE = "source.html"
EXPECTED = "expected.html"
METADATA = "expected-metadata.json"
METADATA_KEYS = {"title": "title", "authors": "byline", "published": "publishedTime"}


def is_readability_layout(path: Path) -> bool:
    """Whether path is a folder with at least one SLUG/source.html."""
    return path.is_dir() and any(path.glob(f"*/{SOURCE}"))


def page_folders(names: Iterable[str]) -> list[str]:
    """The folders (posix paths) that hold a source.html, sorted: one page each."""
    return sorted(str(PurePosixPath(n).parent) for n in names if PurePosixPath(n).name == SOURCE
                  and str(PurePosixPath(n).parent) != ".")


def read_readability(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """One document per SLUG folder holding a source.html, in SLUG order."""
    root = Path(source)
    names = {p.relative_to(root).as_posix() for p in root.glob("*/*") if p.is_file()}
    yield from read_pages(names, lambda name: read_file(root / name, limits.max_bytes),
                          lambda slug: slug, source)


def read_pages(
    names: set[str], read: Callable[[str], bytes], item_of: Callable[[str], str], source: str
) -> Iterator[RawDocument | Rejected]:
    """The layout's pages among `names` (posix paths), each file read through `read`: a folder on
    disk or the members of a zip archive."""
    for folder in page_folders(names):
        item = item_of(PurePosixPath(folder).name)
        try:
            yield _document(names, read, folder, item, source)
        except Unreadable as err:
            yield Rejected(item, source, str(err))


def _document(
    names: set[str], read: Callable[[str], bytes], folder: str, item: str, source: str
) -> RawDocument:
    data = read(f"{folder}/{SOURCE}")
    metadata = _metadata(read(f"{folder}/{METADATA}")) if f"{folder}/{METADATA}" in names else {}
    readerable = metadata.get("readerable")
    url = metadata.get("url") if isinstance(metadata.get("url"), str) else None
    if readerable is False:
        return RawDocument(item, data, source, url=url, page_type="other")
    gold = None
    if f"{folder}/{EXPECTED}" in names:
        gold = visible_text(decode(read(f"{folder}/{EXPECTED}")).text) or None
    page_type = "article" if readerable is True else None
    said = layout_metadata(metadata, METADATA_KEYS) if gold is not None else {}
    return RawDocument(item, data, source, url=url, gold=gold, page_type=page_type, metadata=said or None)


def _metadata(data: bytes) -> dict:
    try:
        metadata = json.loads(read_utf8(data, METADATA))
    except json.JSONDecodeError as err:
        raise Unreadable(f"{METADATA} is not valid JSON ({err.msg}, line {err.lineno})") from err
    if not isinstance(metadata, dict):
        raise Unreadable(f"{METADATA} is not a JSON object")
    return metadata
