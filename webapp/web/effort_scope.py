"""The effort counter's idle bound and whose effort a request may see (the Effort page and /api/effort)."""

from __future__ import annotations

from flask import abort

from ..accounts.roles import REVIEWER, at_least
from .acting import annotator, current_role
from .app_settings import settings
from .request_input import TEXT, Form, query

EFFORT_QUERY = Form({"annotator": TEXT})
"""Whose effort is asked for (none: everyone's a reviewer may see)."""


def idle_seconds() -> float:
    """EFFORT_IDLE_SECONDS (at least 1): the longest pause the effort counter of the annotate and
    adjudication views still counts as active time (static/js/effort.js)."""
    return settings().serving.effort_idle_seconds


def effort_scope() -> str | None:
    """Whose effort this request may see (the Effort page and /api/effort): None for everyone's
    (reviewers and admins; ``?annotator=NAME`` narrows it to one), else the annotator's own; 403 for an
    annotator asking for another's."""
    asked = query(EFFORT_QUERY)["annotator"]
    if at_least(current_role(), REVIEWER):
        return asked
    own = annotator()
    if own is None or (asked is not None and asked != own):
        abort(403, description="An annotator sees their own effort only.")
    return own
