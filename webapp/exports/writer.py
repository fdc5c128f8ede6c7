"""What every format writer is: made for an empty folder, given pages one by one, then closed."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .selection import ExportedPage


@dataclass(frozen=True)
class WriterOptions:
    with_html: bool = True
    with_extractions: bool = False
    predictions: dict[str, str] | None = None  # extractor name -> fingerprint (scrapinghub's output/)


GZIP_LEVEL = 6
"""gzip's command-line default: level 9 took about twice the CPU on saved pages for files about 1% smaller."""


def write_gzipped(path: Path, data: bytes) -> None:
    """Write `data` to `path` as a gzip file (a page's raw HTML in the formats that keep it gzipped)."""
    with gzip.open(path, "wb", compresslevel=GZIP_LEVEL) as stream:
        stream.write(data)


class Writer(Protocol):
    def add(self, page: ExportedPage) -> None:
        """Write one page (or skip it when the layout has no room for it)."""

    def close(self) -> None:
        """Finish the files (closing brackets) and release them."""


class WriterFactory(Protocol):
    def __call__(self, out: Path, options: WriterOptions) -> Writer: ...
