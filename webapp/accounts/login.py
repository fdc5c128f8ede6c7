"""Logging in, in three steps so that no write transaction waits on a password hash (logging out is a use
case, usecases/own_account.py `log_out`):

1. `begin`: the throttle counts and decides the attempt atomically (webapp/accounts/throttle.py), and the
   user's stored hash is read; the caller commits;
2. `verify`: the Argon2 check, with no transaction open (a flood of wrong passwords holds no lock that
   a save waits for);
3. `finish`: the outcome recorded (`login` or `login.failed` in the audit log, a new login credential);
   the caller commits.

A refused attempt (`begin` says how long to wait) checks no password and changes no count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.orm import Session

from ..models import User
from . import audit_log, throttle, users
from .audit_actions import Action
from .credentials import LOGIN, issue
from .names import normalised


@dataclass(frozen=True)
class LoginPolicy:
    max_failures: int
    window: timedelta
    lifetime: timedelta  # of a browser login

    @property
    def throttle(self) -> throttle.ThrottlePolicy:
        return throttle.ThrottlePolicy(self.max_failures, self.window)


@dataclass(frozen=True)
class Attempt:
    """One login attempt between its steps: who was named, from where, and what was read for the check."""

    name: str
    address: str
    user_id: int | None
    password_hash: str | None  # the user's; None for an unknown name (checked against a hash of nothing)
    wait: timedelta | None = None  # refused by the throttle: wait this long
    device: str | None = None  # the known device (devices.py) the attempt came from


@dataclass(frozen=True)
class LoginOutcome:
    user: User | None
    secret: str | None  # the new login's secret, for the session cookie
    wait: timedelta | None = None  # refused by the throttle


def target_of(name: str) -> str:
    return f"user {name}"[: audit_log.TARGET_MAX]


def begin(session: Session, name: str, address: str, policy: LoginPolicy, device: str | None = None) -> Attempt:
    """Step 1 (not committed): reserve the attempt with the throttle and read the user's hash. `device`:
    the id of the browser's device cookie when it is valid for this name (devices.known_device)."""
    typed, name = name, normalised(name)
    wait = throttle.reserve(session, name, address, policy.throttle, device=device)
    if wait is not None:
        audit_log.record(session, name, Action.LOGIN_FAILED, target_of(name),
                         {"reason": "too many failed logins", "wait_seconds": round(wait.total_seconds()),
                          "device": "known" if device else "unknown"}, address)
        return Attempt(name, address, None, "", wait, device)
    user = users.user_named(session, typed)
    if user is None or user.disabled:
        return Attempt(name, address, None, user.password_hash if user is not None else None, device=device)
    return Attempt(user.name, address, user.id, user.password_hash, device=device)


def verify(attempt: Attempt, password: str) -> str | None:
    """Step 2, with no transaction open: None for a wrong password (or an unknown or disabled user);
    for a right one, the hash to store (a new one when the hashing costs have changed, else the same). An
    unknown name is checked against a hash of nothing, so that it takes as long as a wrong password; that hash
    is made here, on a process's first unknown name, not in step 1's transaction."""
    if attempt.password_hash is None:
        users.matches(users.unknown_hash(), password)
        return None
    if not users.matches(attempt.password_hash, password) or attempt.user_id is None:
        return None
    stale = users.HASHER.check_needs_rehash(attempt.password_hash)
    return users.HASHER.hash(password) if stale else attempt.password_hash


def finish(session: Session, attempt: Attempt, new_hash: str | None, policy: LoginPolicy) -> LoginOutcome:
    """Step 3 (not committed): record the outcome; a right password gets a new login credential."""
    user = session.get(User, attempt.user_id) if new_hash is not None and attempt.user_id is not None else None
    if user is None or user.disabled or user.password_hash != attempt.password_hash:  # changed meanwhile
        audit_log.record(session, attempt.name, Action.LOGIN_FAILED, target_of(attempt.name),
                         {"reason": "wrong name or password"}, attempt.address)
        return LoginOutcome(None, None)
    if new_hash != attempt.password_hash:
        session.execute(update(User).where(User.id == user.id, User.password_hash == attempt.password_hash)
                        .values(password_hash=new_hash))
    throttle.succeeded(session, attempt.name, attempt.address, attempt.device)
    secret = issue(session, user, LOGIN, policy.lifetime)
    audit_log.record(session, user.name, Action.LOGIN, target_of(user.name), None, attempt.address)
    return LoginOutcome(user, secret)


def refused(attempt: Attempt) -> LoginOutcome:
    return LoginOutcome(None, None, attempt.wait)
