"""Who a command runs as: cli:LOGIN, the operating system's user, an admin, recorded on what the command
changes and in the audit log (with the address "cli")."""

from __future__ import annotations

import getpass
import os

from ..accounts.roles import ADMIN
from ..usecases.outcome import COMMAND_ADDRESS, COMMAND_PREFIX, Actor


def cli_actor() -> str:
    """The name a command acts under: cli:LOGIN."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = str(os.getuid())
    return f"{COMMAND_PREFIX}{login}"


def command_actor() -> Actor:
    """The actor a command passes to a use case: cli:LOGIN, an admin, from "cli" (`Actor.record` audits
    what it changes)."""
    return Actor(cli_actor(), ADMIN, COMMAND_ADDRESS)
