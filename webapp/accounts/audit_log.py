"""The audit log: every state change appended with who, when, what and from where, in a hash chain.

`record` is the only way in (its actions: the one list, audit_actions.py `Action`), and nothing here (nor
anywhere in the app) updates or deletes an event: the database refuses both (the triggers of migrations
0007 and 0011, which also refuse SQLite's `INSERT OR REPLACE` over an event and PostgreSQL's TRUNCATE).
Callers add the event in the transaction of the change it describes, so the two are committed, or rolled
back, together.

Each event carries the hash of the one before it (`prev_digest`) and its own (`digest`: SHA-256 of the
previous hash and the event's fields), so an event changed, deleted or moved by whoever can write the
database file breaks the chain, and `verify` names the first broken event. Appends are serialised (a
PostgreSQL advisory lock held to the end of the transaction; on SQLite the write lock that a writing
transaction holds from its BEGIN IMMEDIATE), so two saves at once never fork the chain. The chain's end
is anchored outside the table (audit_head.py): the checkpoint each commit advances, and a head kept
elsewhere.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from ..models import AuditEvent, utcnow
from . import audit_head
from .audit_actions import Action

ACTOR_MAX, ACTION_MAX, TARGET_MAX, ADDRESS_MAX = 100, 32, 255, 64
GENESIS = "0" * 64
"""The previous hash of the first event."""
CHAIN_LOCK = 7_404_118  # the PostgreSQL advisory lock key of appends to the chain


def chain_digest(previous: str, at: datetime, actor: str, action: str, target: str, detail: Any,
                 address: str) -> str:
    """The event's hash: SHA-256 of the previous event's hash and this event's fields (its time in UTC
    to the microsecond, as both databases store it). Migration 0011 chains the events written before
    it with this function."""
    moment = (at.astimezone(UTC) if at.tzinfo else at).strftime("%Y-%m-%dT%H:%M:%S.%f")
    body = json.dumps([previous, moment, actor, action, target, detail, address], ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _last_digest(session: Session) -> str:
    """The hash the next event follows, read once no other transaction can append (see the module)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": CHAIN_LOCK})
    last = session.scalar(select(AuditEvent.digest).order_by(AuditEvent.id.desc()).limit(1))
    return last or GENESIS


def record(session: Session, actor: str, action: Action, target: str = "", detail: Any = None,
           address: str | None = None) -> AuditEvent:
    """Append one event (not committed). `actor`: the user's name (`usecases/outcome.py` `Actor.name`,
    cli:LOGIN on the command line); `action`: one of `Action` (a ValueError names another); `target`: what
    was changed ("page 12", "user ann"); `detail`: anything JSON-serialisable; `address`: the client's address
    (`request.remote_addr`), "cli" for commands."""
    event = AuditEvent(at=utcnow(), actor=actor[:ACTOR_MAX], action=Action(action).value[:ACTION_MAX],
                       target=target[:TARGET_MAX], detail=detail, address=(address or "")[:ADDRESS_MAX])
    event.prev_digest = _last_digest(session)
    event.digest = event_digest(event, event.prev_digest)
    session.add(event)
    session.flush()  # the next event of this transaction follows this one
    audit_head.appended(session, event)  # the checkpoint moves to it once the transaction commits
    return event


def event_digest(event: AuditEvent, previous: str) -> str:
    return chain_digest(previous, event.at, event.actor, event.action, event.target, event.detail, event.address)


@dataclass(frozen=True)
class Break:
    """The first event where the chain breaks, and how."""

    event_id: int
    reason: str


def verify(session: Session) -> tuple[int, str, Break | None]:
    """Walk the chain oldest first: (events checked, the last hash, the first break or None)."""
    previous, previous_id, checked = GENESIS, None, 0
    for event in session.scalars(select(AuditEvent).order_by(AuditEvent.id).execution_options(yield_per=500)):
        after = f"event {previous_id}" if previous_id is not None else "the start of the log"
        if event.prev_digest != previous:
            return checked, previous, Break(event.id, (
                f"event {event.id} ({_summary(event)}) does not follow {after}: an event between them was "
                f"deleted, or events were moved or inserted out of order"))
        if event.digest != event_digest(event, previous):
            return checked, previous, Break(event.id, (
                f"event {event.id} ({_summary(event)}) was changed after it was written: its fields do not "
                f"match its hash"))
        previous, previous_id, checked = event.digest, event.id, checked + 1
    return checked, previous, None


def _summary(event: AuditEvent) -> str:
    at = event.at if event.at.tzinfo else event.at.replace(tzinfo=UTC)
    return f"{at.strftime('%Y-%m-%d %H:%M:%S')} UTC, {event.actor}, {event.action}"


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
