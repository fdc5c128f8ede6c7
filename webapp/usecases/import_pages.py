"""Import: documents read from files in any layout (or from a crawl's output) stored as pages of an import
batch. Every face that imports calls `import_documents_into` (through `import_pages` for files):
`goldtext import` and `goldtext demo` (cli/corpus.py), `goldtext import --datatrove` (cli/crawl.py) and the
browser upload's job step (steps/upload_step.py, through `import_upload`, acting as the user who started the
upload). A command's import
begins with `start_import` (its batch, audited) and ends with `end_import` (the checks of its gold); an
upload's batch is made and audited by usecases/start_upload.py.

The rules: only an admin imports (403); files are read within the settings' import limits (IMPORT_MAX_BYTES and the
zip caps); a document whose page type the settings do not name is rejected with the reason; a document's gold becomes
the page's first revision, by its author when the source names one (a `jsonl` export's `gold_author`), else by
"import", with the reviewer's note and the provenance the source gives, else the provenance of an import (every line
"import"); each annotator's own annotation the source carries (a `jsonl` export's `annotations`) becomes that
annotator's annotation of the page, with its provenance; the metadata gold a layout gives (title, authors, published:
corpus/metadata_fields.py) is checked as a save's is (annotation/article_metadata.py) and stored with the gold and the
annotations, its provenance "import" for each field. The gold and each annotation are checked by the rules of a save
(usecases/fields.py `checked_fields`: a Markdown over GOLD_MAX_BYTES, a page type the settings do not name, an unknown
status, malformed snippets). A document whose gold or annotation a save would refuse, whose metadata is not in that
shape, whose provenance does not fit its text, whose annotation names an annotator twice, or whose author is not a
name, is rejected with the reason; an empty article gold is a draft to review; the caller commits as it goes
(corpus/importer.py yields each outcome)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..annotation.annotations import add_annotation
from ..annotation.article_metadata import checked
from ..annotation.gold import add_revision
from ..annotation.gold_markdown import edited_text, views_of
from ..annotation.provenance import imported
from ..corpus.document import RawDocument, Rejected
from ..corpus.importer import ImportOutcome, import_documents, start_batch
from ..corpus.readers import iter_documents
from ..foundation.settings import Settings
from ..foundation.vocabulary import ARTICLE, DONE, UnknownTerm, checked_page_type
from ..models import Gold, ImportBatch, Job, Page
from .bodies import EFFORT_FIELD, checked_provenance, validated
from .fields import checked_fields
from .follow_up_checks import follow_gold
from .outcome import Actor, Refused, needs

NAME_MAX = 100  # an author's or annotator's name (the revision's author column)
ONLY_ADMINS = "Only an admin imports pages."


@needs(ADMIN, ONLY_ADMINS)
def start_import(session: Session, actor: Actor, source: str, fmt: str, asked: dict[str, Any]) -> ImportBatch:
    """The new, empty batch of an import from ``source`` (what is read, as the batch shows it) in layout
    ``fmt``, made by the actor and audited with what was ``asked``."""
    batch = start_batch(session, source, fmt, actor.name)
    actor.record(session, Action.IMPORT, f"batch {batch.id}", asked)
    return batch


@needs(ADMIN, ONLY_ADMINS)
def import_documents_into(session: Session, settings: Settings, actor: Actor, batch: ImportBatch,
                          documents: Iterable[RawDocument | Rejected], site_from: str = "url",
                          workers: int = 1) -> Iterator[ImportOutcome]:
    """Store the documents in the batch, yielding each outcome; never commits."""
    checked = (recorded(settings, doc, batch.format) for doc in documents)
    return import_documents(session, batch, checked, site_from, workers, taxonomy=settings.taxonomy,
                            add_gold=add_revision, add_annotation=add_annotation)


def recorded(settings: Settings, doc: RawDocument | Rejected, fmt: str) -> RawDocument | Rejected:
    """The document with the provenance its gold records (the source's, else an import's from the
    layout ``fmt`` or the one the document names), or Rejected naming what of its authors, provenance or
    annotations cannot be stored."""
    if isinstance(doc, Rejected):
        return doc
    try:
        for name in ([doc.author] if doc.author is not None else []) + [a.author for a in doc.annotations]:
            _check_name(name)
        said = [doc.note, *(a.text for a in doc.annotations), *(a.markdown for a in doc.annotations)]
        if any("\x00" in text for text in said if text is not None):
            raise ValueError("its note or an annotation's text holds a NUL character, which no text may hold")
        names = [a.author for a in doc.annotations]
        twice = next((name for name in names if names.count(name) > 1), None)
        if twice is not None:
            raise ValueError(f"annotator {twice!r} has two annotations of it")
        doc = with_metadata(doc)
        for number, annotation in enumerate(doc.annotations, start=1):
            checked_page_type(annotation.page_type, settings.taxonomy, f"in annotation {number}")
            if annotation.provenance is not None:
                _provenance(annotation.provenance, edited(annotation.text, annotation.markdown),
                            f"annotation {number}'s ")
        _check_history(doc.history or {})
        _check_fields(settings, doc)
        text = edited(doc.gold, doc.markdown)
        if doc.provenance is not None:
            return dataclasses.replace(doc, provenance=_provenance(doc.provenance, text, "the gold's "))
    except (ValueError, UnknownTerm) as error:
        return Rejected(doc.item, doc.source, str(error))
    if not doc.has_gold and doc.page_type is None and doc.snippets is None:
        return doc
    layout = (doc.layout or {}).get("name") or (fmt if fmt != "auto" else None)
    return dataclasses.replace(doc, provenance=imported(text, layout if isinstance(layout, str) else None,
                                                        doc.metadata))


def with_metadata(doc: RawDocument) -> RawDocument:
    """The document with its metadata gold and its annotations' in their shape (annotation/article_metadata.py);
    ValueError naming whose metadata is wrong and why."""
    try:
        metadata = checked(doc.metadata) or None
    except ValueError as error:
        raise ValueError(f"the gold's {error}") from None
    annotations = []
    for number, annotation in enumerate(doc.annotations, start=1):
        try:
            annotations.append(dataclasses.replace(annotation, metadata=checked(annotation.metadata) or None))
        except ValueError as error:
            raise ValueError(f"annotation {number}'s {error}") from None
    return dataclasses.replace(doc, metadata=metadata, annotations=tuple(annotations))


def edited(text: str | None, markdown: str | None) -> str:
    """The view of a gold read from a source whose lines its provenance names (annotation/gold_markdown.py
    `edited_text`)."""
    return edited_text(views_of(text=text, markdown=markdown))


def _check_history(history: dict) -> None:
    """ValueError naming the first effort of an export's history that a save would refuse, or an annotation's
    effort whose annotator has no annotation."""
    for name in history.get("annotators", []):
        _check_name(name)
    entries = [("the gold's", entry) for entry in history.get("effort", [])]
    entries += [(f"annotation {author!r}'s", entry) for author, listed in history.get("annotations", {}).items()
                for entry in listed]
    for whose, entry in entries:
        _check_name(entry["author"])
        try:
            validated(EFFORT_FIELD, {"effort": {key: value for key, value in entry.items()
                                                if key not in ("version", "author")}})
        except Refused as refused:
            raise ValueError(f"{whose} effort of version {entry['version']}: {refused.reason}") from None


def _check_fields(settings: Settings, doc: RawDocument) -> None:
    """ValueError naming the first of the gold's or an annotation's fields that a save would refuse, and why
    (usecases/fields.py `checked_fields`: the size of its Markdown, its page type, status and snippets)."""
    checked_page_type(doc.page_type, settings.taxonomy)  # said as the importer says it, unprefixed
    if doc.has_gold or doc.page_type is not None or doc.snippets is not None:
        try:
            checked_fields(settings, views=views_of(text=doc.gold, markdown=doc.markdown),
                           page_type=doc.page_type or ARTICLE, status=doc.status or DONE, snippets=doc.snippets)
        except Refused as refused:
            raise ValueError(f"its gold: {refused.reason}") from None
    for number, annotation in enumerate(doc.annotations, start=1):
        try:
            checked_fields(settings, views=views_of(text=annotation.text, markdown=annotation.markdown),
                           page_type=annotation.page_type, status=annotation.status, snippets=None)
        except Refused as refused:
            raise ValueError(f"annotation {number}'s gold: {refused.reason}") from None


def _check_name(name: str) -> None:
    if not name.strip() or len(name) > NAME_MAX or any(not char.isprintable() for char in name):
        raise ValueError(f"{name[:40]!r} is not a name (1 to {NAME_MAX} printable characters)")


def _provenance(value: dict, text: str, whose: str) -> dict:
    try:
        return checked_provenance(value, text)
    except Refused as refused:
        raise ValueError(f"{whose}{refused.reason}") from None


@needs(ADMIN, ONLY_ADMINS)
def import_pages(session: Session, settings: Settings, actor: Actor, batch: ImportBatch, paths: Iterable[str | Path],
                 fmt: str, site_from: str = "url", workers: int = 1) -> Iterator[ImportOutcome]:
    """Store the documents of these files (``fmt``: a layout, or "auto") in the batch, read within the
    settings' import limits, yielding each outcome; never commits."""
    return import_documents_into(session, settings, actor, batch, iter_documents(paths, fmt, settings.limits),
                                 site_from, workers)


