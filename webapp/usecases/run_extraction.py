"""The work of an extraction job, as the user who started it (`goldtext extract`, an upload's or a capture's job:
an admin; usecases/extract.py starts it): which (page, extractor) pairs and which captured pages' renderings lack
an output, the calls that compute them, storing the outputs, and what follows a run (the compositions' derived
extractions: usecases/derive_compositions.py; the pages' scores, disagreement and predicted quality). The job's
steps call these (steps/extraction_steps.py, steps/rendering_step.py) and commit a few outputs at a time.

The rules: only an admin extracts (403), checked at each call: a starter disabled or demoted since the start is
refused at the job's next step, and nothing more is stored; an extractor removed since the job was planned is
skipped; a forced job recomputes every pair once (what it stored itself is not computed again), an unforced one
what is missing or failed with a retryable error; an output's article metadata is stored in the one shape
(`in_shape`); a page whose team scores its rendering has the counts of the extractions whose output on the
rendering is new dropped, so that the job's last step scores them on it. Never commits."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..accounts.roles import ADMIN
from ..annotation.article_metadata import checked
from ..annotation.disagreement import refresh_disagreement
from ..annotation.predicted_quality import refresh_predicted_quality
from ..extractors.base import Extractor
from ..extractors.compositions import runs_of
from ..extractors.extraction_service import (
    MAX_ATTEMPTS,
    current_extractors,
    known_now,
    missing_rendering_ids,
    plan,
    retryable,
    store_all,
    store_on_rendering,
)
from ..extractors.process_pool import Call, Result
from ..extractors.variants import with_variants
from ..foundation.settings import Settings
from ..models import RENDERED, Extraction, Job, Page, PageRendering, RenderingExtraction, Score
from ..results.store import refresh_scores
from ..scoring import Metric
from .outcome import Actor, needs

ONLY_ADMINS = "Only an admin extracts."


@dataclass(frozen=True)
class Plan:
    pairs: list[tuple[int, Extractor]]
    """The (page id, extractor) pairs to compute, a page's pairs together."""
    renderings: list[int]
    """The renderings in Chromium that lack one of the extractors' output."""
    extractors: int
    """How many extractors run (a composition's parts in its place)."""


@needs(ADMIN, ONLY_ADMINS)
def plan_extraction(session: Session, settings: Settings, actor: Actor, params: Mapping[str, Any],
                    page_ids: Sequence[int] | None = None) -> Plan:
    """What an extraction job (its parameters: usecases/extract.py `ExtractionRequest.params`) computes, on these
    pages (None: every page of its site, or every page)."""
    registry = settings.registry
    extractors = runs_of(current_extractors(session, registry, params.get("extractors") or ()),
                         known_now(session, registry))
    if params.get("derive_only"):
        extractors = []  # a new composition: derived from what is stored, nothing run
    site, force = params.get("site"), bool(params.get("force"))
    pairs = plan(session, extractors, site, force, page_ids, bool(params.get("outdated")))
    return Plan(pairs, missing_rendering_ids(session, extractors, site, force, page_ids), len(extractors))


def naive(value: datetime) -> datetime:
    """As naive UTC: SQLite returns naive UTC datetimes, PostgreSQL aware ones in its own time zone."""
    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value


def forced_since(session: Session, job_id: int, params: Mapping[str, Any]) -> datetime | None:
    """When a forced job began (what it stored since is not computed again); None for a job that is not."""
    return session.scalar(select(Job.created_at).where(Job.id == job_id)) if params.get("force") else None


@needs(ADMIN, ONLY_ADMINS)
def pairs_to_extract(session: Session, settings: Settings, actor: Actor, job_id: int, params: Mapping[str, Any],
                     work: Sequence[Sequence[Any]]) -> tuple[list[Call], int]:
    """The calls of a chunk's [page id, extractor name] pairs that still need computing, with the extractors as
    they stand now, and how many pairs are dropped because their extractor is gone (a variant removed since)."""
    registry = settings.registry
    known = with_variants(session, registry)
    names = sorted({name for _, name in work if name in known})
    extractors = {e.name: e for e in current_extractors(session, registry, names)}
    gone = sum(name not in extractors for _, name in work)
    work = [(page_id, name) for page_id, name in work if name in extractors]
    page_ids = sorted({page_id for page_id, _ in work})
    stored = {
        (page_id, fp): (error, attempts, created_at)
        for page_id, fp, error, attempts, created_at in session.execute(
            select(Extraction.page_id, Extraction.fingerprint, Extraction.error, Extraction.attempts,
                   Extraction.created_at)
            .where(Extraction.page_id.in_(page_ids), Extraction.fingerprint.in_([e.fingerprint for e in
                                                                                 extractors.values()])))
    }
    since = forced_since(session, job_id, params)
    wanted = []
    for page_id, name in work:
        extractor = extractors[name]
        found = stored.get((page_id, extractor.fingerprint))
        if found is not None:
            error, attempts, created_at = found
            if since is not None:
                if naive(created_at) >= naive(since):
                    continue  # recomputed by this forced job already
            elif not (retryable(error) and attempts < MAX_ATTEMPTS):
                continue
        wanted.append((page_id, extractor))
    pages = {page_id: (html, url) for page_id, html, url in session.execute(
        select(Page.id, Page.html, Page.url).where(Page.id.in_(sorted({p for p, _ in wanted}))))}
    return [Call(key=(page_id, len(pages[page_id][0])), extractor=extractor, html=pages[page_id][0],
                 url=pages[page_id][1]) for page_id, extractor in wanted], gone


