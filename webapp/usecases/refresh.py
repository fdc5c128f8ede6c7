"""Refresh scores: at once (`refresh_counts`: before a command reads or exports them, `goldtext score`, `compare` and
`export`, and the steps of the export job and of a refresh job, as the user who started it), or as a job that
computes a lazy metric's missing counts (the metrics too slow to score at each save, e.g. ROUGE): the leaderboard's
refresh button calls `start_refresh` (views/leaderboard.py).

The rules: the metric is one a refresh job computes (not an eager one: 400 naming the ones that are) and can be
computed here (MetricUnavailable: a 400 with the install hint); an open refresh of the metric is joined, not
started twice; a start is audited. The face commits, then dispatches a new job to the workers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ANNOTATOR
from ..foundation.settings import Settings
from ..jobs.records import create_job, open_job
from ..models import Extraction, Job
from ..results.store import refresh_scores
from ..scoring import Metric
from .outcome import Actor, Refused, needs
from .read_leaderboard import MetricUnavailable


@needs(ANNOTATOR, "Only a signed-in user refreshes the scores.")
def refresh_counts(session: Session, settings: Settings, actor: Actor, metrics: Mapping[str, Metric],
                   page_ids: Sequence[int] | None = None) -> None:
    """Bring these metrics' cached counts up to date for these pages (None: every page); the face commits
    before it reads them (a refresh job's step: a part of the pages at a time)."""
    refresh_scores(session, metrics, page_ids, no_content=settings.taxonomy.no_content)


def extracted_pages(session: Session) -> list[int]:
    """The pages with an extraction: those a refresh job scores."""
    return sorted(set(session.scalars(select(Extraction.page_id).distinct())))


@needs(ANNOTATOR, "Only a signed-in user starts a refresh.")
def start_refresh(session: Session, settings: Settings, actor: Actor, metric: str) -> tuple[Job, bool]:
    """The open refresh job of this metric, or a new one (True: new, flushed); audited either way; Refused
    (400) or MetricUnavailable by the rules above. Never commits."""
    definition = settings.metrics.get(metric)
    if definition is None or definition.eager:
        lazy = ", ".join(name for name, m in settings.metrics.items() if not m.eager)
        raise Refused(400, f"{metric!r} is not a metric computed by a refresh job; one of {lazy}")
    if not definition.available:
        raise MetricUnavailable(definition)
    job = open_job(session, "refresh", "metric", metric)
    created = job is None
    if job is None:
        job = create_job(session, "refresh", {"metric": metric}, actor.name, settings.lease.until())
    session.flush()
    actor.record(session, Action.REFRESH, f"job {job.id}", {"metric": metric, "created": created})
    return job, created
