"""Start an export job from the browser: a gold dataset in one of the layouts (the Export page,
views/exports.py), or the leaderboard's choice as a datatrove pipeline (the Extractors page,
views/extractors.py). The job writes the zip the job page offers (steps/export_step.py).

The rules: only an admin exports (403); the request is one the export can write (400 naming what does not
fit: a format, a page type, a pipeline's extractor); the job is queued with its first step's chunk and the
start audited with what was asked. The face commits, then dispatches the job."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..crawl.choice import NO_CHALLENGER, NoChoice, PipelineRequest
from ..exports.export_service import ExportRequest
from ..extractors.extraction_service import current_extractors
from ..extractors.registry import UnknownExtractor
from ..foundation.settings import Settings
from ..jobs.records import create_job
from ..models import Job
from ..results.extractions import current_named
from .outcome import Actor, Refused, needs


def _queued(session: Session, settings: Settings, actor: Actor, params: dict[str, Any], detail: dict[str, Any]
            ) -> Job:
    job = create_job(session, "export", params, actor.name, settings.lease.until())
    actor.record(session, Action.EXPORT, f"job {job.id}", detail)
    return job


@needs(ADMIN, "Only an admin exports.")
def start_export(session: Session, settings: Settings, actor: Actor, request: ExportRequest) -> Job:
    """The queued export of pages and their gold (with the current extractors' predictions if asked)."""
    try:
        request.check(settings.taxonomy)
    except ValueError as error:
        raise Refused(400, str(error)) from None
    named = current_named(session, settings.registry) if request.predictions else {}
    return _queued(session, settings, actor, {"request": asdict(request), "predictions": named}, asdict(request))


@needs(ADMIN, "Only an admin exports.")
def start_pipeline_export(session: Session, settings: Settings, actor: Actor, request: PipelineRequest) -> Job:
    """The queued export of the leaderboard's choice as a datatrove pipeline."""
    try:
        request.check()
        names = [n for n in (request.extractor, request.challenger) if n and n != NO_CHALLENGER]
        if names:
            current_extractors(session, settings.registry, names)
    except (NoChoice, UnknownExtractor) as error:
        raise Refused(400, str(error)) from None
    return _queued(session, settings, actor, {"pipeline": asdict(request)}, {"format": "datatrove", **asdict(request)})
