"""The steps of an extraction job: `plan` (which pairs are missing, cut into chunks; a composition's parts
run in its place; and which captured pages' renderings in Chromium lack an extractor's output), `pairs` (compute
one chunk of (page, extractor) pairs), `renderings` (the extractors on a chunk of renderings:
steps/rendering_step.py), `derive` (the compositions' extractions derived from their parts'
(steps/composed_extractions.py), the new extractions' scores and the pages' disagreement, then the checks of the
gold on those pages). An upload's job reuses `pairs`, `renderings` and `derive` after its import.

`pairs` reads its pages' HTML in a short read transaction, runs the calls with no transaction open,
and stores the results a few at a time, each batch in a short write transaction that first checks the
chunk is still this worker's and the job still open. A rerun of a chunk (its worker was killed) skips
every pair stored meanwhile: only what is missing is computed.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from itertools import groupby
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

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
    store,
)
from ..extractors.process_pool import Call, Result
from ..extractors.variants import with_variants
from ..jobs.context import Context, Follow
from ..models import Extraction, Job, Page, PageRendering, RenderingExtraction, utcnow
from ..results.store import refresh_scores
from ..scoring import Metric
from ..usecases.outcome import Actor
from .check_step import check_pages
from .composed_extractions import derive_compositions

FLUSH_RESULTS = 16  # results stored per write transaction at most
FLUSH_SECONDS = 1.0  # ... or after this long (a killed worker loses at most this much work)
DERIVE_PAGES = 200  # pages per transaction when scores and disagreement are refreshed

RENDERINGS = "renderings"
"""The step that runs the extractors on captured pages' renderings in Chromium (steps/rendering_step.py)."""


def chunk_pairs(pairs: Sequence[tuple[int, Extractor]], size: int) -> list[list[list[Any]]]:
    """[[page id, extractor name], ...] chunks of about `size` pairs; a page's pairs stay together."""
    chunks: list[list[list[Any]]] = [[]]
    for page_id, group in groupby(pairs, key=lambda pair: pair[0]):
        names = [[page_id, extractor.name] for _, extractor in group]
        if chunks[-1] and len(chunks[-1]) + len(names) > size:
            chunks.append([])
        chunks[-1].extend(names)
    return [chunk for chunk in chunks if chunk]


def plan_pairs(ctx: Context, session: Session, page_ids: Sequence[int] | None = None) -> Follow:
    """The job's missing pairs as `pairs` chunks; the job's total is set to their number."""
    params = ctx.params
    registry = ctx.settings.registry
    known = known_now(session, registry)
    extractors = runs_of(current_extractors(session, registry, params.get("extractors") or ()), known)
    if params.get("derive_only"):
        extractors = []  # a new composition: derived from what is stored, nothing run
    site, force, size = params.get("site"), bool(params.get("force")), ctx.settings.workers.chunk_pairs
    pairs = plan(session, extractors, site, force, page_ids, bool(params.get("outdated")))
    ctx.stage("extracting", len(pairs))
    return ([("pairs", chunk) for chunk in chunk_pairs(pairs, size)]
            + plan_renderings(session, extractors, size, site, force, page_ids))


