"""One's own account: log out, change one's password, log out everywhere. The account page and the
**Log out** button (views/accounts.py) call these, from a browser login (an API token changes neither
password nor sessions: the face refuses it, 400). Logging in is accounts/login.py's three steps, which
audit themselves: nobody is known until they end.

The rules: anyone logged in changes their own account, nobody else's (the user is the actor's own); the
current password is checked by the face with no transaction open (accounts/login.py `verify`, under the
login throttle), and its outcome is recorded here: a wrong one as `login.failed`, a right one replaces the
password, ends every other session (and the API tokens unless kept) and gives this browser a new login,
audited as `user.password`. The face commits."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from ..accounts import throttle
from ..accounts.audit_actions import Action
from ..accounts.credentials import LOGIN, end_sessions, issue, revoke
from ..accounts.login import target_of
from ..accounts.roles import ANNOTATOR
from ..accounts.users import replace_password
from ..models import User
from .outcome import Actor, Refused, needs

ONLY_OWN = "Only a logged-in user changes their own account."


def _own(actor: Actor, user: User) -> None:
    if user.name != actor.name:
        raise Refused(403, f"{actor.name} may not change {user.name}'s account: only their own.")


@needs(ANNOTATOR, ONLY_OWN)
def wrong_current_password(session: Session, actor: Actor, user: User) -> None:
    """Record a password change refused for a wrong current password (a failed login of the user)."""
    _own(actor, user)
    actor.record(session, Action.LOGIN_FAILED, target_of(user.name), {"reason": "wrong current password"})


@needs(ANNOTATOR, ONLY_OWN)
def change_own_password(session: Session, actor: Actor, user: User, new_hash: str, *, keep_tokens: bool,
                        lifetime: timedelta, device: str | None) -> str:
    """Store the new password's hash (made with no transaction open), once the current one was right: the
    throttle forgets the failures, every session ends (and the tokens unless ``keep_tokens``); returns the
    secret of this browser's new login, valid for ``lifetime``."""
    _own(actor, user)
    throttle.succeeded(session, user.name, actor.address or "", device)
    ended = replace_password(session, user, new_hash, keep_tokens=keep_tokens)
    secret = issue(session, user, LOGIN, lifetime)
    actor.record(session, Action.USER_PASSWORD, target_of(user.name), {"by": "self", "ended": ended})
    return secret


@needs(ANNOTATOR, ONLY_OWN)
def log_out_everywhere(session: Session, actor: Actor, user: User, keep_tokens: bool) -> dict[str, int]:
    """End every session of the user, this one too, and their API tokens unless ``keep_tokens``."""
    _own(actor, user)
    ended = end_sessions(session, user, keep_tokens=keep_tokens)
    actor.record(session, Action.USER_LOGOUT_ALL, target_of(user.name), {"by": "self", "ended": ended})
    return ended


@needs(ANNOTATOR, ONLY_OWN)
def log_out(session: Session, actor: Actor, user: User, secret: str) -> None:
    """End this browser's login (its ``secret``)."""
    _own(actor, user)
    revoke(session, secret)
    actor.record(session, Action.LOGOUT, target_of(user.name))
