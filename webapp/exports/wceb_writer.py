"""`wceb`: WCEB's combined layout, laid out as in the benchmark's repository so that its scripts, run from
the export's folder, find the files where they look for them.

`datasets/combined/ground-truth/DATASET.jsonl` (one `{"page_id", "plaintext", "url", "goldtext": {"type",
"status", "snippets"}}` line per page with gold) and `datasets/combined/html/DATASET/PAGE_ID.html` (the page
as UTF-8 text, as WCEB stores it: the raw bytes when they are UTF-8 and were read so, else the text Goldtext
decoded, in UTF-8). DATASET and PAGE_ID are the page's WCEB dataset and page id when it was imported from
WCEB, else `goldtext` and its SHA-256 (WCEB's own page ids are the SHA-256 of the page's original bytes).
With predictions, `outputs/model-outputs/DATASET/EXTRACTOR.jsonl` (`{"page_id", "plaintext", "model"}`) for
each extractor with an extraction of an exported page of that dataset, at its current fingerprint (a failed
extraction is an empty text, as WCEB's runner writes it; a page it has not run on is left out).
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import IO

from ..corpus.wceb_reader import GROUND_TRUTH, HTML, NAME, PLAIN_NAME, SIDECAR
from .benchmark import PageIds, predicted
from .jsonl_writer import one_line
from .selection import ExportedPage
from .writer import WriterOptions

COMBINED = Path("datasets", "combined")
MODEL_OUTPUTS = Path("outputs", "model-outputs")
DATASET = "goldtext"


def utf8_html(raw: bytes, encoding: str) -> bytes:
    """The page as UTF-8: its bytes when it was decoded as UTF-8 and they are, else its text re-encoded."""
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        codec = "utf-8"
    if codec == "utf-8":
        try:
            raw.decode(codec)
            return raw
        except UnicodeDecodeError:
            pass
    return raw.decode(codec, "replace").encode("utf-8")


class WcebWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._combined = out / COMBINED
        self._outputs = out / MODEL_OUTPUTS
        self._ids = PageIds(NAME)
        self._predictions = options.predictions or {}
        self._files: dict[Path, IO[str]] = {}

    def _line(self, path: Path, record: dict) -> None:
        """Append a JSON line to path, opened (its folder made) on its first line."""
        if path not in self._files:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._files[path] = path.open("w", encoding="utf-8", newline="\n")
        self._files[path].write(one_line(record) + "\n")

    def add(self, page: ExportedPage) -> None:
        if page.gold is None:
            return
        gold, key = page.gold, self._ids.of(page)
        dataset = page.layout.get("dataset") if page.layout.get("name") == NAME else None
        dataset = dataset if isinstance(dataset, str) and PLAIN_NAME.fullmatch(dataset) else DATASET
        html = self._combined / HTML / dataset / f"{key}.html"
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_bytes(utf8_html(page.raw or b"", page.encoding))
        sidecar = {"type": gold.page_type, "status": gold.status, "snippets": gold.snippets}
        self._line(self._combined / GROUND_TRUTH / f"{dataset}.jsonl",
                   {"page_id": key, "plaintext": gold.text, "url": page.url, SIDECAR: sidecar})
        for name, text in predicted(page, self._predictions).items():
            self._line(self._outputs / dataset / f"{name}.jsonl", {"page_id": key, "plaintext": text, "model": name})

    def close(self) -> None:
        for file in self._files.values():
            file.close()
