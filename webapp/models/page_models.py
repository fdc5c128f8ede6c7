"""Sites, their extraction rules, extractor variants and compositions, import batches, pages and their extractions."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .model_base import Base, utcnow

if TYPE_CHECKING:
    from .gold_models import Annotation, Gold


class Site(Base):
    __tablename__ = "site"

    id: Mapped[int] = mapped_column(primary_key=True)
    host: Mapped[str] = mapped_column(String(255), unique=True)

    pages: Mapped[list[Page]] = relationship(back_populates="site")
    rule: Mapped[SiteRule | None] = relationship(back_populates="site", cascade="all, delete-orphan")


class SiteRule(Base):
    """CSS rules of the `site-rules` extractor for one site."""

    __tablename__ = "site_rule"

    id: Mapped[int] = mapped_column(primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id", ondelete="CASCADE"), unique=True)
    body: Mapped[str] = mapped_column(Text)
    drop: Mapped[list[Any]] = mapped_column(default=list)
    base: Mapped[str | None] = mapped_column(String(100))
    """The extractor whose text the rule refines (a learned rule); None: the rule's text is its own."""
    updated_by: Mapped[str] = mapped_column(String(100), default="", server_default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)

    site: Mapped[Site] = relationship(back_populates="rule")


class ExtractorVariant(Base):
    """A user-defined extractor: a registered extractor (its base) run with options of its own."""

    __tablename__ = "extractor_variant"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    base: Mapped[str] = mapped_column(String(100))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_by: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ExtractorComposition(Base):
    """A composition of extractors (extractors/compositions.py): a cascade, a route or a union of its parts,
    read from their stored extractions, never run."""

    __tablename__ = "extractor_composition"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    parts: Mapped[list[str]] = mapped_column(JSON, default=list)
    route_by: Mapped[str | None] = mapped_column(String(16))
    route_table: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    """A route's key (a page type or a site's host; "*" every other page) -> the part it takes."""
    fact_table: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """A route by type: the facts -> gold type table (crawl/routing.py) its pages' types are read with."""
    created_by: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ImportBatch(Base):
    __tablename__ = "import_batch"

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(Text)
    format: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    imported: Mapped[int] = mapped_column(default=0)
    duplicates: Mapped[int] = mapped_column(default=0)
    rejected: Mapped[int] = mapped_column(default=0)
    report: Mapped[list[Any]] = mapped_column(default=list)
    created_by: Mapped[str] = mapped_column(String(100), default="", server_default="")

    pages: Mapped[list[Page]] = relationship(back_populates="batch")


class Page(Base):
    __tablename__ = "page"
    # The annotation queue's order (annotation/page_queue.py): pages without a disagreement value last, then the
    # most disagreement first, then by id; the database reads a page of the queue from this index.
    # Its "least confident first" order: pages without a predicted quality last, then the lowest first, then by id.
    __table_args__ = (Index("ix_page_queue_order", text("(disagreement IS NULL)"), "disagreement", "id"),
                      Index("ix_page_quality_order", text("(predicted_quality IS NULL)"), "predicted_quality", "id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    url: Mapped[str | None] = mapped_column(Text)
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("import_batch.id"), index=True)
    source_name: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)  # large: read on first access only
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    encoding: Mapped[str] = mapped_column(String(64))
    encoding_source: Mapped[str] = mapped_column(String(16))
    html: Mapped[str] = mapped_column(Text, deferred=True)  # ditto; select(Page.html) where it is needed
    facts: Mapped[dict[str, Any]] = mapped_column(default=dict)
    disagreement: Mapped[float | None] = mapped_column(Float)  # see webapp/annotation/disagreement.py
    predicted_quality: Mapped[float | None] = mapped_column(Float)  # see webapp/annotation/predicted_quality.py
    scored_rendering: Mapped[str | None] = mapped_column(String(16))
    """RENDERED: the team chose to score the extractors' output on the page's rendering in Chromium
    (usecases/choose_rendering.py); None: their output on the raw response, as on every other page."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    site: Mapped[Site] = relationship(back_populates="pages")
    batch: Mapped[ImportBatch] = relationship(back_populates="pages")
    extractions: Mapped[list[Extraction]] = relationship(
        back_populates="page", cascade="all, delete-orphan"
    )
    gold: Mapped[Gold | None] = relationship(back_populates="page", cascade="all, delete-orphan")
    annotations: Mapped[list[Annotation]] = relationship(
        back_populates="page", cascade="all, delete-orphan", order_by="Annotation.id"
    )


class Extraction(Base):
    """One extractor's output on one page, unique per (page, extractor fingerprint)."""

    __tablename__ = "extraction"
    __table_args__ = (
        UniqueConstraint("page_id", "fingerprint"),
        # covering: the drift aggregate (results/drift.py) reads pages and verdicts by fingerprint from it alone
        Index("ix_extraction_fingerprint_page_accepted", "fingerprint", "page_id", "accepted"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    extractor: Mapped[str] = mapped_column(String(100), index=True)
    fingerprint: Mapped[str] = mapped_column(String(255))
    text: Mapped[str] = mapped_column(Text, default="")
    markdown: Mapped[str] = mapped_column(Text, default="", server_default="")
    """What the extractor kept, as Markdown (extractors/base.py Extracted); an extractor of text only: its
    text, escaped (scoring/markdown_text.py markdown_of_text)."""
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    article_metadata: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    """The title, authors and date the extractor gives, in one shape (annotation/article_metadata.py); None:
    it gives none of them."""
    duration_ms: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[str | None] = mapped_column(Text)
    incomplete: Mapped[bool] = mapped_column(Boolean, default=False)
    # runs that stored this row; see extractors/extraction_service.py RETRYABLE
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    guard_reason: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    page: Mapped[Page] = relationship(back_populates="extractions")
