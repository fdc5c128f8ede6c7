"""The admins' account administration: add a user, change a role, disable or enable, set a password, hand
out an API token, revoke a user's tokens, log a user out everywhere, clear a user's login wait. The users
page (views/accounts.py) and `goldtext users` (cli/users_commands.py) call these, and only these.

The rules: only an admin administers accounts (403); the user is named exactly (404 naming them; a login
wait is cleared for any name); the change is one the accounts allow (400 with the reason: a taken or bad
name, an unknown role, a weak password, the last enabled admin demoted or disabled). Each change is
audited as `user.*` with the user as its target. Passwords are hashed before the session is used
(accounts/users.py), so a face that opens no transaction before the call holds none during the hash. The
face commits."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.orm import Session

from ..accounts import throttle
from ..accounts.audit_actions import Action
from ..accounts.credentials import TOKEN, end_sessions, issue, revoke_tokens
from ..accounts.roles import ADMIN
from ..accounts.users import AccountError, add_user, existing, set_disabled, set_password, set_role
from ..models import User
from .outcome import Actor, Refused, needs

T = TypeVar("T")
ONLY_ADMINS = "Only an admin administers accounts."


def target(name: str) -> str:
    """The audit log's target of a change of the user."""
    return f"user {name}"


def _allowed(change: Callable[[], T]) -> T:
    """The change, or Refused: 404 for a user not found, 400 for what the accounts refuse."""
    try:
        return change()
    except AccountError as error:
        raise Refused(404 if str(error).startswith("no user named") else 400, str(error)) from None


def _user(session: Session, name: str) -> User:
    return _allowed(lambda: existing(session, name))


@needs(ADMIN, ONLY_ADMINS)
def add_account(session: Session, actor: Actor, name: str, role: str, password: str) -> User:
    """The new enabled user. The first account switches login on."""
    user = _allowed(lambda: add_user(session, name, role, password))
    actor.record(session, Action.USER_ADD, target(user.name), {"role": user.role})
    return user


@needs(ADMIN, ONLY_ADMINS)
def change_role(session: Session, actor: Actor, name: str, role: str) -> User:
    """The user with the new role (at once, even in a session already open)."""
    user = _allowed(lambda: set_role(session, name, role))
    actor.record(session, Action.USER_ROLE, target(user.name), {"role": user.role})
    return user


@needs(ADMIN, ONLY_ADMINS)
def disable_account(session: Session, actor: Actor, name: str) -> int:
    """Disable the user: their sessions and tokens end, their assignments go (their places are free);
    returns how many assignments went."""
    freed = _allowed(lambda: set_disabled(session, name, True))
    actor.record(session, Action.USER_DISABLE, target(name), {"assignments_removed": freed})
    return freed


@needs(ADMIN, ONLY_ADMINS)
def enable_account(session: Session, actor: Actor, name: str) -> None:
    """Enable the user again (their removed assignments stay removed)."""
    _allowed(lambda: set_disabled(session, name, False))
    actor.record(session, Action.USER_ENABLE, target(name))


@needs(ADMIN, ONLY_ADMINS)
def reset_password(session: Session, actor: Actor, name: str, password: str, keep_tokens: bool) -> User:
    """A new password of the user: their sessions end, and their API tokens unless ``keep_tokens``."""
    user = _allowed(lambda: set_password(session, name, password, keep_tokens))
    actor.record(session, Action.USER_PASSWORD, target(user.name), {"tokens_kept": keep_tokens})
    return user


@needs(ADMIN, ONLY_ADMINS)
def new_token(session: Session, actor: Actor, name: str) -> str:
    """A new API token of the user, to be shown once (only its hash is kept)."""
    secret = issue(session, _user(session, name), TOKEN)
    actor.record(session, Action.USER_TOKEN, target(name))
    return secret


@needs(ADMIN, ONLY_ADMINS)
def revoke_user_tokens(session: Session, actor: Actor, name: str) -> int:
    """Forget every API token of the user; returns how many there were."""
    count = revoke_tokens(session, _user(session, name))
    actor.record(session, Action.USER_REVOKE_TOKENS, target(name), {"tokens": count})
    return count


@needs(ADMIN, ONLY_ADMINS)
def log_user_out(session: Session, actor: Actor, name: str, keep_tokens: bool = False) -> dict[str, int]:
    """End every session of the user, and every API token unless ``keep_tokens``; how many of each ended."""
    ended = end_sessions(session, _user(session, name), keep_tokens)
    actor.record(session, Action.USER_LOGOUT_ALL, target(name), {"ended": ended})
    return ended


@needs(ADMIN, ONLY_ADMINS)
def unlock_account(session: Session, actor: Actor, name: str) -> bool:
    """Clear the login throttle's wait for the user's name (the per-address count stays); whether there
    was one. A name no user has may be waiting too (failed logins under it): it is cleared alike."""
    cleared = throttle.clear(session, name)
    actor.record(session, Action.USER_UNLOCK, target(name), {"cleared": cleared})
    return cleared
