"""The steps of an extraction job: `plan` (which pairs are missing, cut into chunks; a composition's parts
run in its place; and which captured pages' renderings in Chromium lack an extractor's output), `pairs` (compute
one chunk of (page, extractor) pairs), `renderings` (the extractors on a chunk of renderings:
steps/rendering_step.py), `derive` (the compositions' extractions derived from their parts'
(steps/composed_extractions.py), the new extractions' scores and the pages' disagreement, then the checks of the
gold on those pages). An upload's job reuses `pairs`, `renderings` and `derive` after its import.

Each step acts as the user who started the job, through usecases/run_extraction.py (refused there when they may
no longer extract). `pairs` reads its pages' HTML in a short read transaction, runs the calls with no transaction open,
and stores the results a few at a time, each batch in a short write transaction that first checks the
chunk is still this worker's and the job still open. A rerun of a chunk (its worker was killed) skips
every pair stored meanwhile: only what is missing is computed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from itertools import groupby
from typing import Any

from sqlalchemy.orm import Session

from ..extractors.base import Extractor
from ..extractors.process_pool import Call, Result
from ..jobs.context import Context, Follow
from ..models import Job, utcnow
from ..usecases.outcome import Actor
from ..usecases.run_extraction import (
    extracted_since,
    naive,
    pairs_to_extract,
    plan_extraction,
    refresh_after_extraction,
    store_extractions,
)
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
    """The job's missing pairs as `pairs` chunks, and `renderings` chunks (about as many calls each) of the
    captured pages' renderings in Chromium that lack one of its extractors' output (an extractor added after a
    capture reaches them); the job's total is set to the pairs' number."""
    found = plan_extraction(session, ctx.settings, Actor.of_job(session, ctx.job_id), ctx.params, page_ids)
    size = ctx.settings.workers.chunk_pairs
    ctx.stage("extracting", len(found.pairs))
    per_chunk = max(1, size // max(1, found.extractors))
    return ([("pairs", chunk) for chunk in chunk_pairs(found.pairs, size)]
            + [(RENDERINGS, found.renderings[start:start + per_chunk])
               for start in range(0, len(found.renderings), per_chunk)])


def plan_step(ctx: Context) -> Follow:
    with ctx.reader() as session:
        return plan_pairs(ctx, session)


def _seconds_since(moment: datetime) -> float:
    return (naive(utcnow()) - naive(moment)).total_seconds()


def pairs_step(ctx: Context) -> Follow:
    with ctx.reader() as session:
        actor = Actor.of_job(session, ctx.job_id)
        calls, gone = pairs_to_extract(session, ctx.settings, actor, ctx.job_id, ctx.params, ctx.work)
    run_calls(ctx, calls, lambda results: _flush(ctx, actor, results))
    if gone:
        ctx.progress(gone)  # nothing left to compute for them: the job still reaches its total
    return []


def run_calls(ctx: Context, calls: list[Call], flush: Callable[[list[Result]], None]) -> None:
    """Run the calls in the worker's pool, handing their results to ``flush`` a few at a time."""
    buffer: list[Result] = []
    flushed = time.monotonic()
    for result in ctx.pool().run(calls):
        buffer.append(result)
        if len(buffer) >= FLUSH_RESULTS or time.monotonic() - flushed >= FLUSH_SECONDS:
            flush(buffer)
            buffer, flushed = [], time.monotonic()
    if buffer:
        flush(buffer)


def _flush(ctx: Context, actor: Actor, results: list[Result]) -> None:
    with ctx.writer() as session:
        ctx.check(session)
        store_extractions(session, ctx.settings, actor, results)
        ctx.progress(len(results), sum(result.error is not None for result in results), session)
        session.commit()


def derive_step(ctx: Context) -> Follow:
    """Cache the scores of the pages this job extracted and measure their disagreement over the
    current candidates, a few hundred pages per transaction. What the extracting stage did is kept in
    the job's result as the stage ends (once: a rerun of this step finds it there)."""
    with ctx.reader() as session:
        actor = Actor.of_job(session, ctx.job_id)
    composed = derive_compositions(ctx, actor)
    with ctx.writer() as session:
        ctx.check(session)
        job = session.get(Job, ctx.job_id)
        assert job is not None  # ctx.check found it open
        if "extracted" not in job.result:
            job.result = {**job.result, "extracted": job.done, "errors": job.errors,
                          "extract_seconds": round(_seconds_since(job.started_at or job.created_at), 3)}
        job.result = {**job.result, "composed": job.result.get("composed", 0) + composed}
        page_ids = extracted_since(session, actor, job.created_at)
        session.commit()
    deriving = time.monotonic()
    ctx.stage("scoring", len(page_ids))
    written = 0
    for part, session in ctx.in_parts(page_ids, DERIVE_PAGES):
        written += refresh_after_extraction(session, ctx.settings, actor, part)
    failing = check_pages(ctx, actor, page_ids)
    with ctx.writer() as session:
        ctx.check(session)
        job = session.get(Job, ctx.job_id)
        assert job is not None  # ctx.check found it open
        job.result = {**job.result, "scores": written, "measured": len(page_ids), "failing_checks": failing,
                      "derive_seconds": round(time.monotonic() - deriving, 3)}
        session.commit()
    return []
