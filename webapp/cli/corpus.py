"""`goldtext import`: pages in, with a progress bar and a per-item report."""

from __future__ import annotations

import os
import time

import click
from flask import current_app
from flask.cli import with_appcontext

from ..corpus.document import Limits
from ..corpus.importer import SITE_FROM, import_documents, nothing_imported, start_batch
from ..corpus.readers import FORMATS, iter_documents
from ..db import sessions
from ..models import ImportBatch
from .actor import cli_actor, cli_record

COMMIT_SECONDS = 0.25  # the write lock is held at most about this long at a time


def run_import(
    paths: list[str], fmt: str, site_from: str, label: str, jobs: int | None = None
) -> ImportBatch:
    """Import PATHS, showing progress, committing every COMMIT_SECONDS so that web requests and workers
    writing meanwhile never wait long; returns the committed batch."""
    with sessions()() as session:
        batch = start_batch(session, ", ".join(paths), fmt, cli_actor())
        cli_record(session, "import", f"batch {batch.id}", {"paths": paths, "format": fmt})
        session.commit()
        outcomes = import_documents(
            session, batch, iter_documents(paths, fmt, Limits.from_config(current_app.config)), site_from,
            workers=jobs or os.cpu_count() or 1,
        )
        committed = time.monotonic()
        with click.progressbar(
            outcomes, label=label, item_show_func=lambda o: o.item[-40:] if o else None
        ) as bar:
            for _ in bar:
                if time.monotonic() - committed >= COMMIT_SECONDS:
                    session.commit()
                    committed = time.monotonic()
        session.commit()
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
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True,
    help="Layout of the input; auto detects it per path.",
)
@click.option(
    "--site-from", type=click.Choice(SITE_FROM), default="url", show_default=True,
    help="Take each page's site from its URL's host, or from its sub-folder's name.",
)
@click.option(
    "--jobs", type=click.IntRange(min=1), default=None,
    help="Processes decoding pages and reading their facts; default: one per core.",
)
def import_command(paths: tuple[str, ...], fmt: str, site_from: str, jobs: int | None) -> None:
    """Import saved pages (folder, zip, WARC, JSONL, Readability test pages, or any folder `goldtext export`
    wrote). Exits with status 1 when everything read was rejected, a path with nothing to read included."""
    batch = run_import(list(paths), fmt, site_from, "importing", jobs)
    echo_report(batch)
    failure = nothing_imported(batch)
    if failure is not None:
        raise click.ClickException(failure)


COMMANDS = [import_command]
