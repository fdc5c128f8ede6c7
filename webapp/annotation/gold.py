"""Gold text service: every change appends a GoldRevision and bumps the gold's version.

An annotator's own Annotation (overlap above 1, see annotations.py) is saved by the same rules: a save
is applied to a *record* (a Gold or an Annotation), whose revisions are GoldRevisions or
AnnotationRevisions.

Saves from the workbench carry the version they edited (optimistic concurrency). A stale save is not
applied, but its text is kept as a revision too, recorded with the version it edited: so in a page's
history a revision is *applied* when its version is above every earlier revision's, and a *stale save*
otherwise. A save carries a client save id; a retried save with the same id is answered from the revision
it already made and stores nothing new.

A save reads and writes O(1) revisions whatever the page's history: the retried save is found by its
client save id, "applied" is decided for that one revision by a query, and a new revision is added to
the session, never appended to the loaded collection `Gold.revisions`. The history is read a page at a
time (`history_page`), newest first, each revision's applied flag computed by the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import func, inspect, select
from sqlalchemy.orm import InstanceState, Session

from ..foundation.vocabulary import SNIPPET_KEYS
from ..models import Annotation, AnnotationRevision, Gold, GoldRevision, Page, utcnow
from .article_metadata import stored
from .gold_markdown import views_from, with_views

Record = Gold | Annotation
Revision = GoldRevision | AnnotationRevision


def _owner(record_type: type[Record]) -> Any:
    """The column of a revision that names its record."""
    return GoldRevision.gold_id if record_type is Gold else AnnotationRevision.annotation_id


def _revision_type(record: Record) -> type[Revision]:
    return GoldRevision if isinstance(record, Gold) else AnnotationRevision


def append_revision(session: Session, record: Record, version: int, **fields: Any) -> Revision:
    """Record a revision (text and Markdown, type, status, snippets, author, client_save_id) of a stored gold
    or annotation, without loading its other revisions. Given the text or the Markdown alone, the other is
    made from it (annotation/gold_markdown.py `with_views`)."""
    revision_type = _revision_type(record)
    revision = revision_type(**{_owner(type(record)).key: record.id}, version=version, **with_views(fields))
    session.add(revision)
    state: InstanceState[Record] = inspect(record)
    if "revisions" not in state.unloaded:
        session.expire(record, ["revisions"])  # a collection loaded earlier would miss the new revision
    return revision


def apply_revision(session: Session, record: Record, *, author: str, **fields: Any) -> Revision:
    """Set the record's text and Markdown, type, status, snippets and article metadata (``fields``, with
    ``client_save_id``, the revision's facts and, for a gold, ``note``; the text or the Markdown alone: the
    other is made from it, annotation/gold_markdown.py; without ``article_metadata`` the record's own is
    kept, as a request for changes keeps it), bump its version and record the new revision. The fields were
    checked by the caller (the use case of the action, or the importer)."""
    fields = with_views(fields)
    metadata = fields["article_metadata"] if "article_metadata" in fields else record.article_metadata
    fields = {**fields, "article_metadata": stored(metadata)}
    kept = {key: fields[key] for key in ("text", "markdown", "text_source", "page_type", "status", "snippets",
                                         "article_metadata")}
    record.version += 1
    for key, value in kept.items():
        setattr(record, key, value)
    record.updated_at = utcnow()
    if isinstance(record, Gold):
        record.author, record.note = author, fields.get("note")
    if record.id is None:
        session.flush()  # the new record's id, for its first revision
    revision = append_revision(session, record, record.version, author=author, **fields)
    session.flush()
    return revision


def add_revision(
    session: Session,
    page: Page,
    *,
    page_type: str,
    status: str,
    author: str,
    snippets: dict[str, Any] | None = None,
    client_save_id: str | None = None,
    note: str | None = None,
    provenance: dict[str, Any] | None = None,
    guideline_version: int | None = None,
    text: str | None = None,
    markdown: str | None = None,
    text_source: str | None = None,
    article_metadata: dict[str, Any] | None = None,
) -> GoldRevision:
    """Set the page's gold (`page.gold`) and record it as a new revision (version 1 for a new gold), with
    its provenance (annotation/provenance.py) and its article metadata (annotation/article_metadata.py;
    None: none annotated); returns the revision. Its ``text`` and ``markdown`` as given
    (one alone: the other is made from it), or with their ``text_source`` (annotation/gold_markdown.py).
    The caller that owns the save refreshes the page's cached scores (results.store.gold_changed), in the
    same transaction.
    """
    views = {"text": text, "markdown": markdown, "text_source": text_source}
    given = {key: value for key, value in views.items() if value is not None}
    revision = apply_revision(session, new_gold(page, author), page_type=page_type, status=status,
                              author=author, snippets=snippets, client_save_id=client_save_id, note=note,
                              provenance=provenance, guideline_version=guideline_version,
                              article_metadata=article_metadata, **given)
    assert isinstance(revision, GoldRevision)
    return revision


def new_gold(page: Page, author: str) -> Gold:
    """The page's gold, made (version 0) when it has none yet."""
    if page.gold is None:
        page.gold = Gold(page_id=page.id, version=0, author=author)
    return page.gold


