"""Users: adding them, their role, password and whether they may log in. Passwords are hashed with
Argon2id (argon2-cffi); a user is disabled, never deleted, so every name recorded anywhere stays theirs.
A new password and a disable end every login of the user, and their API tokens unless kept on purpose
(webapp/accounts/credentials.py); names are checked by webapp/accounts/names.py."""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..foundation.rows_matched import rows_matched
from ..models import Assignment, User
from .credentials import end_sessions
from .names import BadName, checked_name, name_key, normalised
from .roles import ADMIN, ROLES

PASSWORD_MIN = 8
PASSWORD_MAX_BYTES = 1024  # checked before hashing: a 100 MB password would cost seconds of CPU a request

HASHER = PasswordHasher()


@cache
def unknown_hash() -> str:
    """Checked against when the name is unknown, so that a wrong name takes as long as a wrong password.
    Made on the first login with an unknown name, not when the module loads: a hash costs about 0.1 s of
    CPU, which every command, server and worker process would otherwise pay at start."""
    return HASHER.hash("no such user")


class AccountError(ValueError):
    """A change that cannot be made; the message says why."""


def accounts_exist(session: Session) -> bool:
    """Whether any account exists: from the first one on, everyone logs in (no local mode)."""
    return session.scalar(select(User.id).limit(1)) is not None


def user_named(session: Session, name: str) -> User | None:
    """The user of this name as typed, NFKC-normalised (a name given before normalisation: as stored)."""
    found = {user.name: user for user in session.scalars(select(User).where(User.name.in_({normalised(name), name})))}
    return found.get(normalised(name)) or found.get(name)


def existing(session: Session, name: str) -> User:
    found = user_named(session, name)
    if found is None:
        raise AccountError(f"no user named {name!r}")
    return found


def list_users(session: Session) -> list[User]:
    return list(session.scalars(select(User).order_by(User.name)))


def checked_role(role: str) -> str:
    if role not in ROLES:
        raise AccountError(f"unknown role {role!r}: one of {', '.join(ROLES)}")
    return role


def password_problem(password: str) -> str | None:
    """Why a password cannot be checked or set, before any hashing (None: it can)."""
    if len(password.encode("utf-8", "surrogatepass")) > PASSWORD_MAX_BYTES:
        return f"a password has at most {PASSWORD_MAX_BYTES} bytes"
    if "\x00" in password:
        return "a password cannot hold a NUL character"
    return None


def matches(password_hash: str, password: str) -> bool:
    """Whether the password is the one hashed (an Argon2 check: call it with no transaction open)."""
    try:
        return HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def hashed(password: str) -> str:
    problem = password_problem(password)
    if problem is None and len(password) < PASSWORD_MIN:
        problem = f"a password needs at least {PASSWORD_MIN} characters"
    if problem is not None:
        raise AccountError(problem)
    return HASHER.hash(password)


def add_user(session: Session, name: str, role: str, password: str) -> User:
    """A new enabled user (not committed). Names are normalised and checked (webapp/accounts/names.py),
    and unique but for case and look-alike letters. The password is hashed before the session is used, so
    a caller that opens no transaction before the call holds none during the hash."""
    try:
        name = checked_name(name)
    except BadName as error:
        raise AccountError(str(error)) from error
    password_hash = hashed(password)
    key = name_key(name)
    taken = [other for other in session.scalars(select(User.name)) if name_key(other) == key]
    if taken:
        raise AccountError(f"a user named {taken[0]!r} exists already" + ("" if taken[0] == name else
                           f", and {name!r} differs from it only in case or look-alike letters"))
    user = User(name=name, role=checked_role(role), password_hash=password_hash, disabled=False)
    session.add(user)
    session.flush()
    return user


def set_role(session: Session, name: str, role: str) -> User:
    user = existing(session, name)
    if checked_role(role) != ADMIN:
        _keep_an_admin(session, user)
    user.role = role
    return user


def _keep_an_admin(session: Session, user: User) -> None:
    """Refuse a change that would leave no enabled admin (nobody could manage users in the browser)."""
    admins = session.scalars(select(User.id).where(User.role == ADMIN, User.disabled.is_(False))).all()
    if admins == [user.id]:
        raise AccountError(f"{user.name} is the last enabled admin: make another admin first")


def set_disabled(session: Session, name: str, disabled: bool) -> int:
    """Disable (or enable again) a user: a disabled user's logins and API tokens end at once, and their
    assignments are removed, so the places they held under overlap are free for others (all deleted, so
    enabling the user again revives none of them: assign pages anew). Returns the assignments removed."""
    user = existing(session, name)
    freed = 0
    if disabled:
        _keep_an_admin(session, user)
        end_sessions(session, user, keep_tokens=False)
        freed = rows_matched(session.execute(delete(Assignment).where(Assignment.author == user.name)))
    user.disabled = disabled
    return freed


def set_password(session: Session, name: str, password: str, keep_tokens: bool = False) -> User:
    """A new password: every login of the user ends, and their API tokens unless `keep_tokens`. Hashed
    before the session is used (as in `add_user`)."""
    password_hash = hashed(password)
    user = existing(session, name)
    replace_password(session, user, password_hash, keep_tokens)
    return user


def replace_password(session: Session, user: User, password_hash: str, keep_tokens: bool = False) -> dict[str, int]:
    """Store a new hash (made beforehand, with no transaction open) and end the user's sessions, and their
    tokens unless `keep_tokens`; returns how many ended."""
    user.password_hash = password_hash
    return end_sessions(session, user, keep_tokens)
