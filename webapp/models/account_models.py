"""Users, their credentials, the login throttle and the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .model_base import Base, utcnow


class User(Base):
    """An account. Its name is what revisions, jobs, imports, rule changes and the audit log record (the
    same strings that typed names were before accounts: a name is never renamed, and an account is
    disabled, never deleted). `role`: annotator, reviewer or admin (webapp/accounts/roles.py)."""

    __tablename__ = "user"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(16))
    password_hash: Mapped[str] = mapped_column(String(255))
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Credential(Base):
    """A secret that stands for a user: a browser login (`kind` "session", with an expiry) or an API token
    ("token"). Only the secret's SHA-256 is stored; logging out deletes the row."""

    __tablename__ = "credential"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    user: Mapped[User] = relationship()


class LoginThrottle(Base):
    """The login throttle's count for one user name (`key` "name:" and the name's key) or one client address
    ("address:" and the address): failures in a row, the last one's time, and when the next attempt may
    check a password (webapp/accounts/throttle.py)."""

    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failure_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    not_before: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AuditEvent(Base):
    """One state change: who (`actor`, a user's name, or cli:LOGIN for the command line), when, what
    (`action`, its `target` and `detail`) and from where (`address`). Append-only: the database refuses
    to update or delete a row (triggers of migrations 0007 and 0011); tamper-evident: each event is
    chained to the one before it by its hash (accounts/audit_log.py)."""

    __tablename__ = "audit_event"
    __table_args__ = (Index("ix_audit_event_action_at", "action", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    actor: Mapped[str] = mapped_column(String(100), index=True)
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(255), default="")
    detail: Mapped[Any] = mapped_column(JSON(none_as_null=True), nullable=True)
    address: Mapped[str] = mapped_column(String(64), default="")
    prev_digest: Mapped[str | None] = mapped_column(String(64))
    digest: Mapped[str | None] = mapped_column(String(64))
    """SHA-256 of `prev_digest` and the event's fields: the hash chain `goldtext audit verify` checks."""
