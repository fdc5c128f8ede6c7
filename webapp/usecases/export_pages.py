"""Export: pages and their gold written into a folder in one of the layouts (exports/), or the leaderboard's
choice written as a runnable datatrove pipeline (crawl/). `goldtext export` writes it at once and is audited
here, when written; the browser's export job (steps/export_step.py) writes it as the user who started it, whose
start was audited (usecases/start_export.py).

The rules: only an admin exports (403); what is written reads current scores, so a CSV's scores and a
pipeline's metric are brought up to date first (usecases/refresh.py `refresh_counts`; the face commits before
the export reads them); a request the export cannot write raises ValueError (a pipeline's NoChoice) saying why. Never
commits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..crawl.choice import PipelineRequest
from ..crawl.export import export_pipeline
from ..exports.card import Tally
from ..exports.export_service import ExportRequest, Progress, run_export
from ..foundation.settings import Settings
from ..results.extractions import current_named
from ..scoring import Metric
from .outcome import Actor, needs

ONLY_ADMINS = "Only an admin exports."


@needs(ADMIN, ONLY_ADMINS)
def export_pages(session: Session, settings: Settings, actor: Actor, request: ExportRequest, out: Path, *,
                 metrics: Mapping[str, Metric], predictions: Mapping[str, str] | None = None,
                 progress: Progress | None = None, command: str | None = None, job: int | None = None) -> Tally:
    """Write the pages the request asks for into ``out``; returns what was counted. ``predictions``: the
    extractors (name -> fingerprint) whose predictions go with the pages, None for the current ones when the
    request asks for them. ``job``: the export job writing it (audited when it started), None for a command."""
    if predictions is None:
        predictions = current_named(session, settings.registry) if request.predictions else {}
    tally = run_export(session, request, out, predictions=predictions, metrics=metrics, command=command,
                       progress=progress)
    if job is None:
        actor.record(session, Action.EXPORT, str(out), {**asdict(request), "pages": tally.pages})
    return tally


@needs(ADMIN, ONLY_ADMINS)
def export_pipeline_choice(session: Session, settings: Settings, actor: Actor, request: PipelineRequest,
                           metrics: Mapping[str, Metric], out: Path, command: str = "", job: int | None = None
                           ) -> dict[str, Any]:
    """Choose from the leaderboard (its metric's scores current) and write the pipeline into ``out``; returns
    its configuration. ``job`` as for `export_pages`."""
    config = export_pipeline(session, settings.registry, metrics, request, settings.run, settings.taxonomy.page_types,
                             out, command)
    if job is None:
        actor.record(session, Action.EXPORT, str(out), {"format": "datatrove", "mode": config["mode"],
                                                        "extractor": config["extractor"],
                                                        "challenger": config["challenger"]})
    return config
