"""The login throttle: it slows password guessing down without locking the real user out.

Three kinds of counts are kept (table `login_throttle`): one per user name (by its key, so `ANN1` and
`ann1` share it), one per known device (a browser that logged in as the user before and holds its signed
device cookie: devices.py), and one per client address. An attempt is counted against its address and,
from a known device, against that device, else against the name: a name under attack waits, while its
user's own browsers keep their allowance (OWASP's device cookies). An attempt that may go ahead is counted
as a failure before its password is checked, in the same transaction that decided it (`reserve`: the rows
are locked, so 40 parallel attempts cannot all pass one check); a success takes its count back
(`succeeded`). After `free` failures in a row each further one makes the next attempt wait twice as long
(1 s, 2 s, 4 s, ...): a device's and an address's wait stops growing at the window, a name's (the unknown
devices') keeps growing up to NAME_MAX_WAIT, so spacing guesses out cannot keep a name's wait at the window
for ever. A refused attempt checks no password and changes nothing, so it cannot extend the wait. A name's
and a device's count waits from `max_failures` failures on, an address's from `ADDRESS_FACTOR` times as
many, and each forgets its failures once a whole window has passed without one since the last wait ended.
An admin clears a name's wait (`clear`). Rows that have forgotten everything are deleted as attempts come
(`prune`, at most PRUNE_ROWS per attempt), so guessing with ever new names or addresses cannot grow the
table without bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ..foundation.rows_matched import rows_matched
from ..models import LoginThrottle, utcnow
from .names import name_key

ADDRESS_FACTOR = 4  # an address (an office behind one NAT) may fail this many times more than one name
FIRST_DELAY = timedelta(seconds=1)
NAME_MAX_WAIT = timedelta(days=1)  # the longest wait of a name (unknown devices): 1 s doubled 17 times
PRUNE_ROWS = 100  # forgotten rows deleted per attempt: more than any burst of attempts can make


@dataclass(frozen=True)
class ThrottlePolicy:
    max_failures: int
    window: timedelta  # failures older than this are forgotten; no wait is longer


def name_row(name: str) -> str:
    return f"name:{name_key(name)}"[:200]


def address_row(address: str) -> str:
    return f"address:{address}"[:200]


def device_row(name: str, device: str) -> str:
    """A known device's count, under its user's name (an admin's `clear` clears it too)."""
    return f"device:{name_key(name)}:{device}"[:200]


def aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes (stored in UTC)."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def delay(failures: int, free: int, longest: timedelta) -> timedelta:
    """How long the next attempt waits after this many failures in a row."""
    if failures < free:
        return timedelta(0)
    return min(FIRST_DELAY * 2 ** min(failures - free, 40), longest)


def _locked_rows(session: Session, keys: list[str]) -> list[LoginThrottle]:
    """The rows of these keys, made when missing, locked until the transaction ends (PostgreSQL: FOR
    UPDATE, in one order so that two attempts never wait on each other; SQLite: the write transaction
    already holds the database's one write lock)."""
    dialect = session.get_bind().dialect.name
    make = postgresql.insert if dialect == "postgresql" else sqlite.insert
    session.execute(make(LoginThrottle).values([{"key": key, "failures": 0} for key in keys])
                    .on_conflict_do_nothing(index_elements=["key"]))
    query = select(LoginThrottle).where(LoginThrottle.key.in_(keys)).order_by(LoginThrottle.key).with_for_update()
    return list(session.scalars(query.execution_options(populate_existing=True)))


def reserve(session: Session, name: str, address: str, policy: ThrottlePolicy,
            now: datetime | None = None, device: str | None = None) -> timedelta | None:
    """Count an attempt for the name (or the known device: `device`, its id) and the address if both may
    try now, and return None; else change nothing and return how long to wait. The caller commits before
    checking the password."""
    own = device_row(name, device) if device else name_row(name)
    free = {own: policy.max_failures, address_row(address): ADDRESS_FACTOR * policy.max_failures}
    longest = {own: NAME_MAX_WAIT if not device else policy.window, address_row(address): policy.window}
    rows = _locked_rows(session, sorted(free))
    now = now or utcnow()  # read once the rows are ours: an attempt that waited for them is judged as of now
    prune(session, now, policy, keep=list(free))
    waits = [until - now for row in rows
             if (until := aware(row.not_before)) is not None and until > now and not forgotten(row, now, policy)]
    if waits:
        return max(waits)
    for row in rows:
        failures = 0 if forgotten(row, now, policy) else row.failures
        row.failures = failures + 1
        row.last_failure_at = now
        wait = delay(row.failures, free[row.key], longest[row.key])
        row.not_before = now + wait if wait else None
    session.flush()
    return None


def forgotten(row: LoginThrottle, now: datetime, policy: ThrottlePolicy) -> bool:
    """Whether a whole window has passed without a failure since the last wait ended."""
    last = aware(row.not_before) or aware(row.last_failure_at)
    return last is None or last <= now - policy.window


def prune(session: Session, now: datetime, policy: ThrottlePolicy, keep: list[str]) -> int:
    """Delete up to PRUNE_ROWS rows, other than ``keep``, that have forgotten their failures (see
    `forgotten`; a row with no failure left counts too); how many. On PostgreSQL rows another attempt holds
    are skipped, never waited for, so two attempts cannot deadlock on each other's old rows."""
    old = now - policy.window
    stale = (select(LoginThrottle.key)
             .where(LoginThrottle.key.not_in(keep),
                    (LoginThrottle.not_before.is_(None) & (LoginThrottle.last_failure_at.is_(None)
                                                           | (LoginThrottle.last_failure_at <= old)))
                    | (LoginThrottle.not_before <= old))
             .limit(PRUNE_ROWS))
    if session.get_bind().dialect.name == "postgresql":
        stale = stale.with_for_update(skip_locked=True)
    deleted = session.execute(delete(LoginThrottle).where(LoginThrottle.key.in_(stale.scalar_subquery())))
    return rows_matched(deleted)


def succeeded(session: Session, name: str, address: str, device: str | None = None) -> None:
    """The reserved attempt was right: the name (or the known device it came from) starts afresh, the
    address's count takes it back. A login from a known device leaves the name's count as it is: an attack
    on the name goes on waiting."""
    own = device_row(name, device) if device else name_row(name)
    session.execute(update(LoginThrottle).where(LoginThrottle.key == own)
                    .values(failures=0, last_failure_at=None, not_before=None))
    session.execute(update(LoginThrottle).where(LoginThrottle.key == address_row(address),
                                                LoginThrottle.failures > 0)
                    .values(failures=LoginThrottle.failures - 1))


def waiting(session: Session, names: list[str], now: datetime | None = None) -> dict[str, timedelta]:
    """name -> how long its next login waits, for the names that wait now."""
    now = now or utcnow()
    keys = {name_row(name): name for name in names}
    found = {}
    for row in session.scalars(select(LoginThrottle).where(LoginThrottle.key.in_(keys))):
        until = aware(row.not_before)
        if until is not None and until > now and row.key in keys:
            found[keys[row.key]] = until - now
    return found


def clear(session: Session, name: str) -> bool:
    """Forget the name's failures and its known devices' (an admin's unlock); whether there were any."""
    deleted = session.execute(delete(LoginThrottle).where(
        (LoginThrottle.key == name_row(name))
        | LoginThrottle.key.startswith(device_row(name, ""), autoescape=True)))
    return bool(rows_matched(deleted))
