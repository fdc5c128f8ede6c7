"""`csv`: scores.csv, one row per page x extraction x metric with the cached per-page figures.

Text cells that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
return) get a leading apostrophe.
"""

from __future__ import annotations

import csv
from pathlib import Path

from .selection import ExportedPage
from .writer import WriterOptions

FILE = "scores.csv"
COLUMNS = ("page_id", "url", "site", "type", "status", "extractor", "fingerprint", "metric",
           "precision", "recall", "f1", "error")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: object) -> object:
    """A text cell that starts like a formula, prefixed with an apostrophe; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


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
                       extraction.extractor, extraction.fingerprint, metric, round(precision, 6),
                       round(recall, 6), round(f1, 6), extraction.error)
                self._csv.writerow([neutralise(cell) for cell in row])

    def close(self) -> None:
        self._file.close()
