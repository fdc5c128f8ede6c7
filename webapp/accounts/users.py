"""Users: adding them, their role, password and whether they may log in. Passwords are hashed with
Argon2id (argon2-cffi); a user is disabled, never deleted, so every name recorded anywhere stays theirs."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import User
from .roles import ADMIN, ROLES

NAME_MAX = 100
PASSWORD_MIN = 8

HASHER = PasswordHasher()
# checked against when the name is unknown, so that a wrong name takes as long as a wrong password
_UNKNOWN = HASHER.hash("no such user")


class AccountError(ValueError):
    """A change that cannot be made; the message says why."""


def accounts_exist(session: Session) -> bool:
    """Whether any account exists: from the first one on, everyone logs in (no local mode)."""
    return session.scalar(select(User.id).limit(1)) is not None


def user_named(session: Session, name: str) -> User | None:
    return session.scalars(select(User).where(User.name == name)).one_or_none()


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


def hashed(password: str) -> str:
    if len(password) < PASSWORD_MIN:
        raise AccountError(f"a password needs at least {PASSWORD_MIN} characters")
    return HASHER.hash(password)


def add_user(session: Session, name: str, role: str, password: str) -> User:
    """A new enabled user (not committed). Names are single-spaced, 1 to NAME_MAX characters, unique."""
    name = " ".join(name.split())
    if not 0 < len(name) <= NAME_MAX:
        raise AccountError(f"a name has 1 to {NAME_MAX} characters")
    if user_named(session, name) is not None:
        raise AccountError(f"a user named {name!r} exists already")
    user = User(name=name, role=checked_role(role), password_hash=hashed(password), disabled=False)
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


def set_disabled(session: Session, name: str, disabled: bool) -> User:
    """Disable (or enable again) a user: a disabled user's logins and tokens stop working at their next
    request, since every request reads the user's row."""
    user = existing(session, name)
    if disabled:
        _keep_an_admin(session, user)
    user.disabled = disabled
    return user


def set_password(session: Session, name: str, password: str) -> User:
    user = existing(session, name)
    user.password_hash = hashed(password)
    return user


def check_password(session: Session, name: str, password: str) -> User | None:
    """The enabled user with this name and password, else None (in about the same time either way)."""
    user = user_named(session, name)
    try:
        HASHER.verify(user.password_hash if user is not None else _UNKNOWN, password)
    except (VerificationError, InvalidHashError):
        return None
    if user is None or user.disabled:
        return None
    if HASHER.check_needs_rehash(user.password_hash):
        user.password_hash = HASHER.hash(password)
    return user
