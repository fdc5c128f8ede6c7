"""Background extraction of freshly imported pages: a thread per job, outside any request.

The thread runs the extraction service (whose extractors run in killable worker processes) and commits
as it goes, so the job's progress is in the database too. The job object is what the progress endpoint
reads; the thread is its only writer.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session, sessionmaker

from .extraction import RunSettings, extract, refresh_derived
from .extractors.base import Extractor

COMMIT_EVERY = 10


@dataclass
class ExtractionJob:
    batch_id: int
    total: int
    done: int = 0
    errors: int = 0
    failure: str | None = None
    finished: bool = False
    thread: threading.Thread | None = field(default=None, repr=False)

    def as_dict(self) -> dict:
        return {
            "batch": self.batch_id,
            "total": self.total,
            "done": self.done,
            "errors": self.errors,
            "failure": self.failure,
            "finished": self.finished,
        }


def _run(
    job: ExtractionJob,
    maker: sessionmaker[Session],
    pairs: Sequence[tuple[int, Extractor]],
    settings: RunSettings,
) -> None:
    try:
        with maker() as session:
            for row in extract(session, pairs, settings):
                job.errors += row.error is not None
                job.done += 1
                if job.done % COMMIT_EVERY == 0:
                    session.commit()
            session.commit()
            refresh_derived(session, {page_id for page_id, _ in pairs})
            session.commit()
    except Exception as error:  # noqa: BLE001 -- the job's report is the only place it can go
        job.failure = f"{type(error).__name__}: {error}"
    finally:
        job.finished = True


def start_extraction(
    batch_id: int,
    maker: sessionmaker[Session],
    page_ids: Sequence[int],
    extractors: Sequence[Extractor],
    settings: RunSettings,
) -> ExtractionJob:
    """Start extracting every page with every extractor in a daemon thread; returns the running job."""
    pairs = [(page_id, extractor) for page_id in page_ids for extractor in extractors]
    job = ExtractionJob(batch_id=batch_id, total=len(pairs))
    job.thread = threading.Thread(
        target=_run, args=(job, maker, pairs, settings), name=f"extract-batch-{batch_id}", daemon=True
    )
    job.thread.start()
    return job
