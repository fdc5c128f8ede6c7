"""The extraction of captured pages' renderings in Chromium: every extraction job (`goldtext extract`, an
import's, a capture's) plans, beside its `pairs`, `renderings` chunks of the renderings that lack one of its
extractors' output (extractors/extraction_service.py `missing_rendering_ids`: an extractor added after the
capture reaches the renderings too), runs its extractors on each, as `pairs` runs them on the raw response, and
stores each output apart from those (`store_on_rendering`). A page whose team scores its rendering
(`Page.scored_rendering`) has the counts of the extractions whose output on the rendering is new dropped, so
that the job's `derive` step scores them on it. A rerun computes only what is missing. As the user who started the
job (usecases/run_extraction.py)."""

from __future__ import annotations

from ..extractors.process_pool import Result
from ..jobs.context import Context, Follow
from ..usecases.outcome import Actor
from ..usecases.run_extraction import renderings_to_extract, store_rendering_extractions
from .extraction_steps import run_calls


def renderings_step(ctx: Context) -> Follow:
    with ctx.reader() as session:
        actor = Actor.of_job(session, ctx.job_id)
        calls = renderings_to_extract(session, ctx.settings, actor, ctx.job_id, ctx.params, ctx.work)
    run_calls(ctx, calls, lambda results: _flush(ctx, actor, results))
    return []


def _flush(ctx: Context, actor: Actor, results: list[Result]) -> None:
    with ctx.writer() as session:
        ctx.check(session)
        store_rendering_extractions(session, ctx.settings, actor, results)
        session.commit()
