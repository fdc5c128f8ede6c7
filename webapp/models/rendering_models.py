"""What a capture keeps of a page beside its raw response: its rendering in Chromium (the DOM and a
screenshot), the extractors' output on that rendering (kept apart from their output on the raw response,
which the leaderboard scores), and the stylesheets, fonts and images of its styled snapshot."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .model_base import Base, utcnow

RENDERED = "rendered"
"""A page's rendering in Chromium, where a rendering is named (Page.scored_rendering, the frame's variant)."""


class PageRendering(Base):
    """A page's rendering in Chromium: the serialised DOM, a second rendering of the same page."""

    __tablename__ = "page_rendering"

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), unique=True)
    html: Mapped[str] = mapped_column(Text, deferred=True)
    screenshot: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    """A full-page PNG taken with the rendering."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RenderingExtraction(Base):
    """One extractor's output on a page's rendering, unique per (rendering, extractor fingerprint)."""

    __tablename__ = "rendering_extraction"
    __table_args__ = (UniqueConstraint("rendering_id", "fingerprint"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    rendering_id: Mapped[int] = mapped_column(ForeignKey("page_rendering.id", ondelete="CASCADE"), index=True)
    extractor: Mapped[str] = mapped_column(String(100))
    fingerprint: Mapped[str] = mapped_column(String(255))
    text: Mapped[str] = mapped_column(Text, default="")
    markdown: Mapped[str] = mapped_column(Text, default="")
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    duration_ms: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[str | None] = mapped_column(Text)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    guard_reason: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PageRequisite(Base):
    """A stylesheet, font or image of a page's styled snapshot, as captured (without its transfer
    compression); served to the page's frame from the app's origin only (stylesheets rewritten)."""

    __tablename__ = "page_requisite"
    __table_args__ = (UniqueConstraint("page_id", "url"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(Text)
    """The URL the page or a stylesheet names it by."""
    content_type: Mapped[str] = mapped_column(String(255))
    data: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
