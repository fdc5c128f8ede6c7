"""Logging in and out, with the throttle: too many failed logins for one name, or from one address, in
the window refuse further attempts without checking the password. The failures are the audit log's
`login.failed` events, so the count is shared by every web process and machine."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from ..models import AuditEvent, User, utcnow
from . import audit
from .credentials import LOGIN, issue, revoke
from .users import check_password

FAILED = "login.failed"
ADDRESS_FACTOR = 4  # an address (an office behind one NAT) may fail this many times more than one name


@dataclass(frozen=True)
class LoginPolicy:
    max_failures: int
    window: timedelta
    lifetime: timedelta  # of a browser login


@dataclass(frozen=True)
class LoginOutcome:
    user: User | None
    secret: str | None  # the new login's secret, for the session cookie
    throttled: bool = False


def throttled(session: Session, name: str, address: str, policy: LoginPolicy) -> bool:
    since = utcnow() - policy.window
    counts = session.execute(
        select(func.count().filter(AuditEvent.target == target_of(name)),
               func.count().filter(AuditEvent.address == address))
        .where(AuditEvent.action == FAILED, AuditEvent.at >= since,
               or_(AuditEvent.target == target_of(name), AuditEvent.address == address))
    ).one()
    return counts[0] >= policy.max_failures or counts[1] >= ADDRESS_FACTOR * policy.max_failures


def target_of(name: str) -> str:
    return f"user {name}"[: audit.TARGET_MAX]


def log_in(session: Session, name: str, password: str, address: str, policy: LoginPolicy) -> LoginOutcome:
    """Check the name and password (unless throttled) and record the attempt; on success a new login
    credential. The caller commits in every case: a failure must be counted."""
    if throttled(session, name, address, policy):
        audit.record(session, name, FAILED, target_of(name), {"reason": "too many failed logins"}, address)
        return LoginOutcome(None, None, throttled=True)
    user = check_password(session, name, password)
    if user is None:
        audit.record(session, name, FAILED, target_of(name), {"reason": "wrong name or password"}, address)
        return LoginOutcome(None, None)
    secret = issue(session, user, LOGIN, policy.lifetime)
    audit.record(session, user.name, "login", target_of(user.name), None, address)
    return LoginOutcome(user, secret)


def log_out(session: Session, user: User, secret: str, address: str) -> None:
    revoke(session, secret)
    audit.record(session, user.name, "logout", target_of(user.name), None, address)
