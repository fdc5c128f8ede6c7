"""Who a command runs as: cli:LOGIN, the operating system's user, recorded on what the command changes
and in the audit log (with the address "cli")."""

from __future__ import annotations

import getpass
import os
from typing import Any

from sqlalchemy.orm import Session

from ..accounts import audit_log
from ..models import AuditEvent

ADDRESS = "cli"


def cli_actor() -> str:
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = str(os.getuid())
    return f"cli:{login}"


def cli_record(session: Session, action: str, target: str = "", detail: Any = None) -> AuditEvent:
    """Append an event of this command to the audit log (committed with the command's change)."""
    return audit_log.record(session, cli_actor(), action, target, detail, ADDRESS)