@dataclass(frozen=True)
class SaveOutcome:
    """What a save did: ``record`` is the gold or annotation saved, ``revision`` the revision the save
    made (or, for a retry, made before)."""

    record: Record
    revision: Revision
    conflict: bool  # the save edited a stale version: kept as a revision, not applied
    replayed: bool  # a retry of a save already stored: nothing new was written

    @property
    def applied(self) -> bool:
        """The save changed the page's gold (not a conflict, not a retry)."""
        return not self.conflict and not self.replayed


def lock_page(session: Session, page_id: int) -> Page | None:
    """The page, its row locked for the rest of the transaction (PostgreSQL; SQLite's BEGIN IMMEDIATE
    already serialises writers), so that two saves of one page never both pass the version check."""
    session.execute(select(Page.id).where(Page.id == page_id).with_for_update())
    return session.get(Page, page_id)


def is_applied(session: Session, revision: Revision) -> bool:
    """Whether the revision was an applied save: its version is above every earlier revision's (earlier:
    a smaller id), one aggregate query."""
    revision_type = type(revision)
    owner = _owner(Gold if revision_type is GoldRevision else Annotation)
    highest = session.scalar(
        select(func.max(revision_type.version))
        .where(owner == getattr(revision, owner.key), revision_type.id < revision.id)
    )
    return revision.version > (highest or 0)


HISTORY_PAGE = 50


@dataclass(frozen=True)
class HistoryPage:
    """Revisions newest first, each with its applied flag; ``older`` is the ``before`` of the next page
    (None on the last)."""

    revisions: list[tuple[Revision, bool]]
    older: int | None


def history_page(session: Session, record_id: int, before: int | None = None,
                 limit: int = HISTORY_PAGE, record_type: type[Record] = Gold) -> HistoryPage:
    """The newest ``limit`` revisions with an id below ``before`` (keyset paging on the id) of a gold, or
    with ``record_type`` Annotation of an annotation.

    A revision's applied flag is its version compared with the highest version of the revisions before
    it, a window function over the record's earlier revisions' ids and versions only (the texts are read
    for the rows shown).
    """
    revision = GoldRevision if record_type is Gold else AnnotationRevision
    earlier = func.max(revision.version).over(order_by=revision.id, rows=(None, -1))
    flags = select(
        revision.id.label("id"),
        (revision.version > func.coalesce(earlier, 0)).label("applied"),
    ).where(_owner(record_type) == record_id)
    if before is not None:
        flags = flags.where(revision.id < before)
    flagged = flags.subquery()
    found = session.execute(
        select(revision, flagged.c.applied)
        .join(flagged, flagged.c.id == revision.id)
        .order_by(revision.id.desc())
        .limit(limit + 1)
    ).all()
    shown = [(revision, bool(applied)) for revision, applied in found[:limit]]
    return HistoryPage(shown, shown[-1][0].id if len(found) > limit else None)


