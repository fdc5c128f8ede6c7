"""Browser logins and API tokens: a random secret handed out once, stored only as its SHA-256, and
read back on every request together with its user (a disabled user's credentials stop at once)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from ..foundation.rows_matched import rows_matched
from ..models import Credential, User, utcnow

LOGIN = "session"
TOKEN = "token"
TOKEN_PREFIX = "gt_"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def issue(session: Session, user: User, kind: str, lifetime: timedelta | None = None) -> str:
    """A new credential of the user (not committed); returns its secret, which is stored nowhere."""
    secret = (TOKEN_PREFIX if kind == TOKEN else "") + secrets.token_urlsafe(32)
    expires = utcnow() + lifetime if lifetime is not None else None
    session.add(Credential(user_id=user.id, kind=kind, digest=digest(secret), expires_at=expires))
    if kind == LOGIN:
        session.execute(delete(Credential).where(Credential.user_id == user.id, Credential.kind == LOGIN,
                                                 Credential.expires_at < utcnow()))
    session.flush()
    return secret


def holder(session: Session, secret: str, kind: str, now: datetime | None = None) -> User | None:
    """The enabled user whose unexpired credential of this kind the secret is, else None."""
    now = now or utcnow()
    return session.scalars(
        select(User).join(Credential, Credential.user_id == User.id)
        .where(Credential.digest == digest(secret), Credential.kind == kind, User.disabled.is_(False),
               or_(Credential.expires_at.is_(None), Credential.expires_at > now))
    ).one_or_none()


def revoke(session: Session, secret: str) -> None:
    """Forget one credential (a logout)."""
    session.execute(delete(Credential).where(Credential.digest == digest(secret)))


def revoke_tokens(session: Session, user: User) -> int:
    """Forget every API token of the user; returns how many there were."""
    result = session.execute(delete(Credential).where(Credential.user_id == user.id, Credential.kind == TOKEN))
    return rows_matched(result)


def end_sessions(session: Session, user: User, keep_tokens: bool = False) -> dict[str, int]:
    """Log the user out everywhere: every browser login ends, and every API token unless `keep_tokens`;
    returns how many of each ended."""
    kinds = [LOGIN] if keep_tokens else [LOGIN, TOKEN]
    ended = {kind: 0 for kind in kinds}
    for kind in session.scalars(select(Credential.kind).where(Credential.user_id == user.id,
                                                               Credential.kind.in_(kinds))):
        ended[kind] += 1
    session.execute(delete(Credential).where(Credential.user_id == user.id, Credential.kind.in_(kinds)))
    return ended


def token_counts(session: Session) -> dict[int, int]:
    """user id -> API tokens held."""
    counts: dict[int, int] = {}
    for user_id in session.scalars(select(Credential.user_id).where(Credential.kind == TOKEN)):
        counts[user_id] = counts.get(user_id, 0) + 1
    return counts

