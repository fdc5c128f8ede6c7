"""One entry point for every layout: iter_documents, which picks the reader per path.

LAYOUTS is the table of the layouts: each names its reader, how a folder in it is recognised, which file
names are read as it, and what it looks for (said when a path gives nothing to read). A new layout is
one more row; `--format auto` tries the folder tests in the table's order, the last layout (folder)
taking any folder. Every document passes the common checks (screening.screen) here, whatever reader it
came from, and a path that gives no document at all is an error naming what was looked for.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from .document import Limits, RawDocument, Rejected
from .folder_reader import read_folder
from .jsonl_reader import EXPORT_FILE, is_jsonl_export, read_jsonl
from .readability_pages import is_readability_layout, read_readability
from .scrapinghub_reader import GROUND_TRUTH as SCRAPINGHUB_TRUTH
from .scrapinghub_reader import is_scrapinghub_layout, read_scrapinghub
from .screening import screen
from .streams import not_regular
from .trafilatura_eval_reader import EVALDATA, is_trafilatura_eval_layout, read_trafilatura_eval
from .warc_reader import read_warc
from .wceb_reader import GROUND_TRUTH as WCEB_TRUTH
from .wceb_reader import is_wceb_layout, read_wceb
from .wcxb_reader import GROUND_TRUTH as WCXB_TRUTH
from .wcxb_reader import is_wcxb_layout, read_wcxb
from .webmainbench_reader import FILE as WEBMAINBENCH_FILE
from .webmainbench_reader import is_webmainbench_export, read_webmainbench
from .ziparchive import member_names, read_zip, unpack

Reader = Callable[[str, Limits], Iterator[RawDocument | Rejected]]


@dataclass(frozen=True)
class Layout:
    name: str
    read: Reader
    looks_for: str  # what a path in this layout holds, e.g. "ground-truth.json"
    holds: Callable[[Path], bool] | None = None  # whether a folder is in this layout (None: no folder is)
    suffixes: tuple[str, ...] = ()  # file names read as this layout


def _any_folder(path: Path) -> bool:
    return path.is_dir()


ZIPPED_LAYOUT_FILES = (SCRAPINGHUB_TRUTH, EVALDATA, EXPORT_FILE, WEBMAINBENCH_FILE, f"{WCXB_TRUTH}/*.json",
                       f"{WCEB_TRUTH}/*.jsonl")
"""The member paths (matched from the right) that mark a zip holding a layout read from a folder."""


def read_archive(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """A zip: when it holds the files of a layout read from a folder (an export downloaded from the app is
    its folder zipped: exports/archive.py), they are unpacked to a temporary folder, read as that layout
    and said to come from the zip; any other zip is read member by member as pages (read_zip)."""
    if not any(PurePosixPath(name).match(marker) for name in member_names(source) for marker in ZIPPED_LAYOUT_FILES):
        yield from read_zip(source, limits)
        return
    label = f"zip:{Path(source).name}"
    with tempfile.TemporaryDirectory(prefix="goldtext-zip-") as unpacked:
        yield from unpack(source, limits, Path(unpacked))
        entries = list(Path(unpacked).iterdir())
        root = entries[0] if len(entries) == 1 and entries[0].is_dir() else Path(unpacked)
        chosen = detect_format(root) or "folder"
        for found in READERS[chosen](str(root), limits):
            if isinstance(found, Rejected):
                yield Rejected(found.item, source, found.reason.replace(str(root), label))
            else:
                yield replace(found, source=source)


LAYOUTS: tuple[Layout, ...] = (
    Layout("scrapinghub", read_scrapinghub, "ground-truth.json", is_scrapinghub_layout),
    Layout("trafilatura-eval", read_trafilatura_eval, "evaldata.json", is_trafilatura_eval_layout),
    Layout("wcxb", read_wcxb, "ground-truth/ID.json and html/ID.html.gz", is_wcxb_layout),
    Layout("wceb", read_wceb, "datasets/combined/ground-truth/NAME.jsonl", is_wceb_layout),
    Layout("readability", read_readability, "SLUG/source.html folders", is_readability_layout),
    Layout("webmainbench", read_webmainbench, f"JSON lines with groundtruth_content ({WEBMAINBENCH_FILE} in a folder)",
           is_webmainbench_export),
    Layout("jsonl", read_jsonl, f"JSON lines ({EXPORT_FILE} in a folder)", is_jsonl_export,
           (".jsonl", ".ndjson")),
    Layout("zip", read_archive, "NAME.html pages, SLUG/source.html folders or an export folder in the zip",
           suffixes=(".zip",)),
    Layout("warc", read_warc, "WARC response records", suffixes=(".warc", ".warc.gz", ".arc.gz")),
    Layout("folder", read_folder, "NAME.html or NAME.htm pages", _any_folder, (".html", ".htm")),
)
LAYOUT_NAMED = {layout.name: layout for layout in LAYOUTS}
READERS: dict[str, Reader] = {layout.name: layout.read for layout in LAYOUTS}
FORMATS = ("auto", *READERS)


def detect_format(path: Path) -> str | None:
    """The layout of path judged by its shape and name, or None when it is not recognised."""
    if path.is_dir():
        return next((layout.name for layout in LAYOUTS if layout.holds is not None and layout.holds(path)), None)
    name = path.name.lower()
    return next((layout.name for layout in LAYOUTS if name.endswith(layout.suffixes)), None)


def looked_for(path: Path, fmt: str, chosen: str) -> str:
    """What reading path as the chosen layout looked for (with auto, a folder: what every layout looks for)."""
    layouts = [x for x in LAYOUTS if x.holds is not None] if fmt == "auto" and path.is_dir() else [LAYOUT_NAMED[chosen]]
    return "; ".join(f"{layout.looks_for} ({layout.name})" for layout in layouts)


def iter_documents(
    paths: Iterable[str | Path], fmt: str = "auto", limits: Limits = Limits()
) -> Iterator[RawDocument | Rejected]:
    """The documents of every path in turn, each screened; unreadable inputs come as Rejected, and so does
    a path that gives no document at all."""
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
        found = False
        for document in READERS[chosen](source, limits):
            found = True
            yield screen(document, limits)
        if not found:
            yield Rejected(path.name or source, source, f"nothing to read: looked for {looked_for(path, fmt, chosen)}")