def plan_renderings(session: Session, extractors: Sequence[Extractor], size: int, site: str | None = None,
                    force: bool = False, page_ids: Sequence[int] | None = None) -> Follow:
    """`renderings` chunks (about `size` calls each) of the captured pages' renderings in Chromium that lack one
    of the extractors' output (every rendering with `force`): an extractor added after a capture reaches them."""
    ids = missing_rendering_ids(session, extractors, site, force, page_ids)
    per_chunk = max(1, size // max(1, len(extractors)))
    return [(RENDERINGS, ids[start:start + per_chunk]) for start in range(0, len(ids), per_chunk)]


def plan_step(ctx: Context) -> Follow:
    with ctx.reader() as session:
        return plan_pairs(ctx, session)


def _wanted(ctx: Context, session: Session, work: list[list[Any]]) -> tuple[list[tuple[int, Extractor]], int]:
    """The chunk's pairs that still need computing, with the extractors as they stand now, and how many
    pairs are dropped because their extractor is gone (a variant removed since the job was planned)."""
    registry = ctx.settings.registry
    known = with_variants(session, registry)
    names = sorted({name for _, name in work if name in known})
    extractors = {e.name: e for e in current_extractors(session, registry, names)}
    gone = [pair for pair in work if pair[1] not in extractors]
    work = [pair for pair in work if pair[1] in extractors]
    page_ids = sorted({page_id for page_id, _ in work})
    fingerprints = [e.fingerprint for e in extractors.values()]
    stored = {
        (page_id, fp): (error, attempts, created_at)
        for page_id, fp, error, attempts, created_at in session.execute(
            select(Extraction.page_id, Extraction.fingerprint, Extraction.error, Extraction.attempts,
                   Extraction.created_at)
            .where(Extraction.page_id.in_(page_ids), Extraction.fingerprint.in_(fingerprints))
        )
    }
    force_since = None
    if ctx.params.get("force"):
        force_since = session.scalar(select(Job.created_at).where(Job.id == ctx.job_id))
    wanted = []
    for page_id, name in work:
        extractor = extractors[name]
        found = stored.get((page_id, extractor.fingerprint))
        if found is not None:
            error, attempts, created_at = found
            if force_since is not None:
                if naive(created_at) >= naive(force_since):
                    continue  # recomputed by this forced job already
            elif not (retryable(error) and attempts < MAX_ATTEMPTS):
                continue
        wanted.append((page_id, extractor))
    return wanted, len(gone)


def naive(value: datetime) -> datetime:
    """As naive UTC: SQLite returns naive UTC datetimes, PostgreSQL aware ones in its own time zone."""
    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value


def _seconds_since(moment: datetime) -> float:
    return (naive(utcnow()) - naive(moment)).total_seconds()


def pairs_step(ctx: Context) -> Follow:
    with ctx.reader() as session:
        wanted, gone = _wanted(ctx, session, ctx.work)
        pages = {
            page_id: (html, url)
            for page_id, html, url in session.execute(
                select(Page.id, Page.html, Page.url).where(Page.id.in_(sorted({p for p, _ in wanted})))
            )
        }
    settings = ctx.settings.run
    calls = [Call(key=(page_id, len(pages[page_id][0])), extractor=extractor, html=pages[page_id][0],
                  url=pages[page_id][1]) for page_id, extractor in wanted]
    buffer: list[Result] = []
    flushed = time.monotonic()
    for result in ctx.pool().run(calls):
        buffer.append(result)
        if len(buffer) >= FLUSH_RESULTS or time.monotonic() - flushed >= FLUSH_SECONDS:
            _flush(ctx, buffer, settings)
            buffer, flushed = [], time.monotonic()
    _flush(ctx, buffer, settings)
    if gone:
        ctx.progress(gone)  # nothing left to compute for them: the job still reaches its total
    return []


def _flush(ctx: Context, results: list[Result], settings) -> None:
    if not results:
        return
    with ctx.writer() as session:
        ctx.check(session)
        for result in results:
            store(session, in_shape(result), settings.guard, replace=True)
        ctx.progress(len(results), sum(result.error is not None for result in results), session)
        session.commit()


def in_shape(result: Result) -> Result:
    """The result with its article metadata in the one shape (annotation/article_metadata.py `checked`); an
    extractor (a plugin, say) that gave it in another keeps its text, and its metadata is dropped (not scored),
    the reason kept in the extraction's metadata as `article_metadata_error`."""
    try:
        return replace(result, article_metadata=checked(result.article_metadata, extra=True) or None)
    except ValueError as error:
        return replace(result, article_metadata=None,
                       metadata={**result.metadata, "article_metadata_error": f"{result.extractor_name}: {error}"})


def derive_step(ctx: Context) -> Follow:
    """Cache the scores of the pages this job extracted and measure their disagreement over the
    current candidates, a few hundred pages per transaction. What the extracting stage did is kept in
    the job's result as the stage ends (once: a rerun of this step finds it there)."""
    composed = derive_compositions(ctx)
    with ctx.writer() as session:
        ctx.check(session)
        job = session.get(Job, ctx.job_id)
        assert job is not None  # ctx.check found it open
        if "extracted" not in job.result:
            job.result = {**job.result, "extracted": job.done, "errors": job.errors,
                          "extract_seconds": round(_seconds_since(job.started_at or job.created_at), 3)}
        job.result = {**job.result, "composed": job.result.get("composed", 0) + composed}
        touched = set(session.scalars(
            select(Extraction.page_id).where(Extraction.created_at >= job.created_at).distinct()))
        touched |= set(session.scalars(  # a new output on a rendering: scored there if the page scores its rendering
            select(PageRendering.page_id)
            .join(RenderingExtraction, RenderingExtraction.rendering_id == PageRendering.id)
            .where(RenderingExtraction.created_at >= job.created_at).distinct()))
        page_ids = pages_to_derive(session, touched)
        session.commit()
    with ctx.reader() as session:
        fingerprints = [e.fingerprint for e in current_extractors(session, ctx.settings.registry) if not e.parts]
    metrics = ctx.settings.eager
    no_content = ctx.settings.taxonomy.no_content
    deriving = time.monotonic()
    ctx.stage("scoring", len(page_ids))
    written = 0
    for part, session in ctx.in_parts(page_ids, DERIVE_PAGES):
        written += refresh_derived(session, part, fingerprints, metrics, no_content)
    with ctx.reader() as session:
        actor = Actor.of_job(session, ctx.job_id)
    failing = check_pages(ctx, actor, page_ids)
    with ctx.writer() as session:
        ctx.check(session)
        job = session.get(Job, ctx.job_id)
        assert job is not None  # ctx.check found it open
        job.result = {**job.result, "scores": written, "measured": len(page_ids), "failing_checks": failing,
                      "derive_seconds": round(time.monotonic() - deriving, 3)}
        session.commit()
    return []


def pages_to_derive(session: Session, page_ids: Iterable[int]) -> list[int]:
    """The pages whose scores and disagreement an extraction run over page_ids refreshes: those, and
    any page whose disagreement was never measured."""
    unmeasured = session.scalars(select(Page.id).where(Page.disagreement.is_(None)))
    return sorted(set(page_ids) | set(unmeasured))


def refresh_derived(
    session: Session, page_ids: Sequence[int], fingerprints: Collection[str], metrics: Mapping[str, Metric],
    no_content: Collection[str],
) -> int:
    """What follows an extraction run over these pages: their extractions' cached scores, and their
    disagreement over the candidates an annotator sees (the current fingerprints), and rs-trafilatura's
    predicted quality from its current extraction. Returns the scores
    (of these metrics) written."""
    refresh_disagreement(session, page_ids, fingerprints=fingerprints)
    refresh_predicted_quality(session, page_ids, fingerprints=fingerprints)
    return refresh_scores(session, metrics, page_ids, no_content=no_content)
