"""The audit log: every state change appended with who, when, what and from where.

`record` is the only way in, and nothing here (nor anywhere in the app) updates or deletes an event:
the database refuses both (the triggers of migration 0007). Callers add the event in the transaction of
the change it describes, so the two are committed, or rolled back, together.

Actions in use: login, login.failed, logout, gold.save, gold.restore, import, export, extract,
job.cancel, rule.set, rule.delete, user.add, user.role, user.disable, user.enable, user.password,
user.token, user.revoke-tokens; adjudication and assignment add their own (adjudicate, assign).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import AuditEvent

ACTOR_MAX, ACTION_MAX, TARGET_MAX, ADDRESS_MAX = 100, 32, 255, 64


def record(session: Session, actor: str, action: str, target: str = "", detail: Any = None,
           address: str | None = None) -> AuditEvent:
    """Append one event (not committed). `actor`: the user's name (`annotator()` in a view, cli:LOGIN on
    the command line); `target`: what was changed ("page 12", "user ann"); `detail`: anything
    JSON-serialisable; `address`: the client's address (`request.remote_addr`), "cli" for commands."""
    event = AuditEvent(actor=actor[:ACTOR_MAX], action=action[:ACTION_MAX], target=target[:TARGET_MAX],
                       detail=detail, address=(address or "")[:ADDRESS_MAX])
    session.add(event)
    return event


@dataclass(frozen=True)
class AuditFilter:
    """Which events to read: each field narrows, None or empty leaves it open."""

    since: datetime | None = None
    until: datetime | None = None
    actor: str | None = None
    action: str | None = None  # an action, or a prefix ending in "." ("user." for every user change)

    def apply(self, query):
        if self.since is not None:
            query = query.where(AuditEvent.at >= self.since)
        if self.until is not None:
            query = query.where(AuditEvent.at < self.until)
        if self.actor:
            query = query.where(AuditEvent.actor == self.actor)
        if self.action:
            if self.action.endswith("."):
                query = query.where(AuditEvent.action.startswith(self.action, autoescape=True))
            else:
                query = query.where(AuditEvent.action == self.action)
        return query


def events(session: Session, wanted: AuditFilter, before: int | None = None,
           limit: int | None = None) -> list[AuditEvent]:
    """The matching events newest first; `before`: only ids below it (the next page of a listing)."""
    query = wanted.apply(select(AuditEvent))
    if before is not None:
        query = query.where(AuditEvent.id < before)
    query = query.order_by(AuditEvent.id.desc())
    return list(session.scalars(query if limit is None else query.limit(limit)))


def as_dict(event: AuditEvent) -> dict[str, Any]:
    at = event.at if event.at.tzinfo else event.at.replace(tzinfo=UTC)  # SQLite: naive, stored in UTC
    return {"id": event.id, "at": at.isoformat(), "actor": event.actor, "action": event.action,
            "target": event.target, "detail": event.detail, "address": event.address}


def detail_text(detail: Any) -> str:
    """The detail as one line of text ('' for none)."""
    if detail is None:
        return ""
    return detail if isinstance(detail, str) else json.dumps(detail, ensure_ascii=False, sort_keys=True)


def rows(session: Session, wanted: AuditFilter) -> Iterator[dict[str, Any]]:
    """Every matching event as a dict, oldest first (for exports)."""
    yield from (as_dict(e) for e in session.scalars(wanted.apply(select(AuditEvent)).order_by(AuditEvent.id)))