@needs(ADMIN, ONLY_ADMINS)
def renderings_to_extract(session: Session, settings: Settings, actor: Actor, job_id: int,
                          params: Mapping[str, Any], rendering_ids: Sequence[int]) -> list[Call]:
    """The calls of the job's extractors on these renderings that lack their output (with ``force``: that this
    job has not stored yet)."""
    registry = settings.registry
    extractors = runs_of(current_extractors(session, registry, params.get("extractors") or ()),
                         known_now(session, registry))
    rows = session.execute(select(PageRendering.id, PageRendering.html, Page.url).join(
        Page, Page.id == PageRendering.page_id).where(PageRendering.id.in_(rendering_ids))).all()
    stored = session.execute(select(RenderingExtraction.rendering_id, RenderingExtraction.fingerprint,
                                    RenderingExtraction.created_at)
                             .where(RenderingExtraction.rendering_id.in_(rendering_ids))).all()
    since = forced_since(session, job_id, params)
    done = {(rendering_id, fingerprint) for rendering_id, fingerprint, created_at in stored
            if since is None or naive(created_at) >= naive(since)}
    return [Call(key=(rendering_id, len(html)), extractor=extractor, html=html, url=url)
            for rendering_id, html, url in rows for extractor in extractors
            if (rendering_id, extractor.fingerprint) not in done]


def in_shape(result: Result) -> Result:
    """The result with its article metadata in the one shape (annotation/article_metadata.py `checked`); an
    extractor (a plugin, say) that gave it in another keeps its text, and its metadata is dropped (not scored),
    the reason kept in the extraction's metadata as `article_metadata_error`."""
    try:
        return replace(result, article_metadata=checked(result.article_metadata, extra=True) or None)
    except ValueError as error:
        return replace(result, article_metadata=None,
                       metadata={**result.metadata, "article_metadata_error": f"{result.extractor_name}: {error}"})


@needs(ADMIN, ONLY_ADMINS)
def store_extractions(session: Session, settings: Settings, actor: Actor, results: Iterable[Result]) -> None:
    """Store these outputs on the pages' raw responses (an extractor's, or a composition's derived), each
    judged by the accept guard, replacing what is stored at their fingerprint."""
    store_all(session, [in_shape(result) for result in results], settings.run.guard)


@needs(ADMIN, ONLY_ADMINS)
def store_rendering_extractions(session: Session, settings: Settings, actor: Actor,
                                results: Sequence[Result]) -> None:
    """Store these outputs on the renderings, and drop the counts of the extractions they replace where the
    page scores its rendering."""
    for result in results:
        store_on_rendering(session, result, settings.run.guard)
    session.flush()
    for rendering_id, fingerprint in [(result.key[0], result.fingerprint) for result in results]:
        session.execute(delete(Score).where(Score.extraction_id.in_(
            select(Extraction.id).join(PageRendering, PageRendering.page_id == Extraction.page_id)
            .join(Page, Page.id == Extraction.page_id)
            .where(PageRendering.id == rendering_id, Extraction.fingerprint == fingerprint,
                   Page.scored_rendering == RENDERED))))


@needs(ADMIN, ONLY_ADMINS)
def extracted_since(session: Session, actor: Actor, since: datetime) -> list[int]:
    """The pages whose scores and disagreement a run that began at ``since`` refreshes: those it extracted (on
    their raw response or their rendering), and every page whose disagreement was never measured."""
    touched = set(session.scalars(select(Extraction.page_id).where(Extraction.created_at >= since).distinct()))
    touched |= set(session.scalars(
        select(PageRendering.page_id)
        .join(RenderingExtraction, RenderingExtraction.rendering_id == PageRendering.id)
        .where(RenderingExtraction.created_at >= since).distinct()))
    return pages_to_derive(session, touched)


def pages_to_derive(session: Session, page_ids: Iterable[int]) -> list[int]:
    """These pages, and any page whose disagreement was never measured."""
    unmeasured = session.scalars(select(Page.id).where(Page.disagreement.is_(None)))
    return sorted(set(page_ids) | set(unmeasured))


@needs(ADMIN, ONLY_ADMINS)
def refresh_after_extraction(session: Session, settings: Settings, actor: Actor, page_ids: Sequence[int]) -> int:
    """What follows an extraction run over these pages (`refresh_derived`), with the current extractors and the
    eager metrics; returns the scores written."""
    fingerprints = [e.fingerprint for e in current_extractors(session, settings.registry) if not e.parts]
    return refresh_derived(session, page_ids, fingerprints, settings.eager, settings.taxonomy.no_content)


def refresh_derived(
    session: Session, page_ids: Sequence[int], fingerprints: Collection[str], metrics: Mapping[str, Metric],
    no_content: Collection[str],
) -> int:
    """Their extractions' cached scores, their disagreement over the candidates an annotator sees (the current
    fingerprints), and rs-trafilatura's predicted quality from its current extraction. Returns the scores (of
    these metrics) written."""
    refresh_disagreement(session, page_ids, fingerprints=fingerprints)
    refresh_predicted_quality(session, page_ids, fingerprints=fingerprints)
    return refresh_scores(session, metrics, page_ids, no_content=no_content)
