"""What several views share: who is annotating, their role, the actor a use case is given (which audits
what it changes), the app's settings object (and its overlap), and the page filter in the query string."""

from __future__ import annotations

from typing import Any, NoReturn
from urllib.parse import unquote, urlsplit

from flask import abort, current_app, request, session
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from ..accounts.roles import REVIEWER, at_least
from ..annotation.boilerplate import BoilerplateCache
from ..jobs.start import dispatch
from ..models import Job
from ..usecases.outcome import Actor, Refused
from ..web.access import identity
from ..web.app_settings import settings

ANNOTATOR = "annotator"
LOCAL_ACTOR = "local"  # the actor of a change made in local mode before a name was given
FILTER_ARGS = ("site", "status", "type", "batch", "author", "annotated", "verdict", "q", "check", "order")


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


BOILERPLATE = "goldtext.boilerplate"


def boilerplate_cache() -> BoilerplateCache:
    """The process's cache of each site's repeated lines (annotation/boilerplate.py), which opening a page
    reads (usecases/open_page.py)."""
    cache: BoilerplateCache = current_app.extensions.setdefault(BOILERPLATE, BoilerplateCache())
    return cache


def idle_seconds() -> float:
    """EFFORT_IDLE_SECONDS (at least 1): the longest pause the effort counter of the annotate and
    adjudication views still counts as active time (static/js/effort.js)."""
    return settings().serving.effort_idle_seconds


def effort_scope() -> str | None:
    """Whose effort this request may see (the Effort page and /api/effort): None for everyone's
    (reviewers and admins; ``?annotator=NAME`` narrows it to one), else the annotator's own; 403 for an
    annotator asking for another's."""
    asked = request.args.get("annotator") or None
    if at_least(current_role(), REVIEWER):
        return asked
    own = annotator()
    if own is None or (asked is not None and asked != own):
        abort(403, description="An annotator sees their own effort only.")
    return own


def actor(name: str | None = None) -> Actor:
    """Who acts in this request, for a use case (whose `Actor.record` audits what it changes): ``name``
    (the annotator, checked by the view) or the audit log's actor, their role and address."""
    return Actor(name or annotator() or LOCAL_ACTOR, current_role() or "", request.remote_addr)


class TextTooLarge(HTTPException):
    """A gold or annotation text over GOLD_MAX_BYTES: 413 with the use case's reason (not the request-size
    answer of MAX_CONTENT_LENGTH, web/security.py)."""

    code = 413


def refuse(error: Refused) -> NoReturn:
    """Answer a use case's refusal: its status and reason (the API's error handler makes it JSON)."""
    if error.status == 413:
        raise TextTooLarge(description=error.reason)
    abort(error.status, description=error.reason)


def overlap() -> int:
    """How many annotators annotate each page independently (the OVERLAP setting, at least 1)."""
    return settings().overlap


def filter_args(args: MultiDict[str, str]) -> dict[str, str]:
    """The queue's filter arguments and its order present in ``args`` (one value each, as its form sets them), to
    carry along in links."""
    return {name: args[name] for name in FILTER_ARGS if args.get(name)}


def local_target(target: str | None) -> str | None:
    """Only a path on this site may be a redirect target, anything else is None (the caller goes home).

    The target starts with one "/" and holds no backslash, whitespace or control character (browsers
    drop tabs and newlines, so a slash, a tab and a slash would mean "//", another host); nor does its
    path once percent-decoded."""
    if not target or unsafe_target(target):
        return None
    path = unquote(target.split("?", 1)[0].split("#", 1)[0])
    if unsafe_target(path):
        return None
    parts = urlsplit(target)
    return None if parts.scheme or parts.netloc else target


def unsafe_target(text: str) -> bool:
    return (not text.startswith("/") or text[1:2] == "/" or "\\" in text
            or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text))


def follow(db_session: Any, job: Job | None) -> None:
    """After the commit of a change of gold: send the check job it queued, if any, to the workers
    (jobs/follow_checks.py; it reaches them CHECK_DELAY_SECONDS later)."""
    if job is not None:
        dispatch(current_app, db_session, job)
