"""`scrapinghub`: the article-extraction-benchmark layout, so its evaluate.py runs unchanged inside it.

ground-truth.json `{ID: {"articleBody": gold text, "url": url}}` and html/ID.html.gz (the raw bytes,
gzipped), ID being the page's SHA-256; goldtext.json `{ID: {"type", "status", "snippets"}}` keeps what
the benchmark has no field for. With predictions, output/EXTRACTOR.json `{ID: {"articleBody": text}}`
for each extractor that has extractions (service.run_export leaves the others out), every ground-truth ID
present (an empty text where the extractor has no extraction at its current fingerprint, or failed).
"""

from __future__ import annotations

from pathlib import Path

from .json_stream import JsonObjectFile
from .selection import ExportedPage
from .writer import WriterOptions, write_gzipped

GROUND_TRUTH = "ground-truth.json"
SIDECAR = "goldtext.json"


class ScrapinghubWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._html = out / "html"
        self._html.mkdir()
        self._truth = JsonObjectFile(out / GROUND_TRUTH)
        self._sidecar = JsonObjectFile(out / SIDECAR)
        self._predictions = options.predictions or {}
        self._outputs = {name: JsonObjectFile(out / "output" / f"{name}.json") for name in self._predictions}

    def add(self, page: ExportedPage) -> None:
        if page.gold is None:
            return
        key = page.sha256
        write_gzipped(self._html / f"{key}.html.gz", page.raw or b"")
        self._truth.add(key, {"articleBody": page.gold.text, "url": page.url})
        self._sidecar.add(key,
                          {"type": page.gold.page_type, "status": page.gold.status, "snippets": page.gold.snippets})
        texts = {e.fingerprint: e.text for e in page.extractions if e.error is None}
        for name, fingerprint in self._predictions.items():
            self._outputs[name].add(key, {"articleBody": texts.get(fingerprint, "")})

    def close(self) -> None:
        for file in (self._truth, self._sidecar, *self._outputs.values()):
            file.close()
