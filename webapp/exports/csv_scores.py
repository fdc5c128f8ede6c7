"""`csv`: scores.csv, one row per page x extraction x metric with the cached per-page figures, and the gold's
page type, status, title, authors (joined by "; ") and published date (`metadata_cells`).

Every text cell is made safe for a spreadsheet (`neutralise`, which the audit log's CSV and `goldtext score
--format csv` use too): control and format characters are dropped (an escape sequence, a bell, a
bidirectional override), a line break or a tab becomes a space, and a cell that a spreadsheet would run as
a formula gets a leading apostrophe: one whose first character after any white space is = + - or @, in
any of their Unicode forms (the full-width ＝ ＋ － ＠, the small ﹦ ﹢ ﹣ ﹫: NFKC reads them as the plain ones).
"""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path
from typing import Any

from .selection import ExportedPage
from .writer import WriterOptions

FILE = "scores.csv"
COLUMNS = ("page_id", "url", "site", "type", "status", "title", "authors", "published", "extractor", "fingerprint",
           "metric", "precision", "recall", "f1", "error")
NONE_ON_PAGE = "(none)"
"""The cell of a metadata field the gold marks "none on the page" (an empty cell: not annotated)."""
AUTHORS_JOIN = "; "
FORMULA_STARTS = frozenset("=+-@")
SPACES = frozenset("\t\n\r\v\f")  # control characters that separate words: a space in a cell


def neutralise(value: object) -> object:
    """A text cell without control or format characters, prefixed with an apostrophe when it starts like a
    formula; anything that is not text as it is."""
    if not isinstance(value, str):
        return value
    cleaned = "".join(" " if char in SPACES else char for char in value
                      if char in SPACES or unicodedata.category(char) not in ("Cc", "Cf"))
    start = cleaned.lstrip()[:1]
    return "'" + cleaned if start and unicodedata.normalize("NFKC", start)[:1] in FORMULA_STARTS else cleaned


class CsvWriter:
    def __init__(self, out: Path, options: WriterOptions) -> None:
        self._file = (out / FILE).open("w", encoding="utf-8", newline="")
        self._csv = csv.writer(self._file)
        self._csv.writerow(COLUMNS)

    def add(self, page: ExportedPage) -> None:
        gold = page.gold
        for extraction in page.extractions:
            for metric, (precision, recall, f1) in extraction.scores.items():
                row = (page.id, page.url, page.site, gold.page_type if gold else None, gold.status if gold else None,
                       *metadata_cells(gold.metadata if gold else None), extraction.extractor,
                       extraction.fingerprint, metric, round(precision, 6), round(recall, 6), round(f1, 6),
                       extraction.error)
                self._csv.writerow([neutralise(cell) for cell in row])

    def close(self) -> None:
        self._file.close()


def metadata_cells(metadata: dict[str, Any] | None) -> tuple[str | None, str | None, str | None]:
    """The gold's title, authors (joined by "; ") and published as cells: empty when not annotated,
    NONE_ON_PAGE when the gold says the page has none."""
    said = metadata or {}
    cells: list[str | None] = []
    for field in ("title", "authors", "published"):
        value = said.get(field)
        if field not in said:
            cells.append(None)
        elif value is None:
            cells.append(NONE_ON_PAGE)
        else:
            cells.append(AUTHORS_JOIN.join(value) if field == "authors" else value)
    return cells[0], cells[1], cells[2]
