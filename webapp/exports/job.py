"""An export in the background (the browser's download): a thread writes the export folder with
progress, then packs it into one zip that the download route sends as an attachment."""

from __future__ import annotations

import secrets
import shutil
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from ..results.store import refresh_scores
from .archive import zip_folder
from .service import ExportRequest, run_export


@dataclass
class ExportJob:
    id: str
    request: ExportRequest
    folder: Path  # the job's working folder: the export and its zip
    total: int | None = None
    done: int = 0
    failure: str | None = None
    finished: bool = False
    thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return f"goldtext-{self.request.fmt}-{self.id}"

    @property
    def archive(self) -> Path:
        return self.folder / f"{self.name}.zip"

    @property
    def ready(self) -> bool:
        return self.finished and self.failure is None

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def as_dict(self) -> dict:
        return {"total": self.total, "done": self.done, "failure": self.failure, "finished": self.finished,
                "ready": self.ready}


def _run(job: ExportJob, maker: sessionmaker[Session], predictions: Mapping[str, str]) -> None:
    try:
        with maker() as session:
            if job.request.fmt == "csv":
                refresh_scores(session)
                session.commit()
            out = job.folder / job.name
            run_export(session, job.request, out, predictions=predictions,
                       command=job.request.command(job.name), progress=job.progress)
            session.rollback()
        zip_folder(out, job.archive)
        shutil.rmtree(out)
    except Exception as error:
        job.failure = f"{type(error).__name__}: {error}"
    finally:
        job.finished = True


def start_export(
    request: ExportRequest, maker: sessionmaker[Session], root: Path, predictions: Mapping[str, str]
) -> ExportJob:
    """Start the export in a daemon thread under root/ID; returns the running job."""
    request.check()
    job_id = secrets.token_hex(8)
    folder = root / job_id
    folder.mkdir(parents=True)
    job = ExportJob(job_id, request, folder)
    job.thread = threading.Thread(target=_run, args=(job, maker, dict(predictions)), name=f"export-{job_id}",
                                  daemon=True)
    job.thread.start()
    return job
