"""Import: documents read from files in any layout (or from a crawl's output) stored as pages of an import
batch. Every face that imports calls `import_documents_into` (through `import_pages` for files):
`goldtext import` and `goldtext demo` (cli/corpus.py), `goldtext import --datatrove` (cli/crawl.py) and the
browser upload's job step (jobs/upload_step.py).

The rules: files are read within the settings' import limits (IMPORT_MAX_BYTES and the zip caps); a
document whose page type the settings do not name is rejected with the reason; a document's gold becomes
the page's first revision, by "import" (an empty article gold: a draft to review); the caller commits as
it goes (corpus/importer.py yields each outcome)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from sqlalchemy.orm import Session

from ..annotation.gold import add_revision
from ..corpus.document import RawDocument, Rejected
from ..corpus.importer import ImportOutcome, import_documents
from ..corpus.readers import iter_documents
from ..models import ImportBatch
from ..settings import Settings


def import_documents_into(session: Session, settings: Settings, batch: ImportBatch,
                          documents: Iterable[RawDocument | Rejected], site_from: str = "url",
                          workers: int = 1) -> Iterator[ImportOutcome]:
    """Store the documents in the batch, yielding each outcome; never commits."""
    return import_documents(session, batch, documents, site_from, workers, taxonomy=settings.taxonomy,
                            add_gold=add_revision)


def import_pages(session: Session, settings: Settings, batch: ImportBatch, paths: Iterable[str | Path], fmt: str,
                 site_from: str = "url", workers: int = 1) -> Iterator[ImportOutcome]:
    """Store the documents of these files (``fmt``: a layout, or "auto") in the batch, read within the
    settings' import limits, yielding each outcome; never commits."""
    return import_documents_into(session, settings, batch, iter_documents(paths, fmt, settings.limits), site_from,
                                 workers)
