"""What every format writer is: made for an empty folder, given pages one by one, then closed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .selection import ExportedPage


@dataclass(frozen=True)
class WriterOptions:
    with_html: bool = True
    with_extractions: bool = False
    predictions: dict[str, str] | None = None  # extractor name -> fingerprint (scrapinghub's output/)


class Writer(Protocol):
    def add(self, page: ExportedPage) -> None:
        """Write one page (or skip it when the layout has no room for it)."""

    def close(self) -> None:
        """Finish the files (closing brackets) and release them."""


class WriterFactory(Protocol):
    def __call__(self, out: Path, options: WriterOptions) -> Writer: ...
