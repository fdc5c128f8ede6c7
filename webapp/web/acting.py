"""Who acts in a request: the annotator's name (the logged-in user's, the API token's, or in local mode the name
typed once), their role, and the actor a use case is given (whose `Actor.record` audits what it changes)."""

from __future__ import annotations

from flask import request, session

from ..usecases.outcome import Actor
from .access import identity

ANNOTATOR = "annotator"
LOCAL_ACTOR = "local"  # the actor of a change made in local mode before a name was given


def annotator() -> str | None:
    """The current annotator's name: the logged-in user's (or the API token's), or in local mode (no
    accounts) the name typed once and kept in the session; None when there is none."""
    who = identity()
    if who.user is not None:
        return who.user.name
    return session.get(ANNOTATOR) if who.local else None


def current_role() -> str | None:
    """The current user's role (webapp/accounts/roles.py); in local mode "admin": everyone may do
    everything, as before accounts. Compare with roles.at_least(current_role(), REVIEWER)."""
    return identity().role


def actor(name: str | None = None) -> Actor:
    """Who acts in this request, for a use case (whose `Actor.record` audits what it changes): ``name``
    (the annotator, checked by the view) or the audit log's actor, their role and address."""
    return Actor(name or annotator() or LOCAL_ACTOR, current_role() or "", request.remote_addr)
