"""`webmainbench`: WebMainBench's JSON lines layout, so that its own loader and evaluator read the export.

`webmainbench.jsonl`, one line per page with gold: `{"track_id", "html", "url", "main_html": null,
"convert_main_content": null, "groundtruth_content", "meta", "goldtext"}`. `groundtruth_content` is the
gold as Markdown; `html` the page's text in its recorded encoding; `track_id` and `meta` are WebMainBench's
own when the page came from WebMainBench (else its SHA-256, and a `meta` whose `language`, `style` and
`level` are null and whose `table`, `code` and `equation` are empty: Goldtext does not classify pages as
WebMainBench does). The `goldtext` object keeps what the layout has no room for (corpus/webmainbench_reader.py).
With predictions, each extractor that has an extraction of the page at its current fingerprint adds
`EXTRACTOR_content` (its Markdown, as WebMainBench's result files hold it; empty when it failed) and
`EXTRACTOR_success`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..corpus.webmainbench_reader import FILE, GOLD, META, NAME, SIDECAR
from ..foundation.vocabulary import DERIVED
from .benchmark import PageIds, predicted
from .jsonl_writer import html_fields, one_line
from .selection import ExportedPage
from .writer import WriterOptions

UNCLASSIFIED: dict[str, Any] = {"language": None, "style": None, "level": None, "table": [], "code": [], "equation": []}


class WebmainbenchWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._file = (out / FILE).open("w", encoding="utf-8", newline="\n")
        self._ids = PageIds(NAME)
        self._predictions = options.predictions or {}

    def record(self, page: ExportedPage) -> dict[str, Any] | None:
        gold = page.gold
        if gold is None:
            return None
        layout = page.layout if page.layout.get("name") == NAME else {}
        html = html_fields(page.raw or b"", page.encoding)
        extra = {"type": gold.page_type, "status": gold.status, "snippets": gold.snippets,
                 "text_source": gold.text_source, "encoding": page.encoding}
        if gold.text_source != DERIVED:
            extra["text"] = gold.text
        if html["html_base64"] is not None:
            extra["html_base64"] = html["html_base64"]
        failed = {e.fingerprint for e in page.extractions if e.error is not None}
        outputs: dict[str, Any] = {}
        for name, markdown in predicted(page, self._predictions, markdown=True).items():
            outputs |= {f"{name}_content": markdown, f"{name}_success": self._predictions[name] not in failed}
        return {"track_id": self._ids.of(page), "html": html["html"], "url": page.url, "main_html": None,
                "convert_main_content": None, GOLD: gold.gold_markdown, META: layout.get(META) or UNCLASSIFIED,
                SIDECAR: extra, **outputs}

    def add(self, page: ExportedPage) -> None:
        record = self.record(page)
        if record is not None:
            self._file.write(one_line(record) + "\n")

    def close(self) -> None:
        self._file.close()
