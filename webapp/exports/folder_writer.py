"""`folder`: ID.html (the raw bytes exactly as imported), ID.gold.txt (the gold's plain text) and ID.gold.md
(the gold as Markdown), both UTF-8, written byte for byte, and ID.json (the page's metadata, with the gold's
text_source and its metadata gold: title, authors, published; with extractions, those too), the layout the
folder reader reads."""

from __future__ import annotations

import json
from pathlib import Path

from ..corpus.layout import GOLD_SUFFIX, MARKDOWN_SUFFIX
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
            (self._out / f"{name}{GOLD_SUFFIX}").write_bytes(page.gold.text.encode("utf-8"))
            (self._out / f"{name}{MARKDOWN_SUFFIX}").write_bytes(page.gold.gold_markdown.encode("utf-8"))
            meta["gold_exact"] = True
            meta["text_source"] = page.gold.text_source
            meta["metadata"] = page.gold.metadata
        if self._options.with_extractions:
            meta["extractions"] = extraction_dicts(page)
        (self._out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="ascii")

    def close(self) -> None:
        """Every file is complete as soon as it is written."""
