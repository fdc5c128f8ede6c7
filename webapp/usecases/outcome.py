"""What every use case answers when the rules say no, and who is acting."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..accounts import audit_log
from ..models import AuditEvent


class Refused(Exception):
    """An action the rules do not allow, or a request they cannot take: nothing was stored. ``status`` is
    the HTTP status every face answers with (400 a bad request, 403 not yours to do, 404 no such thing,
    409 not in a state to do it, 413 too large, 423 locked by the workflow); ``reason`` says why, naming
    the item."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(frozen=True)
class Actor:
    """Who acts: the name revisions and the audit log record, their role (accounts/roles.py; "admin" in
    local mode and on the command line), and their address ("cli" for a command)."""

    name: str
    role: str
    address: str | None = None

    def record(self, session: Session, action: str, target: str, detail: Any = None) -> AuditEvent:
        """Append the event to the audit log, in the action's transaction."""
        return audit_log.record(session, self.name, action, target, detail, self.address)