def save_gold(
    session: Session,
    page: Page,
    *,
    base_version: int,
    text: str,
    page_type: str,
    status: str,
    author: str,
    client_save_id: str | None = None,
    snippets: dict[str, Any] | None = None,
    **facts: Any,
) -> SaveOutcome:
    """Apply a save that edited ``base_version`` of the page's gold, unless it is stale or a retry.

    Lock the page first (``lock_page``). ``snippets=None`` keeps the gold's current snippets; lists
    with no snippet left after ``clean_snippets`` remove them. ``facts``: what the revision records
    beside the text (provenance, effort, guideline_version; models.RevisionFields).
    """
    return save_record(session, page.gold, lambda: new_gold(page, author), base_version=base_version,
                       text=text, page_type=page_type, status=status, author=author, client_save_id=client_save_id,
                       snippets=snippets, **facts)


def save_record(
    session: Session,
    record: Record | None,
    create: Callable[[], Record],
    *,
    base_version: int,
    author: str,
    client_save_id: str | None,
    snippets: dict[str, Any] | None,
    article_metadata: dict[str, Any] | None = None,
    **fields: Any,
) -> SaveOutcome:
    """A save of a gold or an annotation (``record``; ``create`` makes it when it is None) that edited
    ``base_version`` of it: applied, kept as a stale save, or answered from the retried one (see
    ``save_gold``). ``fields``: text, type and status, checked by the caller (webapp/usecases), and the
    revision's facts. ``article_metadata`` None keeps the record's current metadata (as ``snippets``); an
    object replaces it (a field it lacks is not annotated)."""
    if not 0 <= base_version <= (record.version if record is not None else 0):
        raise ValueError(f"version {base_version} of this page's {_what(record)} does not exist")
    if record is not None and client_save_id is not None:
        earlier = _revision_with_save_id(session, record, client_save_id)
        if earlier is not None:
            return SaveOutcome(record, earlier, conflict=not is_applied(session, earlier), replayed=True)
    snippets = record.snippets if snippets is None and record is not None else clean_snippets(snippets)
    if article_metadata is None and record is not None:
        article_metadata = record.article_metadata
    fields["article_metadata"] = stored(article_metadata)
    if record is not None and base_version != record.version:
        revision = append_revision(session, record, base_version, snippets=snippets, author=author,
                                   client_save_id=client_save_id, **fields)
        session.flush()
        return SaveOutcome(record, revision, conflict=True, replayed=False)
    record = record if record is not None else create()
    revision = apply_revision(session, record, author=author, snippets=snippets,
                              client_save_id=client_save_id, **fields)
    return SaveOutcome(record, revision, conflict=False, replayed=False)


def _what(record: Record | None) -> str:
    return "annotation" if isinstance(record, Annotation) else "gold"


def clean_snippets(snippets: dict[str, Any] | None) -> dict[str, list[str]] | None:
    """Snippet gold as stored: each snippet stripped, blank and repeated ones dropped; None when none is left."""
    if snippets is None:
        return None
    cleaned = {key: list(dict.fromkeys(s.strip() for s in snippets.get(key, ()) if s.strip()))
               for key in SNIPPET_KEYS}
    return cleaned if any(cleaned.values()) else None


def restore_revision(
    session: Session, page: Page, revision: GoldRevision, author: str, guideline_version: int | None = None
) -> GoldRevision:
    """Make an old revision the page's gold again, as a new revision (returned) with its text and Markdown,
    recording the old one's provenance (its lines came from where the old one's did), its article metadata
    and the guideline version in force now."""
    return add_revision(
        session,
        page,
        **views_from(revision).fields(),
        page_type=revision.page_type,
        status=revision.status,
        author=author,
        snippets=revision.snippets,
        provenance=revision.provenance,
        guideline_version=guideline_version,
        article_metadata=revision.article_metadata,
    )


def _revision_with_save_id(session: Session, record: Record, client_save_id: str) -> Revision | None:
    """The record's revision made by the save with this id (unique per record), if any."""
    revision_type = _revision_type(record)
    found = session.scalars(
        select(revision_type)
        .where(_owner(type(record)) == record.id, revision_type.client_save_id == client_save_id)
    ).one_or_none()
    return cast("Revision | None", found)  # a select of either revision type is typed as their base
