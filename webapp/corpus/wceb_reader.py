"""Reader for WCEB's combined layout (the Web Content Extraction Benchmark, Bevendorff et al., 2023).

The benchmark's repository root, its `datasets/` folder or its `datasets/combined/` folder, which holds
`ground-truth/DATASET.jsonl` (one `{"page_id", "plaintext", "url"?, "source"?}` object per line) and
`html/DATASET/PAGE_ID.html` (the page as UTF-8 text, as WCEB stores it). The plaintext becomes the page's
gold text and the HTML is read as UTF-8 (the layout's charset, as WCEB reads it). The dataset name, page id
and `source` are kept in the page's facts (`layout`), so that an export writes the same names and ids;
the page's sub-folder is its dataset (for `--site-from folder`). A `goldtext` object `{"type", "status",
"snippets"}`, which Goldtext's export adds to each line, gives what WCEB has no field for; WCEB's scripts
read only `page_id` and `plaintext`. The model outputs (`outputs/model-outputs/`) are not read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .document import Limits, RawDocument, Rejected
from .gold_fields import snippets_of, status_of, type_of
from .jsonl_reader import ESCAPE_ROOM, capped_lines
from .page_type_field import page_type_field
from .streams import Unreadable, over_cap, read_file

NAME = "wceb"
COMBINED = ("", "combined", "datasets/combined")  # where combined/ lies below the given folder
GROUND_TRUTH = "ground-truth"
HTML = "html"
SIDECAR = "goldtext"
CHARSET = "utf-8"
PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
"""A page id or dataset name that is safe as a file name (the layout names files after them)."""


def combined_folder(path: Path) -> Path | None:
    """The `combined` folder at or below path: the one with a ground-truth/ folder of .jsonl files."""
    for below in COMBINED:
        folder = path / below
        if (folder / GROUND_TRUTH).is_dir() and any((folder / GROUND_TRUTH).glob("*.jsonl")):
            return folder
    return None


def is_wceb_layout(path: Path) -> bool:
    return path.is_dir() and combined_folder(path) is not None


def read_wceb(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """Dataset by dataset (file-name order), one document per ground-truth line; then the html files that
    no line names."""
    combined = combined_folder(Path(source))
    if combined is None:
        return
    cap = limits.max_bytes * ESCAPE_ROOM
    for truth in sorted((combined / GROUND_TRUTH).glob("*.jsonl")):
        dataset, listed = truth.stem, set()
        with truth.open("rb") as stream:
            for number, line in enumerate(capped_lines(stream, cap), start=1):
                item = f"{dataset} line {number}"
                try:
                    if line is None:
                        raise Unreadable(over_cap(None, cap))
                    if line.strip():
                        document = _document(combined, dataset, line, limits, source)
                        listed.add(document.item)
                        yield document
                except Unreadable as err:
                    yield Rejected(item, source, str(err))
        folder = combined / HTML / dataset
        for path in sorted(folder.iterdir()) if folder.is_dir() else ():
            if path.name.removesuffix(".html") not in listed:
                yield Rejected(f"{HTML}/{dataset}/{path.name}", source, f"not in {GROUND_TRUTH}/{truth.name}")


def _document(combined: Path, dataset: str, line: bytes, limits: Limits, source: str) -> RawDocument:
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise Unreadable(f"not a JSON object in UTF-8 ({err})") from err
    if not isinstance(record, dict):
        raise Unreadable("not a JSON object")
    page_id, text, url = record.get("page_id"), record.get("plaintext") or "", record.get("url")
    extra = record.get(SIDECAR) or {}
    if not isinstance(page_id, str) or not PLAIN_NAME.fullmatch(page_id):
        raise Unreadable("page_id must be a name of letters, digits, '.', '_' and '-'")
    if not isinstance(text, str) or not isinstance(url, (str, type(None))) or not isinstance(extra, dict):
        raise Unreadable(f'{page_id}: plaintext and url must be strings, "goldtext" an object')
    html = combined / HTML / dataset / f"{page_id}.html"
    if not html.is_file():
        raise Unreadable(f"{page_id}: no {HTML}/{dataset}/{page_id}.html")
    facts: dict[str, Any] = {"name": NAME, "id": page_id, "dataset": dataset}
    if record.get("source") is not None:
        facts["source"] = record["source"]
    return RawDocument(page_id, read_file(html, limits.max_bytes), source, url=url, charset=CHARSET, gold=text,
                       page_type=type_of(page_type_field(extra)), folder=dataset,
                       snippets=snippets_of(extra.get("snippets")),
                       status=status_of(extra.get("status")), layout=facts)
