"""One entry point for every layout: iter_documents, which picks the reader per path.

Every document passes the common checks (screening.screen) here, whatever reader it came from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .document import Limits, RawDocument, Rejected
from .folder import read_folder
from .jsonl import read_jsonl
from .readability_pages import is_readability_layout, read_readability
from .scrapinghub import is_scrapinghub_layout, read_scrapinghub
from .screening import screen
from .streams import not_regular
from .trafilatura_eval import is_trafilatura_eval_layout, read_trafilatura_eval
from .warc import read_warc
from .wceb import is_wceb_layout, read_wceb
from .wcxb import is_wcxb_layout, read_wcxb
from .ziparchive import read_zip

Reader = Callable[[str, Limits], Iterator[RawDocument | Rejected]]

READERS: dict[str, Reader] = {
    "folder": read_folder,
    "zip": read_zip,
    "warc": read_warc,
    "jsonl": read_jsonl,
    "readability": read_readability,
    "scrapinghub": read_scrapinghub,
    "trafilatura-eval": read_trafilatura_eval,
    "wcxb": read_wcxb,
    "wceb": read_wceb,
}
FORMATS = ("auto", *READERS)
SUFFIXES: tuple[tuple[str, str], ...] = (
    (".zip", "zip"),
    (".warc", "warc"),
    (".warc.gz", "warc"),
    (".arc.gz", "warc"),
    (".jsonl", "jsonl"),
    (".ndjson", "jsonl"),
    (".html", "folder"),
    (".htm", "folder"),
)


def detect_format(path: Path) -> str | None:
    """The layout of path judged by its shape and name, or None when it is not recognised."""
    if path.is_dir():
        if is_scrapinghub_layout(path):
            return "scrapinghub"
        if is_trafilatura_eval_layout(path):
            return "trafilatura-eval"
        if is_wcxb_layout(path):
            return "wcxb"
        if is_wceb_layout(path):
            return "wceb"
        return "readability" if is_readability_layout(path) else "folder"
    name = path.name.lower()
    return next((fmt for suffix, fmt in SUFFIXES if name.endswith(suffix)), None)


def iter_documents(
    paths: Iterable[str | Path], fmt: str = "auto", limits: Limits = Limits()
) -> Iterator[RawDocument | Rejected]:
    """The documents of every path in turn, each screened; unreadable inputs come as Rejected."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    for given in paths:
        source = str(given)
        path = Path(source)
        if not path.exists():
            yield Rejected(path.name or source, source, "no such file or folder")
            continue
        if (reason := not_regular(path)) is not None:
            yield Rejected(path.name, source, reason)
            continue
        chosen = detect_format(path) if fmt == "auto" else fmt
        if chosen is None:
            yield Rejected(path.name, source, f"unknown format for {path.name!r}; pass --format")
            continue
        for document in READERS[chosen](source, limits):
            yield screen(document, limits)
