"""`wcxb`: WCXB's layout, so that the benchmark's own evaluate.py runs unchanged on the export.

`SPLIT/ground-truth/ID.json` and `SPLIT/html/ID.html.gz` (the raw bytes, gzipped) for every page with gold,
and `metadata.json` (`{"name", "page_types", "files": {ID: {"split", "page_type", "domain"}}}`). ID is the
page's WCXB file id when it was imported from WCXB (else its SHA-256), SPLIT its split there when that is
`dev` or `test` (else `dev`: evaluate.py reads only those). Each ground-truth file is `{"schema_version",
"url", "file_id", "_internal": {"page_type": {"primary": PAGE_TYPE}}, "ground_truth": {"title", "author",
"publish_date", "main_content", "main_content_markdown", "with", "without"}, "goldtext": {"status",
"text_source"}}`: `main_content` is the gold's plain text, `main_content_markdown` the gold as Markdown;
title, author and publish date are the gold's metadata (corpus/metadata_fields.py: the authors joined by ", ",
or the benchmark's own author string while the names are still the ones it splits into; null for none on the
page and for a field not annotated). With
predictions, `results/EXTRACTOR.json` (`{ID: text}`) for each extractor with an extraction of an exported
page, at its current fingerprint (a failed extraction is an empty text; a page it has not run on is left
out, which evaluate.py scores as an empty extraction): `python evaluate.py --split dev --results
results/EXTRACTOR.json --per-type`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..corpus.metadata_fields import joined_names
from ..corpus.wcxb_reader import GROUND_TRUTH, HTML, MARKDOWN, NAME, SIDECAR
from .benchmark import PageIds, predicted
from .json_stream import JsonObjectFile
from .selection import ExportedPage
from .writer import WriterOptions, write_gzipped

SPLITS = ("dev", "test")
RESULTS = "results"
METADATA = "metadata.json"
SCHEMA_VERSION = "2.0"


class WcxbWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._out = out
        self._ids = PageIds(NAME)
        self._predictions = options.predictions or {}
        self._results: dict[str, JsonObjectFile] = {}
        self._files: dict[str, dict[str, Any]] = {}

    def add(self, page: ExportedPage) -> None:
        if page.gold is None:
            return
        gold, layout, key = page.gold, page.layout if page.layout.get("name") == NAME else {}, self._ids.of(page)
        split = layout["split"] if layout.get("split") in SPLITS else SPLITS[0]
        for folder in (GROUND_TRUTH, HTML):
            (self._out / split / folder).mkdir(parents=True, exist_ok=True)
        write_gzipped(self._out / split / HTML / f"{key}.html.gz", page.raw or b"")
        snippets = gold.snippets or {}
        truth = {
            "schema_version": SCHEMA_VERSION,
            "url": page.url,
            "file_id": key,
            "_internal": {"page_type": {"primary": gold.page_type}},
            "ground_truth": {**ground_truth_metadata(gold.metadata or {}, layout), "main_content": gold.text,
                             MARKDOWN: gold.gold_markdown,
                             "with": snippets.get("with", []), "without": snippets.get("without", [])},
            SIDECAR: {"status": gold.status, "text_source": gold.text_source},
        }
        (self._out / split / GROUND_TRUTH / f"{key}.json").write_text(json.dumps(truth, indent=1) + "\n",
                                                                      encoding="ascii")
        self._files[key] = {"split": split, "page_type": gold.page_type, "domain": page.site}
        for name, text in predicted(page, self._predictions).items():
            if name not in self._results:
                self._results[name] = JsonObjectFile(self._out / RESULTS / f"{name}.json")
            self._results[name].add(key, text)

    def close(self) -> None:
        for file in self._results.values():
            file.close()
        page_types = sorted({entry["page_type"] for entry in self._files.values()})
        metadata = {"name": "Goldtext export (WCXB layout)", "page_types": page_types, "files": self._files}
        (self._out / METADATA).write_text(json.dumps(metadata, indent=1) + "\n", encoding="ascii")


def ground_truth_metadata(metadata: dict[str, Any], layout: Mapping[str, Any]) -> dict[str, Any]:
    """WCXB's title, author and publish_date of the gold's metadata; where the gold says what the benchmark
    gave (``layout``: the page's WCXB facts), the benchmark's own strings ("" stays "")."""
    title, names, published = (metadata.get(field) for field in ("title", "authors", "published"))
    author = joined_names(names, layout.get("author"))
    return {"title": layout["title"] if _same(title, layout.get("title")) else title,
            "author": layout["author"] if _same(author, layout.get("author")) else author,
            "publish_date": layout["date"] if _same(published, layout.get("date")) else published}


def _same(value: Any, given: Any) -> bool:
    """Whether the layout's string ``given`` says ``value`` (an empty string: None, none on the page)."""
    return isinstance(given, str) and (" ".join(given.split()) or None) == value
