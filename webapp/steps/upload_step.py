"""The first step of a browser upload's job: import the stored files, then plan their extraction.

The request only stored the files (in the database, so a worker on any machine can read them) and
created the empty import batch. The step unpacks the files into a temporary folder, imports them with
the same service as `goldtext import`, committing every few pages, drops the stored files, and hands on
to the extraction steps (`pairs` chunks for the new pages, then `derive`); an upload that imported no page
(everything rejected, or nothing to read) fails its job with the reason. A rerun after a crash finds
the pages it already stored for this batch and counts them as imported, never as duplicates.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..corpus.importer import nothing_imported
from ..jobs.context import Context, Follow
from ..jobs.files import drop_files, unpack
from ..usecases.import_pages import batch_pages, import_upload
from ..usecases.outcome import Actor
from .extraction_steps import plan_pairs

IMPORTING = "importing"
"""The stage of an upload's job while it imports (an import's report reloads once the job is past it)."""


class NothingImported(ValueError):
    """An upload of which no page was imported, nor found already stored."""


PAGES = "pages"  # loose files of the folder layout are stored under this folder, read together


def upload_paths(folder: Path, names: list[str]) -> list[str]:
    """The paths to import: the loose layout files' folder first, then each archive."""
    archives = [str(folder / name) for name in names if not name.startswith(PAGES + "/")]
    return ([str(folder / PAGES)] if (folder / PAGES).is_dir() else []) + archives


def import_step(ctx: Context) -> Follow:
    batch_id = int(ctx.params["batch"])
    ctx.stage(IMPORTING)
    with tempfile.TemporaryDirectory(prefix=f"goldtext-job-{ctx.job_id}-") as tmp:
        folder = Path(tmp)
        written = unpack(ctx.reader, ctx.job_id, folder)
        paths = upload_paths(folder, [p.relative_to(folder).as_posix() for p in written])
        with ctx.writer() as session:
            ctx.check(session)
            batch, outcomes = import_upload(session, ctx.settings, Actor.of_job(session, ctx.job_id), batch_id,
                                            paths, ctx.params.get("format", "auto"), ctx.params.get("site_from", "url"))
            pending = 0
            for _ in outcomes:
                pending += 1
                if ctx.due():
                    ctx.check(session)
                    ctx.progress(pending, session=session)
                    session.commit()
                    pending = 0
            ctx.check(session)
            drop_files(session, ctx.job_id)
            ctx.progress(pending, session=session)
            session.commit()
            failure = nothing_imported(batch)
    if failure is not None:
        raise NothingImported(failure)  # the job fails with the reason; the batch keeps its report
    with ctx.reader() as session:
        page_ids = batch_pages(session, batch_id)
        # no new page: nothing to extract, said as such; a captured page's rendering is extracted too
        return plan_pairs(ctx, session, page_ids)
