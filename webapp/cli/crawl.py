"""The crawl on datatrove: `goldtext export --format datatrove` (the pipeline), `goldtext import --datatrove`
(a sample of its output back as a batch) and `goldtext crawl-report` (the report of a run)."""

from __future__ import annotations

import os
from pathlib import Path

import click
from flask import current_app

from ..corpus.datatrove_output import iter_records, read_datatrove
from ..crawl.choice import NoChoice, PipelineRequest
from ..crawl.export import SCRIPT
from ..crawl.output import CARD
from ..crawl.report import crawl_report, render
from ..crawl.sample import candidates, sample
from ..foundation.settings import settings_of
from ..models import ImportBatch
from ..scoring import resolve_metric
from ..usecases.export_pages import export_pipeline_choice
from ..usecases.import_pages import import_documents_into, start_import
from ..usecases.refresh import refresh_counts
from ..web.db import sessions
from .actor import command_actor


def run_pipeline_export(out: Path, request: PipelineRequest) -> None:
    """`goldtext export --format datatrove`: refresh the metric's scores, choose, write the pipeline."""
    settings = settings_of(current_app)
    metrics = settings.metrics
    try:
        request.check()
        definition = resolve_metric(metrics, request.metric)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    settings = settings_of(current_app)
    actor = command_actor()
    with sessions()() as session:
        refresh_counts(session, settings, actor, {request.metric: definition})
        session.commit()
        try:
            config = export_pipeline_choice(session, settings, actor, request, metrics, out)
        except (NoChoice, ValueError) as exc:
            raise click.ClickException(str(exc)) from exc
        session.commit()
    click.echo(f"pipeline written to {out}: {SCRIPT} and pipeline.json")
    if config["mode"] == "type":
        for page_type, route in config["routes"].items():
            click.echo(f"  {page_type}: {route['extractor']} ({route['why']})")
    elif config.get("composition"):
        parts = ", ".join(config["composition"]["options"]["parts"])
        click.echo(f"  composition {config['extractor']}: its parts {parts} run on each page and composed as the app "
                   "composes them")
    else:
        click.echo(f"  extractor: {config['extractor']}")
    click.echo(f"  challenger: {config['challenger'] or 'none'}")
    click.echo(f"  executor: {config['executor']}" + (" (the cluster RAY_ADDRESS names)" if config["executor"] == "ray"
                                                    else ""))
    click.echo(f"run it: python {out / SCRIPT} --warc PATH_OR_GLOB --out FOLDER [--tasks N] [--workers N]"
               + (" --partition NAME" if config["executor"] == "slurm" else ""))


def run_datatrove_import(output: Path, size: int, by: str | None, lowest_agreement: bool,
                         processes: int | None, lowest_quality: bool = False) -> ImportBatch:
    """Import a stratified sample of the crawl output's documents as a new batch; returns the committed batch."""
    try:
        chosen = sample(candidates(iter_records(output), by), size, lowest_agreement, lowest_quality=lowest_quality)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    if not chosen:
        raise click.ClickException(f"{output}: no document kept its HTML (run the pipeline with --keep-html-bytes)")
    how = (f"sample {size}" + (f" by {by}" if by else "") + (", lowest agreement" if lowest_agreement else "")
           + (", lowest predicted quality" if lowest_quality else ""))
    settings = settings_of(current_app)
    actor = command_actor()
    with sessions()() as session:
        batch = start_import(session, actor, f"{output} ({how})", "datatrove",
                             {"datatrove": str(output), "sample": size, "by": by,
                              "lowest_agreement": lowest_agreement, "lowest_quality": lowest_quality})
        session.commit()
        documents = read_datatrove(str(output), settings.limits, {c.position for c in chosen})
        workers = processes or os.cpu_count() or 1
        for _ in import_documents_into(session, settings, actor, batch, documents, "url", workers=workers):
            pass
        session.commit()
        return batch


@click.command("crawl-report")
@click.argument("output", type=click.Path(exists=True, file_okay=False, path_type=Path))
def crawl_report_command(output: Path) -> None:
    """Print the report of a crawl run (the output folder of an exported pipeline): documents per extractor and
    page type, timeouts and errors, the agreement with the challenger, throughput per task; and write it as a
    card (CRAWL_REPORT.md) in that folder."""
    try:
        report = crawl_report(output)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    text = render(report, output)
    (output / CARD).write_text(text + "\n", encoding="utf-8")
    click.echo(text)
    click.echo(f"card written to {output / CARD}")


COMMANDS = [crawl_report_command]
