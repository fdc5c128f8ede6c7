"""Export service: selected pages -> a format's files, the dataset card and SHA256SUMS in a folder.

Pages stream from the database in chunks and each is written at once, so neither a large corpus nor
its HTML is ever held in memory. Takes a session and never commits.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..extractors.registry import METADATA_ONLY
from ..foundation.vocabulary import Taxonomy, checked_page_type
from ..results.agreement_figures import annotated_pages
from ..scoring import Metric
from ..scoring.agreement_maths import agreement
from .card import FILE as CARD
from .card import Tally, dataset_card
from .checksums import write_checksums
from .csv_scores import CsvWriter
from .folder_writer import FolderWriter
from .jsonl_writer import JsonlWriter
from .scrapinghub_writer import ScrapinghubWriter
from .selection import Loading, count_pages, extracted_fingerprints, iter_pages
from .trafilatura_eval_writer import TrafilaturaEvalWriter
from .wceb_writer import WcebWriter
from .wcxb_writer import WcxbWriter
from .webmainbench_writer import WebmainbenchWriter
from .writer import WriterFactory, WriterOptions

WRITERS: Mapping[str, WriterFactory] = {
    "jsonl": JsonlWriter,
    "folder": FolderWriter,
    "scrapinghub": ScrapinghubWriter,
    "trafilatura-eval": TrafilaturaEvalWriter,
    "wcxb": WcxbWriter,
    "wceb": WcebWriter,
    "webmainbench": WebmainbenchWriter,
    "csv": CsvWriter,
}
FORMATS = tuple(WRITERS)
REQUIRES = {"scrapinghub": "gold", "trafilatura-eval": "snippets", "wcxb": "gold", "wceb": "gold",
            "webmainbench": "gold"}
WITH_PREDICTIONS = ("scrapinghub", "wcxb", "wceb", "webmainbench")
MARKDOWN_PREDICTIONS = ("webmainbench",)  # the layouts whose predictions are the extractions' Markdown

Progress = Callable[[int, int], None]  # (pages done, pages in all)


@dataclass(frozen=True)
class ExportRequest:
    """What to export; the same fields as `goldtext export`'s options."""

    fmt: str
    statuses: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    page_types: tuple[str, ...] = ()
    with_html: bool = True
    with_extractions: bool = False
    predictions: bool = False
    adjudicated: bool = False

    def check(self, taxonomy: Taxonomy) -> None:
        """ValueError naming the first option that does not apply to the format, or a page type not in
        ``taxonomy`` (the settings' page types)."""
        self.check_format()
        for page_type in self.page_types:
            checked_page_type(page_type, taxonomy, "in --type")

    def check_format(self) -> None:
        """ValueError naming the first option that does not apply to the format."""
        if self.fmt not in WRITERS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {self.fmt!r}")
        if not self.with_html and self.fmt != "jsonl":
            raise ValueError("--without-html applies to the jsonl format only (the others are made of HTML files)")
        if self.with_extractions and self.fmt not in ("jsonl", "folder"):
            raise ValueError("--with-extractions applies to the jsonl and folder formats")
        if self.predictions and self.fmt not in WITH_PREDICTIONS:
            raise ValueError(f"--predictions applies to the {', '.join(WITH_PREDICTIONS)} formats")

    def selection(self) -> PageFilter:
        requires = REQUIRES.get(self.fmt)
        return PageFilter(sites=self.sites, page_types=self.page_types, statuses=self.statuses,
                          with_gold=requires == "gold", with_snippets=requires == "snippets",
                          adjudicated=self.adjudicated)

    def command(self, out: str) -> str:
        """The `goldtext export` command line that makes this export."""
        words = ["goldtext", "export", "--format", self.fmt, "--out", out]
        for option, values in (("--status", self.statuses), ("--site", self.sites), ("--type", self.page_types)):
            for value in values:
                words += [option, value]
        words += [] if self.with_html else ["--without-html"]
        words += ["--with-extractions"] if self.with_extractions else []
        words += ["--predictions"] if self.predictions else []
        words += ["--adjudicated"] if self.adjudicated else []
        return shlex.join(words)


def goldtext_version() -> str:
    try:
        return version("goldtext")
    except PackageNotFoundError:
        return "unknown"


def prepare_folder(out: Path) -> None:
    """Create out, or accept it when it is an empty folder; ValueError otherwise."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"{out} exists and is not an empty folder")
    out.mkdir(parents=True, exist_ok=True)


def run_export(
    session: Session,
    request: ExportRequest,
    out: Path,
    *,
    predictions: Mapping[str, str] | None = None,
    metrics: Mapping[str, Metric] | None = None,
    command: str | None = None,
    progress: Progress | None = None,
) -> Tally:
    """Write the export into out (created; it must be new or empty); returns what it counted.

    ``predictions`` (extractor name -> current fingerprint) names the extractors whose predictions a
    benchmark layout (scrapinghub, wcxb, wceb) writes, one file each: only those with an extraction on an
    exported page get one (a file of empty texts is no prediction, and the benchmarks' scripts fail on it);
    the csv layout holds the per-page scores of ``metrics`` (ValueError without them).
    """
    request.check_format()  # its page types were checked when it was asked for (ExportRequest.check)
    if request.fmt == "csv" and metrics is None:
        raise ValueError("the csv layout needs the metrics whose scores it holds")
    prepare_folder(out)
    selection = request.selection()
    total = count_pages(session, selection)
    if request.predictions and predictions:
        ran = extracted_fingerprints(session, selection, list(predictions.values()))
        predictions = {name: fp for name, fp in predictions.items()
                       if fp in ran and name not in METADATA_ONLY}  # those give no text to predict
    options = WriterOptions(request.with_html, request.with_extractions,
                            dict(predictions or {}) if request.predictions else None)
    loading = Loading(
        raw=request.fmt != "csv" and request.with_html,
        extractions=request.with_extractions or request.predictions,
        scores=metrics if request.fmt == "csv" else None,
        fingerprints=(tuple((predictions or {}).values())
                      if request.predictions and not request.with_extractions else ()),
        markdown=request.predictions and request.fmt in MARKDOWN_PREDICTIONS,
    )
    writer = WRITERS[request.fmt](out, options)
    tally = Tally()
    try:
        for page in iter_pages(session, selection, loading):
            writer.add(page)
            tally.count(page)
            if progress is not None:
                progress(tally.pages, total)
    finally:
        writer.close()
    card = dataset_card(request.fmt, tally, command or request.command(str(out)), goldtext_version(),
                        datetime.now(UTC), agreement(annotated_pages(session, tally.page_ids)))
    (out / CARD).write_text(card, encoding="utf-8")
    write_checksums(out)
    return tally
