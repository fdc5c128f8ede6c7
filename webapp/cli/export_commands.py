"""`goldtext export`: gold datasets out, in the layouts `goldtext import` reads."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..crawl.choice import NO_CHALLENGER, PipelineRequest
from ..crawl.plan import EXECUTORS
from ..exports.export_service import FORMATS, ExportRequest
from ..foundation.settings import settings_of
from ..foundation.vocabulary import GOLD_STATUSES
from ..usecases.export_pages import export_pages
from ..usecases.refresh import refresh_counts
from ..web.db import sessions
from .actor import command_actor
from .crawl import run_pipeline_export
from .known_sites import check_sites
from .page_type_option import page_type_option

DATATROVE = "datatrove"


@click.command("export")
@with_appcontext
@click.option("--format", "fmt", type=click.Choice((*FORMATS, DATATROVE)), required=True,
              help="Layout of the export; datatrove: a runnable crawl pipeline (docs/extractors.md).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write (new, or empty).")
@click.option("--status", "statuses", multiple=True, type=click.Choice(list(GOLD_STATUSES)),
              help="Only pages whose gold has this status (repeatable).")
@click.option("--site", "sites", multiple=True, metavar="HOST", help="Only this site (repeatable).")
@page_type_option(help="Only pages whose gold has this page type (repeatable; one of the PAGE_TYPES setting).")
@click.option("--with-html/--without-html", default=True, show_default=True,
              help="jsonl: include each page's HTML.")
@click.option("--with-extractions", is_flag=True, help="jsonl, folder: include every extraction with its fingerprint.")
@click.option("--predictions", is_flag=True,
              help="scrapinghub, wcxb, wceb, webmainbench: also write the predictions of each extractor "
                   "that has extractions.")
@click.option("--adjudicated", is_flag=True,
              help="Only pages whose gold was adjudicated from two annotations or more.")
@click.option("--extractor", metavar="NAME", help="datatrove: the extractor (or variant) the pipeline runs.")
@click.option("--by", type=click.Choice(["type"]),
              help="datatrove: run the leaderboard's winner of each page type, the type read from the page facts.")
@click.option("--challenger", metavar="NAME",
              help=f"datatrove: the second extractor whose agreement is recorded (default: the runner-up; "
                   f"{NO_CHALLENGER!r}: none).")
@click.option("--keep-html-bytes", type=click.IntRange(min=0), default=0, show_default=True,
              help="datatrove: keep each page's HTML up to this size in the output (for `import --datatrove`).")
@click.option("--metric", default="tokens", show_default=True, help="datatrove: the metric that ranks extractors.")
@click.option("--executor", type=click.Choice(EXECUTORS), default=EXECUTORS[0], show_default=True,
              help="datatrove: where the script runs its tasks unless its own --executor says otherwise "
                   "(ray: the cluster RAY_ADDRESS names; needs goldtext[ray]).")
def export_command(fmt, out, statuses, sites, page_types, with_html, with_extractions, predictions, adjudicated,
                   extractor, by, challenger, keep_html_bytes, metric, executor) -> None:
    """Export pages and their gold (jsonl, folder, scrapinghub, trafilatura-eval, wcxb, wceb), scores (csv), or
    the leaderboard's choice as a runnable datatrove pipeline (datatrove)."""
    check_sites(sites)
    if fmt == DATATROVE:
        run_pipeline_export(out, PipelineRequest(extractor, by, challenger, keep_html_bytes, metric, executor))
        return
    if extractor or by or challenger or keep_html_bytes or metric != "tokens" or executor != EXECUTORS[0]:
        raise click.UsageError("--extractor, --by, --challenger, --keep-html-bytes, --metric and --executor apply to "
                               "--format datatrove only")
    request = ExportRequest(fmt, statuses, sites, page_types, with_html, with_extractions, predictions, adjudicated)
    try:
        request.check(settings_of(current_app).taxonomy)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    settings = settings_of(current_app)
    actor = command_actor()
    with sessions()() as session:
        metrics = settings_of(current_app).eager
        if fmt == "csv":
            refresh_counts(session, settings, actor, metrics)
            session.commit()
        with click.progressbar(length=1, label=f"exporting {fmt}") as bar:
            def progress(done: int, total: int) -> None:
                bar.length = total
                bar.update(done - bar.pos)

            try:
                tally = export_pages(session, settings, actor, request, out, metrics=metrics, progress=progress)
            except ValueError as exc:
                raise click.ClickException(str(exc)) from exc
        session.commit()
    click.echo(f"{tally.pages} pages exported to {out} ({fmt}); see {out / 'README.md'}")


COMMANDS = [export_command]
