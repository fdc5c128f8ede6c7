"""Reader for Mozilla Readability's test-page layout: SLUG/source.html, SLUG/expected.html,
SLUG/expected-metadata.json.

The gold text is the visible text of expected.html, one block per line. A page whose metadata says
`"readerable": false` is kind "not-article" with no gold text; `true` makes it an "article". The URL
is the metadata's "url" when it has one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from .decoding import decode
from .document import Limits, RawDocument, Rejected
from .streams import Unreadable, read_file, read_utf8
from .visible_text import block_lines

SOURCE = "source.html"
EXPECTED = "expected.html"
METADATA = "expected-metadata.json"


def is_readability_layout(path: Path) -> bool:
    """Whether path is a folder with at least one SLUG/source.html."""
    return path.is_dir() and any(path.glob(f"*/{SOURCE}"))


def read_readability(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """One document per SLUG folder holding a source.html, in SLUG order."""
    for page in sorted(Path(source).glob(f"*/{SOURCE}")):
        slug = page.parent.name
        try:
            yield _document(page.parent, slug, source, limits)
        except Unreadable as err:
            yield Rejected(slug, source, str(err))


def _document(folder: Path, slug: str, source: str, limits: Limits) -> RawDocument:
    data = read_file(folder / SOURCE, limits.max_bytes)
    metadata = _metadata(folder / METADATA, limits)
    readerable = metadata.get("readerable")
    url = metadata.get("url") if isinstance(metadata.get("url"), str) else None
    if readerable is False:
        return RawDocument(slug, data, source, url=url, kind="not-article")
    gold = None
    if (folder / EXPECTED).is_file():
        gold = block_lines(decode(read_file(folder / EXPECTED, limits.max_bytes)).text) or None
    kind = "article" if readerable is True else None
    return RawDocument(slug, data, source, url=url, gold=gold, kind=kind)


def _metadata(path: Path, limits: Limits) -> dict:
    if not path.is_file():
        return {}
    try:
        metadata = json.loads(read_utf8(read_file(path, limits.max_bytes), METADATA))
    except json.JSONDecodeError as err:
        raise Unreadable(f"{METADATA} is not valid JSON ({err.msg}, line {err.lineno})") from err
    if not isinstance(metadata, dict):
        raise Unreadable(f"{METADATA} is not a JSON object")
    return metadata
