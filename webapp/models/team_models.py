"""What the lead's console keeps (views/console.py): the assignment changes it can undo, the comments and
change requests on pages, the control pages and their known gold, and the team's choice of candidate tabs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .model_base import Base, utcnow


class AssignmentChange(Base):
    """One assignment action (assign, remove, re-assign) and exactly what it changed: the (page id,
    annotator) pairs it added and removed, so that the newest one not yet undone can be undone."""

    __tablename__ = "assignment_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    actor: Mapped[str] = mapped_column(String(100), index=True)
    action: Mapped[str] = mapped_column(String(16))
    added: Mapped[list[Any]] = mapped_column(JSON)
    removed: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PageComment(Base):
    """A comment on a page (``line``: on one line of it, quoted), by a lead or an annotator. ``about``: the
    annotator whose work it is about (None: the page); ``kind`` "changes" is a lead's request that
    ``about`` change their annotation (usecases/feedback.py)."""

    __tablename__ = "page_comment"

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    author: Mapped[str] = mapped_column(String(100))
    about: Mapped[str | None] = mapped_column(String(100), index=True)
    kind: Mapped[str] = mapped_column(String(16), default="comment")
    line: Mapped[str | None] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ControlPage(Base):
    """A page whose gold is known, given blind to annotators to score them (annotation/control.py): the
    known gold as it was when the page became a control page (its text, type, snippets and version)."""

    __tablename__ = "control_page"

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), unique=True)
    text: Mapped[str] = mapped_column(Text)
    page_type: Mapped[str] = mapped_column(String(32))
    snippets: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    gold_version: Mapped[int] = mapped_column(Integer)
    author: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CandidateTab(Base):
    """The team's choice for one extractor's tab in the annotate view: hidden, pinned (pinned tabs come
    first, by ``position``)."""

    __tablename__ = "candidate_tab"

    id: Mapped[int] = mapped_column(primary_key=True)
    extractor: Mapped[str] = mapped_column(String(100), unique=True)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)
    position: Mapped[int] = mapped_column(Integer, default=0)
