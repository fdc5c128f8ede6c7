"""Reader for the article-extraction-benchmark layout (Zyte's, formerly Scrapinghub's).

A folder holding `ground-truth.json` (`{ID: {"articleBody": ..., "url": ...}}`) and `html/ID.html.gz`
(or a plain `html/ID.html`). The articleBody becomes the page's gold text. Goldtext's export adds an
optional `goldtext.json` (`{ID: {"type", "status", "snippets"}}`) carrying what the layout has no room
for; the benchmark's own scripts never read it.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .document import Limits, RawDocument, Rejected
from .gold_fields import snippets_of, status_of, type_of
from .json_files import load_object
from .page_type_field import page_type_field
from .streams import Unreadable, read_capped, read_file

GROUND_TRUTH = "ground-truth.json"
SIDECAR = "goldtext.json"
HTML = "html"


def is_scrapinghub_layout(path: Path) -> bool:
    return path.is_dir() and (path / GROUND_TRUTH).is_file()


def read_scrapinghub(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """One document per ground-truth entry, in the file's order; then html files it does not list."""
    root = Path(source)
    try:
        truth = load_object(root / GROUND_TRUTH, limits)
        extra = load_object(root / SIDECAR, limits) if (root / SIDECAR).is_file() else {}
    except Unreadable as err:
        yield Rejected(GROUND_TRUTH, source, str(err))
        return
    for page_id, entry in truth.items():
        try:
            yield _document(root, page_id, entry, extra.get(page_id) or {}, limits)
        except Unreadable as err:
            yield Rejected(page_id, source, str(err))
    folder = root / HTML
    listed = set(truth)
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        page_id = path.name.removesuffix(".gz").removesuffix(".html")
        if page_id not in listed:
            yield Rejected(f"{HTML}/{path.name}", source, f"not in {GROUND_TRUTH}")


def _document(root: Path, page_id: str, entry: Any, extra: Any, limits: Limits) -> RawDocument:
    if not isinstance(entry, dict) or not isinstance(extra, dict):
        raise Unreadable(f"the entry of {page_id} is not an object")
    body, url, page_type = entry.get("articleBody"), entry.get("url"), page_type_field(extra)
    if not isinstance(body, (str, type(None))) or not isinstance(url, (str, type(None))):
        raise Unreadable("articleBody and url must be strings")
    type_of(page_type, f"in {SIDECAR}")
    return RawDocument(page_id, page_bytes(root / HTML, page_id, limits), str(root), url=url, gold=body,
                       page_type=page_type, snippets=snippets_of(extra.get("snippets")),
                       status=status_of(extra.get("status")))


def page_bytes(folder: Path, page_id: str, limits: Limits) -> bytes:
    """html/ID.html.gz uncompressed (capped while reading), or html/ID.html."""
    packed, plain = folder / f"{page_id}.html.gz", folder / f"{page_id}.html"
    if packed.is_file():
        try:
            with gzip.open(packed, "rb") as stream:
                return read_capped(stream, limits.max_bytes)
        except (OSError, EOFError, zlib.error) as err:
            raise Unreadable(f"{packed.name} is not a readable gzip file ({err})") from err
    if plain.is_file():
        return read_file(plain, limits.max_bytes)
    raise Unreadable(f"no {HTML}/{page_id}.html.gz nor {HTML}/{page_id}.html")
