"""The audit log's head, kept outside its table: a hash chain shows every event changed, moved or deleted
between others, but not its own end cut off (the newest events deleted, or all of them). The head is
what anchors that end.

The checkpoint is a small JSON file in the instance folder (`audit-head.json`: the count of events up to
the head, the head event's id and hash, when it was written). A session that appends events
(`audit_log.record` calls `appended`) advances it once its transaction commits, and forgets them when it
rolls back, so the file only ever names committed events. The new head is made before the commit, while
the transaction holds the chain's lock: its count is the file's plus the events appended when they follow
the head it names, else counted in the table. Processes on one machine share the file under a lock; the
head only moves forward (a commit that lands after a later one does not move it back). Each
advance is also written to the `goldtext.audit` logger (INFO), for a log kept elsewhere.

`compare` checks the table against the checkpoint, against a head kept elsewhere (`goldtext audit
checkpoint` prints it; `verify --head HASH` checks it), and on PostgreSQL against the ids its sequence
handed out. What none of them can see: an owner who rewrites the table and the checkpoint alike (the
instance folder is on the same machine); a head kept on another machine is what catches that.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import event, func, select, text
from sqlalchemy.orm import Session

from ..foundation.engine import AUDIT_HEAD
from ..models import AuditEvent, utcnow

PENDING = "audit_head_pending"  # session.info: (prev_digest, id, digest) of the events of this transaction
READY = "audit_head_ready"  # session.info: the head this transaction's commit moves the checkpoint to
LISTENING = "audit_head_listening"
LOG = logging.getLogger("goldtext.audit")


@dataclass(frozen=True)
class Head:
    """`count` events up to and including event `last_id`, whose hash is `digest`."""

    count: int
    last_id: int
    digest: str
    at: str = ""


def read(path: Path) -> Head | None:
    """The checkpoint in `path`, None when there is none; ValueError naming the file when it is not one."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        return Head(int(found["count"]), int(found["last_id"]), str(found["digest"]), str(found.get("at", "")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path} is not an audit checkpoint ({type(error).__name__}: {error})") from error


def appended(session: Session, item: AuditEvent) -> None:
    """Note an event appended in the session's transaction (flushed: its id is known)."""
    if session.info.get(AUDIT_HEAD) is None:
        return  # a session made outside the app's database (a migration's): no checkpoint to keep
    session.info.setdefault(PENDING, []).append((item.prev_digest, item.id, item.digest))
    if not session.info.get(LISTENING):
        session.info[LISTENING] = True
        event.listen(session, "before_commit", _prepared)
        event.listen(session, "after_commit", _committed)
        event.listen(session, "after_rollback", _rolled_back)


def _rolled_back(session: Session) -> None:
    session.info.pop(PENDING, None)
    session.info.pop(READY, None)


def _prepared(session: Session) -> None:
    """Before the commit, inside the transaction that still holds the chain's lock: the new head, counted
    in the table itself when the events do not follow the head the file names (no other connection is
    needed, and none waits on this one's lock)."""
    pending = session.info.pop(PENDING, None)
    if not pending:
        return
    path = session.info[AUDIT_HEAD]
    try:
        kept = read(path)
    except ValueError:
        kept = None  # an unreadable file is replaced: verify names it until then, the table decides now
    first_previous, (_, last_id, digest) = pending[0][0], pending[-1]
    if kept is not None and kept.digest == first_previous:
        count = kept.count + len(pending)
    else:
        count = int(session.scalar(select(func.count()).select_from(AuditEvent).where(AuditEvent.id <= last_id)) or 0)
    session.info[READY] = Head(count, last_id, digest)


def _committed(session: Session) -> None:
    ready = session.info.pop(READY, None)
    if ready is not None:
        moved_to(session.info[AUDIT_HEAD], ready)


