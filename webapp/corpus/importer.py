"""The import service: documents from any reader -> stored pages, with a per-item report.

Used by `goldtext import`, `goldtext demo` and the browser upload. It never commits: the caller
owns the transaction. A document's gold is stored by the function the caller passes (``add_gold``:
annotation/gold.py's `add_revision`), since the gold's rules live above the corpus. Pages are flushed
and let go one by one, so a large WARC never sits in memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..foundation.vocabulary import DONE, Taxonomy, UnknownTerm, checked_page_type
from ..models import ImportBatch, Page
from .capture_extras import store_capture_extras
from .document import FETCH_FACT, HISTORY_FACT, LAYOUT_FACT, RawDocument, Rejected
from .preparation import Prepared, in_order
from .site_names import UNKNOWN_SITE, host_of
from .site_rows import site_named

AddGold = Callable[..., Any]
"""Stores a page's gold as its first revision: add_gold(session, page, *, text, markdown, type, status, author,
snippets, note, provenance, article_metadata); text or markdown None: made from the other."""
AddAnnotation = Callable[..., Any]
"""Stores an annotator's own annotation of a page as its first revision: add_annotation(session, page,
annotator, *, text, markdown, type, status, provenance, article_metadata)."""

SITE_FROM = ("url", "folder")
IMPORT_AUTHOR = "import"
DRAFT = "draft"
EMPTY_GOLD_NOTE = ("its gold text is empty: imported as a draft to review (an article with no text would score "
                   "every extractor 0); mark it done, or give it another page type, in the annotate view")


BENCHMARK_EMPTY_GOLD_NOTE = ("its gold text is empty: imported as done, so that the benchmark's own metric counts it "
                             "as the benchmark's script does; `goldtext check` lists it for review (type-mismatch)")


def empty_article_gold(doc: RawDocument) -> bool:
    """An article whose gold file holds no text and no snippets: almost surely a broken gold file, not gold."""
    blank = not (doc.gold or "").strip() and not (doc.markdown or "").strip()
    return (doc.has_gold and blank and not doc.snippets
            and (doc.page_type or "article") == "article")


def nul_field(doc: RawDocument) -> str | None:
    """The first text field of the document that holds a NUL character (PostgreSQL stores no text with one,
    and no page shows it): its URL, its gold (text or Markdown), its page type or a snippet."""
    snippets = [text for texts in (doc.snippets or {}).values() for text in texts]
    for name, values in (("URL", [doc.url]), ("gold", [doc.gold, doc.markdown]), ("page type", [doc.page_type]),
                         ("snippets", snippets)):
        if any(value and "\x00" in value for value in values):
            return name
    return None


def empty_gold_status(doc: RawDocument) -> tuple[str, str | None]:
    """The status and the report's note of an empty article gold (see empty_article_gold). A file of a
    benchmark's own layout (WCXB, WCEB, scrapinghub, trafilatura-eval: `doc.layout`) is done: its script
    scores every page, an empty reference too (WCXB's evaluate.py: 1 for an empty extraction, else 0), and a
    figure of its protocol must count the page as it does; the metrics that need a text leave it out. Any
    other file is a draft to review."""
    return (DONE, BENCHMARK_EMPTY_GOLD_NOTE) if doc.layout else (DRAFT, EMPTY_GOLD_NOTE)


@dataclass(frozen=True)
class ImportOutcome:
    item: str
    status: str  # "imported", "duplicate" or "rejected"
    reason: str | None = None
    page_id: int | None = None

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def nothing_imported(batch: ImportBatch) -> str | None:
    """Why a finished batch is a failed import (no page imported nor found already stored), or None."""
    if batch.imported + batch.duplicates:
        return None
    first = next((f"{row['item']}: {row['reason']}" for row in batch.report if row.get("reason")), None)
    return f"the import read only rejected items ({batch.rejected}; {first}): no page was imported"


def start_batch(session: Session, source: str, fmt: str, created_by: str) -> ImportBatch:
    """A new, empty import batch, recording who started it (a user's name, or cli:LOGIN)."""
    batch = ImportBatch(source=source, format=fmt, report=[], created_by=created_by)
    session.add(batch)
    session.flush()
    return batch


def import_documents(
    session: Session,
    batch: ImportBatch,
    documents: Iterable[RawDocument | Rejected],
    site_from: str = "url",
    workers: int = 1,
    *,
    taxonomy: Taxonomy,
    add_gold: AddGold,
    add_annotation: AddAnnotation | None = None,
) -> Iterator[ImportOutcome]:
    """Store each document, yielding its outcome; the batch's counts and report are kept up to date. A
    document whose page type is not in ``taxonomy`` (the settings' page types) is rejected, naming it.

    Decoding and page facts run on `workers` processes; duplicates are found before that work.
    """
    if site_from not in SITE_FROM:
        raise ValueError(f"--site-from must be one of {', '.join(SITE_FROM)}, not {site_from!r}")
    report: list[dict] = []
    for screened, prepared in in_order(_screen(session, batch.id, documents, taxonomy), workers):
        if isinstance(screened, ImportOutcome):
            outcome = screened
        else:
            assert prepared is not None  # a screened document is always prepared
            outcome = _store(session, batch, *screened, prepared, site_from, add_gold, add_annotation)
        report.append(outcome.as_dict())
        setattr(batch, _COUNTER[outcome.status], getattr(batch, _COUNTER[outcome.status]) + 1)
        yield outcome
    batch.report = report
    session.flush()


_COUNTER = {"imported": "imported", "duplicate": "duplicates", "rejected": "rejected"}


def _screen(
    session: Session, batch_id: int, documents: Iterable[RawDocument | Rejected], taxonomy: Taxonomy
) -> Iterator[tuple[ImportOutcome | tuple[RawDocument, str], tuple | None]]:
    """Each document's outcome if it is settled without decoding it (rejected, duplicate), else the
    document with its digest and the arguments of `prepare_page`. A page this batch stored already (the
    batch's import is being run again after a crash) counts as imported."""
    seen: dict[str, str] = {}
    for doc in documents:
        if isinstance(doc, Rejected):
            yield ImportOutcome(doc.item, "rejected", doc.reason), None
            continue
        try:
            checked_page_type(doc.page_type, taxonomy)
        except UnknownTerm as error:
            yield ImportOutcome(doc.item, "rejected", str(error)), None
            continue
        with_nul = nul_field(doc)
        if with_nul is not None:
            reason = f"its {with_nul} holds a NUL character, which no text may hold"
            yield ImportOutcome(doc.item, "rejected", reason), None
            continue
        digest = hashlib.sha256(doc.data).hexdigest()
        existing, existing_batch = session.execute(
            select(Page.id, Page.batch_id).where(Page.sha256 == digest)
        ).first() or (None, None)
        if digest in seen:
            yield ImportOutcome(doc.item, "duplicate", f"same bytes as {seen[digest]} in this batch"), None
        elif existing is not None and existing_batch == batch_id:
            seen[digest] = doc.item
            yield ImportOutcome(doc.item, "imported", page_id=existing), None
        elif existing is not None:
            yield ImportOutcome(doc.item, "duplicate", f"same bytes as page {existing}", existing), None
        else:
            seen[digest] = doc.item
            yield (doc, digest), (doc.data, doc.charset, doc.url)


def _store(
    session: Session, batch: ImportBatch, doc: RawDocument, digest: str, prepared: Prepared, site_from: str,
    add_gold: AddGold,
    add_annotation: AddAnnotation | None,
) -> ImportOutcome:
    host = (host_of(doc.url) if site_from == "url" else doc.folder) or UNKNOWN_SITE
    page = Page(
        url=doc.url,
        site_id=site_named(session, host).id,
        batch_id=batch.id,
        source_name=doc.item,
        raw=doc.data,
        sha256=digest,
        encoding=prepared.decoded.encoding,
        encoding_source=prepared.decoded.source,
        html=prepared.decoded.text,
        facts=prepared.facts | ({LAYOUT_FACT: doc.layout} if doc.layout else {})
        | ({FETCH_FACT: doc.fetch} if doc.fetch else {}) | ({HISTORY_FACT: doc.history} if doc.history else {}),
    )
    session.add(page)
    session.flush()
    store_capture_extras(session, page, doc)
    note = None
    if doc.has_gold or doc.page_type is not None or doc.snippets is not None:
        status = doc.status or DONE
        if empty_article_gold(doc) and status == DONE:
            status, note = empty_gold_status(doc)
        add_gold(
            session,
            page,
            text=doc.gold if doc.has_gold else "",
            markdown=doc.markdown,
            page_type=doc.page_type or "article",
            status=status,
            author=doc.author or IMPORT_AUTHOR,
            snippets=doc.snippets,
            note=doc.note,
            provenance=doc.provenance,
            guideline_version=doc.guideline_version,
            article_metadata=doc.metadata,
        )
    for annotation in doc.annotations:
        if add_annotation is not None:
            add_annotation(session, page, annotation.author, text=annotation.text, markdown=annotation.markdown,
                           page_type=annotation.page_type, status=annotation.status, provenance=annotation.provenance,
                           guideline_version=annotation.guideline_version,
                           article_metadata=annotation.metadata)
    outcome = ImportOutcome(doc.item, "imported", note, page_id=page.id)
    session.expunge(page)
    return outcome
