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
from ..accounts.roles import ADMIN, ROLES, SYSTEM, at_least
from ..accounts.users import accounts_exist, user_named
from ..models import AuditEvent, Job

COMMAND_PREFIX = "cli:"  # a command's actor is cli:LOGIN (cli/actor.py)
COMMAND_ADDRESS = "cli"
SYSTEM_PREFIX = "system:"  # the system actor is system:PURPOSE (no account name holds a colon: accounts/names.py)
LEGACY_FOLLOWER = "checks"
"""Who a follow-up check job queued before the system actor was started by: such a job runs as system:checks."""
SYSTEM_ADDRESS = "system"
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
    local mode and on the command line; "system" for what Goldtext starts of itself), and their address ("cli"
    for a command, "system" for the system)."""

    name: str
    role: str
    address: str | None = None

    @classmethod
    def system(cls, purpose: str) -> Actor:
        """Goldtext itself, acting for ``purpose`` (``system:checks``: the checks that follow a save). Its role
        is no account's, so it is refused by every use case but those that say a system may start them
        (`needs(..., system=True)`); no account can be named like it (a colon), so nobody logs in as it."""
        return cls(f"{SYSTEM_PREFIX}{purpose}", SYSTEM, SYSTEM_ADDRESS)

    @classmethod
    def of_job(cls, session: Session, job_id: int) -> Actor:
        """The user who started the job, as its steps act: a command's starter (cli:LOGIN) an admin from
        "cli"; the system's (system:PURPOSE) the system actor; else the account of that name with its role now
        (none if it is disabled or gone, so that the step's use case refuses), or in local mode (no account) an
        admin, as the starter was. LookupError when the job is gone."""
        job = session.get(Job, job_id)
        if job is None:
            raise LookupError(f"job {job_id} no longer exists")
        if job.started_by.startswith(COMMAND_PREFIX):
            return cls(job.started_by, ADMIN, COMMAND_ADDRESS)
        if job.started_by.startswith(SYSTEM_PREFIX):
            return cls.system(job.started_by.removeprefix(SYSTEM_PREFIX))
        if job.started_by == LEGACY_FOLLOWER and job.kind == "check" and job.params.get("follow"):
            return cls.system(LEGACY_FOLLOWER)  # queued before the system actor, under the bare name
        user = user_named(session, job.started_by)
        if user is not None:
            return cls(user.name, "" if user.disabled else user.role)
        return cls(job.started_by, "" if accounts_exist(session) else ADMIN)

    def record(self, session: Session, action: Action, target: str, detail: Any = None) -> AuditEvent:
        """Append the event to the audit log, in the action's transaction: the one way a face or a use
        case audits."""
        return audit_log.record(session, self.name, action, target, detail, self.address)


ROLE_ATTRIBUTE = "needed_role"
SYSTEM_ATTRIBUTE = "system_may"


def needs(role: str, refusal: str, *, system: bool = False) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A use case's role, stated at its definition and checked at each call: the call's ``actor`` below
    ``role`` is Refused(403, refusal) before anything is read; the system actor (`Actor.system`) is too,
    unless ``system`` says the system may start it. A use case whose rules look further (one's own work or
    another's) checks the rest itself. `role_of` and `system_may` read them back (the tests that every
    route's access rule equals its use case's, and that the system starts only what it may)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)
        if "actor" not in signature.parameters:
            raise TypeError(f"{func.__qualname__} takes no actor: its role cannot be checked")

        @functools.wraps(func)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            actor = signature.bind_partial(*args, **kwargs).arguments["actor"]
            if not (at_least(actor.role, role) or (system and actor.role == SYSTEM)):
                raise Refused(403, refusal)
            return func(*args, **kwargs)

        setattr(checked, ROLE_ATTRIBUTE, role)
        setattr(checked, SYSTEM_ATTRIBUTE, system)
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



def system_may(use_case: Callable[..., Any]) -> bool:
    """Whether the system actor may call this use case (`needs(..., system=True)`)."""
    return bool(getattr(use_case, SYSTEM_ATTRIBUTE, False))
