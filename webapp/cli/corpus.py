"""`goldtext import`: pages in, with a progress bar and a per-item report."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..corpus.importer import SITE_FROM, nothing_imported
from ..corpus.readers import FORMATS
from ..crawl.sample import STRATA
from ..foundation.settings import settings_of
from ..jobs.start import dispatch
from ..models import ImportBatch
from ..usecases.import_pages import end_import, import_pages, start_import
from ..web.db import sessions
from .actor import command_actor
from .crawl import run_datatrove_import
from .processes import processes_option

COMMIT_SECONDS = 0.25  # the write lock is held at most about this long at a time


def run_import(
    paths: list[str], fmt: str, site_from: str, label: str, processes: int | None = None, keep_empty: bool = True
) -> ImportBatch:
    """Import PATHS, showing progress, committing every COMMIT_SECONDS so that web requests and workers
    writing meanwhile never wait long, then ask for the checks of the imported gold, if any; returns the
    committed batch (deleted when it imported no page, unless ``keep_empty``: usecases/import_pages.py)."""
    settings = settings_of(current_app)
    actor = command_actor()
    with sessions()() as session:
        batch = start_import(session, actor, ", ".join(paths), fmt, {"paths": paths, "format": fmt})
        session.commit()
        outcomes = import_pages(session, settings, actor, batch, paths, fmt, site_from,
                                workers=processes or os.cpu_count() or 1)
        committed = time.monotonic()
        with click.progressbar(
            outcomes, label=label, item_show_func=lambda o: o.item[-40:] if o else None
        ) as bar:
            for _ in bar:
                if time.monotonic() - committed >= COMMIT_SECONDS:
                    session.commit()
                    committed = time.monotonic()
        check = end_import(session, settings, actor, batch, keep_empty)
        session.commit()
        if check is not None:
            dispatch(current_app, session, check)
        return batch


def echo_report(batch: ImportBatch) -> None:
    click.echo(
        f"batch {batch.id}: {batch.imported} imported, {batch.duplicates} duplicate, "
        f"{batch.rejected} rejected"
    )
    for row in batch.report:
        if row["status"] != "imported" or row.get("reason"):  # an imported row's reason: a draft to review
            click.echo(f"  {row['status']}: {row['item']}: {row.get('reason', '')}")


@click.command("import")
@with_appcontext
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True,
    help="Layout of the input; auto detects it per path.",
)
@click.option(
    "--site-from", type=click.Choice(SITE_FROM), default="url", show_default=True,
    help="Take each page's site from its URL's host, or from its sub-folder's name.",
)
@processes_option("Processes decoding pages and reading their facts; default: one per core.")
@click.option("--datatrove", "crawl", type=click.Path(exists=True, file_okay=False, path_type=Path),
              metavar="OUTPUT", help="Import a sample of a crawl pipeline's output folder instead of PATHS.")
@click.option("--sample", type=click.IntRange(min=1), default=None, metavar="N",
              help="--datatrove: how many documents (required with it).")
@click.option("--by", type=click.Choice(STRATA), default=None,
              help="--datatrove: share the sample among page types or sites, in proportion to their documents.")
@click.option("--lowest-agreement", is_flag=True,
              help="--datatrove: take the documents whose extractor and challenger agree least (else at random).")
@click.option("--lowest-quality", is_flag=True,
              help="--datatrove: take the documents whose rs-trafilatura predicted the lowest quality of its own "
                   "extraction (it must be the pipeline's extractor or challenger).")
def import_command(paths: tuple[str, ...], fmt: str, site_from: str, processes: int | None, crawl: Path | None,
                   sample: int | None, by: str | None, lowest_agreement: bool, lowest_quality: bool) -> None:
    """Import saved pages (folder, zip, WARC, JSONL, Readability test pages, or any folder `goldtext export`
    wrote), or with --datatrove a stratified sample of a crawl's documents as a batch to annotate. Exits with
    status 1 when everything read was rejected, a path with nothing to read included."""
    if crawl is not None:
        if paths or sample is None:
            raise click.UsageError("--datatrove OUTPUT takes --sample N and no PATHS")
        if lowest_agreement and lowest_quality:
            raise click.UsageError("--lowest-agreement and --lowest-quality are two orders: choose one")
        batch = run_datatrove_import(crawl, sample, by, lowest_agreement, processes, lowest_quality)
    elif not paths:
        raise click.UsageError("give PATHS to import, or --datatrove OUTPUT --sample N")
    elif sample is not None or by is not None or lowest_agreement or lowest_quality:
        raise click.UsageError("--sample, --by, --lowest-agreement and --lowest-quality apply to --datatrove only")
    else:
        batch = run_import(list(paths), fmt, site_from, "importing", processes)
    echo_report(batch)
    if nothing_imported(batch) is not None:  # the report above has said why, item by item
        raise click.ClickException(f"no page was imported: the {batch.rejected} item(s) read were all rejected, "
                                   "for the reasons above")


COMMANDS = [import_command]
