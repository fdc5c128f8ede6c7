"""The compositions' extractions, derived from their parts' stored extractions (usecases/derive_compositions.py),
never by running an extractor: the extraction job's `derive` step calls `derive_compositions` before it scores,
as the user who started the job."""

from __future__ import annotations

from ..jobs.context import Context
from ..usecases.derive_compositions import composed_outputs, compositions_to_derive
from ..usecases.outcome import Actor
from ..usecases.run_extraction import store_extractions

DERIVE_BATCH = 100
"""Pages whose parts' texts are read at once."""


def derive_compositions(ctx: Context, actor: Actor) -> int:
    """Derive every composition's missing extractions, a batch of pages at a time: composed in a read
    transaction, stored in a short write transaction of their own (a union reads each page's HTML, which is no
    work to do while holding the write lock). Returns how many were stored."""
    with ctx.reader() as session:
        known, wanted = compositions_to_derive(session, ctx.settings, actor)
    derived = 0
    for composition, pages in wanted:
        for start in range(0, len(pages), DERIVE_BATCH):
            with ctx.reader() as session:
                results = composed_outputs(session, actor, composition, known, pages[start:start + DERIVE_BATCH])
            with ctx.writer() as session:
                ctx.check(session)
                store_extractions(session, ctx.settings, actor, results)
                session.commit()
            derived += len(results)
    return derived
