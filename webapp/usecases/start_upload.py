"""Start a browser upload: the files are stored with the job (in the database, so that a worker on any
machine reads them) and the empty import batch made; a worker imports them with the same use case as
`goldtext import` (steps/upload_step.py) and extracts the new pages. `views/upload.py` calls `start_upload`.

The rules: only an admin imports (403); a format and a site source the import knows (400); at least one
file (400); UPLOAD_EXTRACTORS names extractors that can run here (`goldtext run` and `serve` refuse to
start otherwise; should one disappear while the server runs, 500 naming it). The start is audited with
the files' names; the face commits and dispatches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..corpus.importer import SITE_FROM, start_batch
from ..corpus.readers import FORMATS
from ..foundation.settings import Settings
from ..jobs.files import store_file
from ..jobs.records import create_job
from ..models import Job
from .extract import checked_extractors
from .outcome import Actor, Refused, needs


@dataclass(frozen=True)
class Upload:
    name: str  # as the user's browser named it
    stored_as: str  # where the job keeps it (views/upload.py stored_names: loose layout files together)
    stream: BinaryIO


@needs(ADMIN, "Only an admin imports pages.")
def start_upload(session: Session, settings: Settings, actor: Actor, files: Sequence[Upload], fmt: str,
                 site_from: str, extractors: Sequence[str]) -> Job:
    """The queued upload job, its files stored and its batch made; Refused by the rules above."""
    if fmt not in FORMATS or site_from not in SITE_FROM:
        raise Refused(400, f"Unknown format {fmt!r} or site source {site_from!r}.")
    if not files:
        raise Refused(400, "Choose at least one file to import.")
    try:
        checked_extractors(session, settings, extractors)
    except Refused as error:
        raise Refused(500, f"UPLOAD_EXTRACTORS names an unknown extractor: {error.reason}") from None
    batch = start_batch(session, ", ".join(f.name for f in files), fmt, actor.name)
    job = create_job(session, "upload", {"batch": batch.id, "format": fmt, "site_from": site_from,
                                         "extractors": list(extractors)},
                     actor.name, settings.lease.until())
    job.batch_id = batch.id
    for upload in files:
        store_file(session, job.id, upload.stored_as, upload.stream)
    actor.record(session, Action.IMPORT, f"batch {batch.id}", {"files": [f.name for f in files], "format": fmt,
                                                          "job": job.id})
    return job
