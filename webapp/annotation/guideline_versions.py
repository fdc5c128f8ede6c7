"""Guidelines: what is main content for each page type, in Markdown, versioned.

Goldtext ships a guideline for each type of the default taxonomy (guideline_texts/PAGE_TYPE.md): it is
version 1 of that type's guideline until an admin saves another. Every save is a new version (a new
Guideline row); the newest is the one in force. A type with no stored version and no shipped text has
no guideline yet (version None).

The shipped text is stored as version 1 the first time something refers to it (a revision saved under
it, or an admin's first edit), so that a later release of Goldtext that rewrites the shipped text never
changes what version 1 meant for the revisions already made under it. Reading a guideline writes nothing.

Services take a session and never commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..models import Guideline

SHIPPED = Path(__file__).resolve().parent / "guideline_texts"
SHIPPED_AUTHOR = "goldtext"
"""The author of version 1 when it is the text Goldtext ships."""
TEXT_MAX = 100_000
"""Characters of a guideline's text."""


@dataclass(frozen=True)
class Version:
    """One version of a type's guideline; ``stored`` False for the shipped text not yet stored."""

    page_type: str
    version: int
    text: str
    author: str
    note: str | None
    created_at: datetime | None
    stored: bool = True


@cache
def shipped_text(page_type: str) -> str | None:
    """The guideline Goldtext ships for a type (None: none for this type)."""
    path = SHIPPED / f"{page_type}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _version(row: Guideline) -> Version:
    return Version(row.page_type, row.version, row.text, row.author, row.note, row.created_at)


def _shipped(page_type: str) -> Version | None:
    text = shipped_text(page_type)
    return None if text is None else Version(page_type, 1, text, SHIPPED_AUTHOR, None, None, stored=False)


def newest_stored(session: Session, page_types: list[str]) -> dict[str, Guideline]:
    """Type -> its newest stored version, for the types given that have one (one query)."""
    newest = (select(Guideline.page_type, func.max(Guideline.version).label("version"))
              .where(Guideline.page_type.in_(page_types)).group_by(Guideline.page_type).subquery())
    rows = session.scalars(select(Guideline).join(
        newest, (newest.c.page_type == Guideline.page_type) & (newest.c.version == Guideline.version)))
    return {row.page_type: row for row in rows}


def in_force(session: Session, page_types: list[str]) -> dict[str, Version | None]:
    """Type -> the version in force (None: no guideline yet), for each type given, in their order."""
    stored = newest_stored(session, page_types)
    return {page_type: _version(stored[page_type]) if page_type in stored else _shipped(page_type)
            for page_type in page_types}


def version_in_force(session: Session, page_type: str) -> int | None:
    """The number of the version in force for a type, storing the shipped text as version 1 when this is
    its first use (a revision is about to record it); None: the type has no guideline. For a save's
    transaction: it may write."""
    number = session.scalar(select(func.max(Guideline.version)).where(Guideline.page_type == page_type))
    if number is not None:
        return number
    shipped = _shipped(page_type)
    if shipped is None:
        return None
    _store_shipped(session, shipped)
    return 1


def _store_shipped(session: Session, shipped: Version) -> None:
    """Store the shipped text as version 1, unless a concurrent transaction just did (a savepoint keeps
    this transaction's other work)."""
    try:
        with session.begin_nested():
            session.add(Guideline(page_type=shipped.page_type, version=1, text=shipped.text, author=SHIPPED_AUTHOR))
    except IntegrityError:
        pass


def history(session: Session, page_type: str) -> list[Version]:
    """Every version of a type's guideline, newest first (the shipped one last, while not stored)."""
    rows = [_version(row) for row in session.scalars(
        select(Guideline).where(Guideline.page_type == page_type).order_by(Guideline.version.desc()))]
    if not rows:
        shipped = _shipped(page_type)
        rows = [shipped] if shipped is not None else []
    return rows


def version_of(session: Session, page_type: str, number: int) -> Version | None:
    """One version of a type's guideline (None: there is no such version)."""
    row = session.scalar(select(Guideline).where(Guideline.page_type == page_type, Guideline.version == number))
    if row is not None:
        return _version(row)
    shipped = _shipped(page_type)
    has_stored = session.scalar(select(func.count()).where(Guideline.page_type == page_type))
    return shipped if number == 1 and shipped is not None and not has_stored else None


class StaleGuideline(ValueError):
    """The edit started from a version that is no longer the one in force."""


def save_version(session: Session, page_type: str, text: str, author: str, base_version: int | None,
                 note: str | None = None) -> Guideline:
    """Store a new version of a type's guideline, written by ``author`` from ``base_version`` (None: the
    type had no guideline); StaleGuideline when another version came into force since. The shipped
    text, when it was in force, is stored first as version 1, so the history keeps it."""
    current = session.scalar(select(func.max(Guideline.version)).where(Guideline.page_type == page_type))
    if current is None and (shipped := _shipped(page_type)) is not None:
        _store_shipped(session, shipped)
        current = 1
    if base_version != current:
        raise StaleGuideline(f"the guideline of {page_type!r} is at version {current} now, not {base_version}: "
                             "read it and edit again")
    row = Guideline(page_type=page_type, version=(current or 0) + 1, text=text, author=author, note=note)
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        raise StaleGuideline(f"another version of the guideline of {page_type!r} was saved at the same time: "
                             "read it and edit again") from None
    return row
