"""`trafilatura-eval`: evaldata.json `{URL: {"file", "with", "without", "url", "type", "status"}}` and the
HTML files beside it, for the pages with snippet gold (trafilatura's evaluation layout).

The key is the page's URL; a page without one, or whose URL an earlier page took, is keyed by its file
name (the `url` field says which URL, if any, is the page's).
"""

from __future__ import annotations

from pathlib import Path

from .json_stream import JsonObjectFile
from .selection import ExportedPage
from .writer import WriterOptions

EVALDATA = "evaldata.json"


class TrafilaturaEvalWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._out = out
        self._evaldata = JsonObjectFile(out / EVALDATA)
        self._keys: set[str] = set()

    def add(self, page: ExportedPage) -> None:
        if page.gold is None or page.gold.snippets is None:
            return
        name = f"{page.id}.html"
        (self._out / name).write_bytes(page.raw or b"")
        key = page.url if page.url and page.url not in self._keys else name
        self._keys.add(key)
        snippets = page.gold.snippets
        self._evaldata.add(key, {"file": name, "with": snippets.get("with", []), "without": snippets.get("without", []),
                                 "url": page.url, "type": page.gold.page_type, "status": page.gold.status})

    def close(self) -> None:
        self._evaldata.close()
