"""What every use case answers when the rules say no, who is acting, and the role each action needs."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from sqlalchemy.orm import Session

from ..accounts import audit_log
from ..accounts.audit_actions import Action
from ..accounts.roles import ROLES, at_least
from ..models import AuditEvent

P = ParamSpec("P")
R = TypeVar("R")


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

    def record(self, session: Session, action: Action, target: str, detail: Any = None) -> AuditEvent:
        """Append the event to the audit log, in the action's transaction: the one way a face or a use
        case audits."""
        return audit_log.record(session, self.name, action, target, detail, self.address)


ROLE_ATTRIBUTE = "needed_role"


def needs(role: str, refusal: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A use case's role, stated at its definition and checked at each call: the call's ``actor`` below
    ``role`` is Refused(403, refusal) before anything is read. A use case whose rules look further (one's
    own work or another's) checks the rest itself. `role_of` reads it back (the test that every route's
    access rule equals its use case's)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)
        if "actor" not in signature.parameters:
            raise TypeError(f"{func.__qualname__} takes no actor: its role cannot be checked")

        @functools.wraps(func)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            actor = signature.bind_partial(*args, **kwargs).arguments["actor"]
            if not at_least(actor.role, role):
                raise Refused(403, refusal)
            return func(*args, **kwargs)

        setattr(checked, ROLE_ATTRIBUTE, role)
        return checked

    return wrap


def reads(role: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """The role a figure's use case needs to be read: stated here, checked by the face's access rule (a
    figure changes nothing, and the command line is an admin's)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        setattr(func, ROLE_ATTRIBUTE, role)
        return func

    return wrap


def role_of(use_case: Callable[..., Any]) -> str | None:
    """The role a use case states (`needs`, `reads`), None when it states none."""
    return getattr(use_case, ROLE_ATTRIBUTE, None)

