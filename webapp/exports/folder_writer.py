"""`folder`: ID.html (the raw bytes exactly as imported), ID.gold.txt (UTF-8, written byte for byte) and
ID.json (the page's metadata; with extractions, those too), the layout the folder reader reads."""

from __future__ import annotations

import json
from pathlib import Path

from .selection import ExportedPage, extraction_dicts, page_meta
from .writer import WriterOptions


class FolderWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._out = out
        self._options = options

    def add(self, page: ExportedPage) -> None:
        name = str(page.id)
        (self._out / f"{name}.html").write_bytes(page.raw or b"")
        meta = page_meta(page)
        if page.gold is not None:
            (self._out / f"{name}.gold.txt").write_bytes(page.gold.text.encode("utf-8"))
            meta["gold_exact"] = True
        if self._options.with_extractions:
            meta["extractions"] = extraction_dicts(page)
        (self._out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="ascii")

    def close(self) -> None:
        """Every file is complete as soon as it is written."""
