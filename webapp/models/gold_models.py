"""The gold, each annotator's annotation, their revisions, assignments and the gold checks."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .model_base import Base, utcnow

if TYPE_CHECKING:
    from .page_models import Page


class Gold(Base):
    """The current gold of a page; every save also appends a GoldRevision.

    With overlap 1 the annotators edit it directly (the single annotation is the gold); with a larger
    overlap it is the adjudicated result of the page's Annotations, and ``note`` is the reviewer's note.

    A gold (an annotation, a revision) has two views: ``markdown``, the gold as Markdown, and ``text``, the
    plain text that every text metric reads. ``text_source`` says how the two relate
    (annotation/gold_markdown.py): the text derived from the Markdown, both given apart by a benchmark, or
    the text given alone and the Markdown escaped from it.
    """

    __tablename__ = "gold"

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), unique=True)
    text: Mapped[str] = mapped_column(Text, default="")
    markdown: Mapped[str] = mapped_column(Text)  # the gold as Markdown; ``text`` is its plain text
    text_source: Mapped[str] = mapped_column(String(16))  # annotation/gold_markdown.py TEXT_SOURCES
    page_type: Mapped[str] = mapped_column(String(32), default="article")
    status: Mapped[str] = mapped_column(String(16), default="done")
    snippets: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    article_metadata: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    """Title, authors, publication date (annotation/article_metadata.py); None: none annotated yet."""
    author: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer, default=1)
    note: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    page: Mapped[Page] = relationship(back_populates="gold")
    revisions: Mapped[list[GoldRevision]] = relationship(
        back_populates="gold", cascade="all, delete-orphan", order_by="GoldRevision.id"
    )


class RevisionFields:
    """What every revision records, of a gold or of an annotation: the version it made (or, for a stale
    save, edited), the saved fields, who saved it, and the id of the save."""

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text, default="")
    markdown: Mapped[str] = mapped_column(Text)
    text_source: Mapped[str] = mapped_column(String(16))
    page_type: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    snippets: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    article_metadata: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    author: Mapped[str] = mapped_column(String(100))
    client_save_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # What else the save recorded about how the text was made (None: not recorded): where it came from
    # (the prefill's source, each line's origin), the effort it took, the guideline version in force.
    provenance: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    effort: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    guideline_version: Mapped[int | None] = mapped_column(Integer)


class GoldRevision(RevisionFields, Base):
    __tablename__ = "gold_revision"
    __table_args__ = (UniqueConstraint("gold_id", "client_save_id"),)

    gold_id: Mapped[int] = mapped_column(ForeignKey("gold.id", ondelete="CASCADE"), index=True)
    note: Mapped[str | None] = mapped_column(Text)

    gold: Mapped[Gold] = relationship(back_populates="revisions")


class Guideline(Base):
    """One version of a page type's annotation guideline (Markdown): what is main content for pages of that
    type. Every save is a new row with the next version; the newest is the one in force. Versions are
    never changed or deleted, so a revision's `guideline_version` always names the text it was made under
    (annotation/guideline_versions.py)."""

    __tablename__ = "guideline"
    __table_args__ = (UniqueConstraint("page_type", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_type: Mapped[str] = mapped_column(String(32), index=True)
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    author: Mapped[str] = mapped_column(String(100))
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Annotation(Base):
    """One annotator's own, independent annotation of a page (overlap above 1); every save also appends
    an AnnotationRevision. With overlap 1 there are none: the page's gold is its single annotation."""

    __tablename__ = "annotation"
    __table_args__ = (UniqueConstraint("page_id", "author"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    author: Mapped[str] = mapped_column(String(100), index=True)
    text: Mapped[str] = mapped_column(Text, default="")
    markdown: Mapped[str] = mapped_column(Text)
    text_source: Mapped[str] = mapped_column(String(16))
    page_type: Mapped[str] = mapped_column(String(32), default="article")
    status: Mapped[str] = mapped_column(String(16), default="done")
    snippets: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    article_metadata: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    version: Mapped[int] = mapped_column(Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    page: Mapped[Page] = relationship(back_populates="annotations")
    revisions: Mapped[list[AnnotationRevision]] = relationship(
        back_populates="annotation", cascade="all, delete-orphan", order_by="AnnotationRevision.id"
    )


class AnnotationRevision(RevisionFields, Base):
    __tablename__ = "annotation_revision"
    __table_args__ = (UniqueConstraint("annotation_id", "client_save_id"),)

    annotation_id: Mapped[int] = mapped_column(ForeignKey("annotation.id", ondelete="CASCADE"), index=True)

    annotation: Mapped[Annotation] = relationship(back_populates="revisions")


class Assignment(Base):
    """A page given to an annotator explicitly (`goldtext assign`): it comes first in their queue, and it
    holds one of the page's OVERLAP places for them (see annotation/page_queue.py). `author`: the annotator
    it is given to, the name their annotation of the page will carry as its `author`."""

    __tablename__ = "assignment"
    __table_args__ = (UniqueConstraint("page_id", "author"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    author: Mapped[str] = mapped_column(String(100), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GoldCheck(Base):
    """A check of the gold that a page failed when the checks last ran on it (scoring/gold_checks.py):
    one row per page and check, with the reason; a run replaces the rows of the pages it checked."""

    __tablename__ = "gold_check"
    __table_args__ = (UniqueConstraint("page_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(32), index=True)
    reason: Mapped[str] = mapped_column(Text)
    checked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GoldCheckRun(Base):
    """When the checks last ran on a page, and on what: the gold's version then (None: no gold) and the
    newest revision of its annotations then (None: none). A page whose gold or annotations moved on since is
    "not checked since the last change" (results/gold_check_runs.py `stale_pages`)."""

    __tablename__ = "gold_check_run"

    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), primary_key=True)
    checked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    gold_version: Mapped[int | None] = mapped_column(Integer)
    annotation_revision: Mapped[int | None] = mapped_column(Integer)