def moved_to(path: Path, head: Head) -> Head | None:
    """Write `head` as the checkpoint unless the file names a later one already (a commit that landed
    after this one wrote first); the head written, or None."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            kept = read(path)
        except ValueError:
            kept = None
        if kept is not None and kept.last_id >= head.last_id:
            return None
        new = Head(head.count, head.last_id, head.digest, utcnow().isoformat())
        scratch = path.with_name(path.name + ".new")
        with open(scratch, "w", encoding="utf-8") as out:
            json.dump({"count": new.count, "last_id": new.last_id, "digest": new.digest, "at": new.at}, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(scratch, path)
    LOG.info("audit head: %d event(s), event %d, hash %s", new.count, new.last_id, new.digest)
    return new


def table_head(session: Session) -> Head | None:
    """The table's own head: its event count, newest event and hash (None when it is empty)."""
    newest = session.execute(select(AuditEvent.id, AuditEvent.digest).order_by(AuditEvent.id.desc()).limit(1)).first()
    if newest is None:
        return None
    return Head(int(session.scalar(select(func.count()).select_from(AuditEvent)) or 0), newest.id,
                newest.digest or "")


def describe(head: Head | None) -> str:
    if head is None:
        return "no event"
    return f"{head.count} event(s) up to event {head.last_id} (hash {head.digest})"


def compare(session: Session, checkpoint: Path | None, kept_hash: str | None) -> tuple[list[str], list[str]]:
    """What the table lacks that the anchors say it held (problems: `verify` fails), and what it cannot
    tell apart from an innocent cause (notes)."""
    problems: list[str] = []
    notes: list[str] = []
    now = table_head(session)
    if checkpoint is not None:
        try:
            kept = read(checkpoint)
        except ValueError as error:
            problems.append(str(error))
            kept = None
        if kept is None and checkpoint.exists() is False:
            notes.append(f"no checkpoint at {checkpoint}: no event has been appended by a process of this "
                         "instance folder yet, or it was deleted")
        elif kept is not None:
            problems.extend(_against_checkpoint(session, kept, now, checkpoint))
    if kept_hash:
        at = session.scalar(select(AuditEvent.id).where(AuditEvent.digest == kept_hash.strip().lower()))
        if at is None:
            problems.append(f"no event has the hash {kept_hash}, the head you kept: the events from it on were "
                            f"deleted, or the log was rewritten (the table holds {describe(now)})")
    problems.extend(_against_sequence(session, now, notes))
    return problems, notes


def _against_checkpoint(session: Session, kept: Head, now: Head | None, path: Path) -> list[str]:
    said = f"the checkpoint {path} (written {kept.at or 'at an unknown time'}) names {describe(kept)}"
    if now is None:
        return [f"all {kept.count} event(s) are missing: the table is empty, but {said}"]
    found = session.scalar(select(AuditEvent.digest).where(AuditEvent.id == kept.last_id))
    if found is None and now.last_id < kept.last_id:
        missing = kept.count - now.count
        return [f"the newest events are missing: the table ends at event {now.last_id} with {now.count} "
                f"event(s), but {said} ({missing} event(s) fewer, event {now.last_id + 1} to {kept.last_id} at "
                "least)"]
    if found is None:
        return [f"event {kept.last_id} is missing: {said}"]
    if found != kept.digest:
        return [f"event {kept.last_id} has the hash {found}, not the checkpoint's: {said}; the log was rewritten"]
    up_to = int(session.scalar(select(func.count()).select_from(AuditEvent).where(AuditEvent.id <= kept.last_id)) or 0)
    if up_to != kept.count:
        return [f"the table holds {up_to} event(s) up to event {kept.last_id}, but {said}"]
    return []


def _against_sequence(session: Session, now: Head | None, notes: list[str]) -> list[str]:
    """PostgreSQL's sequence remembers the ids it handed out, whatever was deleted; but a transaction that
    appended and then rolled back leaves its id unused too, so only an empty table with ids handed out is
    a problem for certain (SQLite's ids have no sequence: the table's rowids are reused)."""
    if session.get_bind().dialect.name != "postgresql":
        return []
    handed = session.scalar(text(
        "SELECT last_value FROM pg_catalog.pg_sequences "
        "WHERE format('%I.%I', schemaname, sequencename) = pg_get_serial_sequence('audit_event', 'id')"))
    if handed is None:  # no id handed out yet
        return []
    if now is None:
        return [f"the table is empty, but the database's sequence handed out event ids up to {handed}: those "
                "events were deleted (or truncated)"]
    if handed > now.last_id:
        notes.append(f"the database's sequence handed out ids up to {handed}, the newest event is {now.last_id}: "
                     "the events after it were deleted, or their transactions rolled back (the checkpoint tells "
                     "which)")
    return []

