"""The extraction of captured pages' renderings in Chromium: after an import (a capture's) the `renderings`
step runs the job's extractors on each new page's rendering, as `pairs` runs them on the raw response, and
stores each output apart from those (extractors/extraction_service.py `store_on_rendering`): the leaderboard
scores the raw response's. A rerun computes only what is missing."""

from __future__ import annotations

import time
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..extractors.extraction_service import current_extractors, store_on_rendering
from ..extractors.process_pool import Call, Result
from ..models import Page, PageRendering, RenderingExtraction
from .context import Context
from .extraction_steps import FLUSH_RESULTS, FLUSH_SECONDS, Follow

RENDERINGS = "renderings"


def plan_renderings(session: Session, page_ids: Sequence[int]) -> Follow:
    """One `renderings` chunk of the pages' renderings, or none when no page has one."""
    ids = list(session.scalars(select(PageRendering.id).where(PageRendering.page_id.in_(page_ids))
                               .order_by(PageRendering.id)))
    return [(RENDERINGS, ids)] if ids else []


def renderings_step(ctx: Context) -> Follow:
    with ctx.reader() as session:
        extractors = current_extractors(session, ctx.settings.registry, ctx.params.get("extractors") or ())
        rows = session.execute(select(PageRendering.id, PageRendering.html, Page.url).join(
            Page, Page.id == PageRendering.page_id).where(PageRendering.id.in_(ctx.work))).all()
        stored = set(session.execute(select(RenderingExtraction.rendering_id, RenderingExtraction.fingerprint)
                                     .where(RenderingExtraction.rendering_id.in_(ctx.work))).all())
    calls = [Call(key=(rendering_id, len(html)), extractor=extractor, html=html, url=url)
             for rendering_id, html, url in rows for extractor in extractors
             if (rendering_id, extractor.fingerprint) not in stored]
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
        session.commit()