@needs(ADMIN, ONLY_ADMINS)
def import_upload(session: Session, settings: Settings, actor: Actor, batch_id: int, paths: Iterable[str | Path],
                  fmt: str, site_from: str = "url") -> tuple[ImportBatch, Iterator[ImportOutcome]]:
    """An upload's or a capture's files (stored by its job) imported into its batch, made and audited at its
    start (usecases/start_upload.py, capture_pages.py): the batch, its counts begun again (a rerun after a crash
    counts the pages it stored already as imported), and the outcomes as they come; LookupError when the batch is
    gone. Never commits."""
    batch = session.get(ImportBatch, batch_id)
    if batch is None:
        raise LookupError(f"import batch {batch_id} of this upload no longer exists")
    batch.imported = batch.duplicates = batch.rejected = 0
    return batch, import_pages(session, settings, actor, batch, paths, fmt, site_from)


def batch_pages(session: Session, batch_id: int) -> list[int]:
    """The pages stored by the batch."""
    return list(session.scalars(select(Page.id).where(Page.batch_id == batch_id)))


@needs(ADMIN, ONLY_ADMINS)
def end_import(session: Session, settings: Settings, actor: Actor, batch: ImportBatch, keep_empty: bool = True
               ) -> Job | None:
    """After the batch's last page: the follow-up check job of its gold (jobs/follow_checks.py; None when it
    brought no gold, or one is queued already), which the face dispatches after its commit. A batch that
    imported no page is dropped unless ``keep_empty`` (a report of its rejections is worth keeping; a reload
    of what is stored already, as `goldtext demo`'s, is not); the drop is audited beside the import's start,
    so that the log never names a batch that is not there without saying where it went."""
    if not keep_empty and batch.imported == 0:
        actor.record(session, Action.IMPORT_DROPPED, f"batch {batch.id}",
                     {"duplicates": batch.duplicates, "rejected": batch.rejected})
        session.delete(batch)
        return None
    with_gold = session.scalar(select(Gold.id).join(Page, Page.id == Gold.page_id)
                               .where(Page.batch_id == batch.id).limit(1))
    return follow_gold(session, settings) if with_gold is not None else None
