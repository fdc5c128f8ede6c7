"""Error pages: an HTTP error outside the API (a mistyped address, a method a route does not take, a
malformed form) answers with the app's own page, naming the status and what to do, with the navigation
bar; under /api/ (and for token requests) it answers JSON. A body over its route's limit (413) names the
limit and the setting that sets it (web/bad_input.body_limit); the access refusals have their own answers
(access.refuse).

An outage (the database or the broker out of reach, SQLite's write lock not granted within its busy
timeout) answers 503 with Retry-After on every route, a page or JSON naming what is down, and is rendered
without touching the database: whether to answer JSON is read from the request alone (`outage_wants_json`),
and the page (`outage.html`) has no navigation bar, which would ask who is logged in."""

from __future__ import annotations

from flask import Flask, g, make_response, render_template, request
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wrappers import Response

from ..jobs.outages import brief, is_outage, part_of
from .access import wants_json
from .bad_input import body_limit
from .json_error import json_error


def byte_size(count: int) -> str:
    """A byte count as people read it: 512 MB, 20 KB, 900 bytes."""
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count} bytes"


RETRY_AFTER_SECONDS = 5
OUTAGE_ERRORS = (DBAPIError, RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError)


def error_page(error: HTTPException) -> Response | tuple[Response | str, int]:
    """The error's page or JSON; who asks is read from the database (the navigation bar): during an
    outage the answer is the outage's."""
    status = error.code or 500
    try:
        if wants_json():
            return json_error(status, error.description or error.name), status
        return render_template("error.html", error=error, status=status), status
    except OUTAGE_ERRORS as outage:
        return unavailable(outage)


def too_large(error: RequestEntityTooLarge) -> Response | tuple[Response | str, int]:
    try:
        return _too_large(error)
    except OUTAGE_ERRORS as outage:
        return unavailable(outage)


def _too_large(error: RequestEntityTooLarge) -> tuple[Response | str, int]:
    """413 naming this route's limit and what sets it: JSON for the API, a page otherwise."""
    limit, source = body_limit(request.endpoint)
    message = "The request is larger than this server accepts here"
    if limit:
        message += f": the limit is {byte_size(limit)} ({limit} bytes, {source})"
    message += ". Send less: a smaller text or file, or split it."
    if wants_json() or request.is_json:
        return json_error(413, message, limit=limit), 413
    error.description = message
    return render_template("error.html", error=error, status=413), 413


def outage_wants_json() -> bool:
    """wants_json() read from the request alone: the API's paths, and a bearer token (valid or not)."""
    known = g.get("identity")
    if known is not None:
        return request.path.startswith("/api/") or known.via in ("token", "bad-token")
    scheme = request.headers.get("Authorization", "").partition(" ")[0]
    return request.path.startswith("/api/") or scheme.lower() == "bearer"


def outage_message(error: BaseException) -> str:
    part = part_of(error)
    if part == "database":
        return (f"The database is busy or unreachable ({brief(error)}), so nothing was changed. Try again in "
                f"{RETRY_AFTER_SECONDS} seconds.")
    return (f"The job broker is unreachable ({brief(error)}): what was saved stays saved, and a job waits "
            f"until the broker answers. Try again in {RETRY_AFTER_SECONDS} seconds.")


def unavailable(error: Exception) -> Response:
    """An outage (the database or the broker out of reach, a lock not granted in time): 503 with
    Retry-After, never a 500, and never another query to render it. The request's transaction was rolled
    back; a save sent again with its client save id is applied once. Any other error is raised on."""
    if not is_outage(error):
        raise error
    message = outage_message(error)
    if outage_wants_json():
        response = json_error(503, message, down=part_of(error))
    else:
        response = make_response(render_template("outage.html", part=part_of(error), message=message))
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_error_pages(app: Flask) -> None:
    app.register_error_handler(HTTPException, error_page)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    for kind in OUTAGE_ERRORS:
        app.register_error_handler(kind, unavailable)
