"""The extraction of captured pages' renderings in Chromium: every extraction job (`goldtext extract`, an
import's, a capture's) plans, beside its `pairs`, `renderings` chunks of the renderings that lack one of its
extractors' output (extractors/extraction_service.py `missing_rendering_ids`: an extractor added after the
capture reaches the renderings too), runs its extractors on each, as `pairs` runs them on the raw response, and
stores each output apart from those (`store_on_rendering`). A page whose team scores its rendering
(`Page.scored_rendering`) has the counts of the extractions whose output on the rendering is new dropped, so
that the job's `derive` step scores them on it. A rerun computes only what is missing."""

from __future__ import annotations

import time

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..extractors.compositions import runs_of
from ..extractors.extraction_service import current_extractors, known_now, store_on_rendering
from ..extractors.process_pool import Call, Result
from ..jobs.context import Context, Follow
from ..models import RENDERED, Extraction, Job, Page, PageRendering, RenderingExtraction, Score
from .extraction_steps import FLUSH_RESULTS, FLUSH_SECONDS, naive


def renderings_step(ctx: Context) -> Follow:
    with ctx.reader() as session:
        registry = ctx.settings.registry
        extractors = runs_of(current_extractors(session, registry, ctx.params.get("extractors") or ()),
                             known_now(session, registry))
        rows = session.execute(select(PageRendering.id, PageRendering.html, Page.url).join(
            Page, Page.id == PageRendering.page_id).where(PageRendering.id.in_(ctx.work))).all()
        stored = session.execute(select(RenderingExtraction.rendering_id, RenderingExtraction.fingerprint,
                                        RenderingExtraction.created_at)
                                 .where(RenderingExtraction.rendering_id.in_(ctx.work))).all()
        since = session.scalar(select(Job.created_at).where(Job.id == ctx.job_id)) if ctx.params.get("force") else None
    done = {(rendering_id, fingerprint) for rendering_id, fingerprint, created_at in stored
            if since is None or naive(created_at) >= naive(since)}  # forced: what this job stored already
    calls = [Call(key=(rendering_id, len(html)), extractor=extractor, html=html, url=url)
             for rendering_id, html, url in rows for extractor in extractors
             if (rendering_id, extractor.fingerprint) not in done]
    buffer: list[Result] = []
    flushed = time.monotonic()
    for result in ctx.pool().run(calls):
        buffer.append(result)
        if len(buffer) >= FLUSH_RESULTS or time.monotonic() - flushed >= FLUSH_SECONDS:
            _flush(ctx, buffer)
            buffer, flushed = [], time.monotonic()
    _flush(ctx, buffer)
    return []


def _flush(ctx: Context, results: list[Result]) -> None:
    if not results:
        return
    with ctx.writer() as session:
        ctx.check(session)
        for result in results:
            store_on_rendering(session, result, ctx.settings.run.guard)
        session.flush()
        _drop_scored_counts(session, [(result.key[0], result.fingerprint) for result in results])
        session.commit()


def _drop_scored_counts(session: Session, outputs: list[tuple[int, str]]) -> None:
    """The cached counts of the extractions these new outputs on renderings replace where they are scored."""
    for rendering_id, fingerprint in outputs:
        session.execute(delete(Score).where(Score.extraction_id.in_(
            select(Extraction.id).join(PageRendering, PageRendering.page_id == Extraction.page_id)
            .join(Page, Page.id == Extraction.page_id)
            .where(PageRendering.id == rendering_id, Extraction.fingerprint == fingerprint,
                   Page.scored_rendering == RENDERED))))

