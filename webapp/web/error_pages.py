"""Error pages: an HTTP error outside the API (a mistyped address, a method a route does not take, a
malformed form) answers with the app's own page, naming the status and what to do, with the navigation
bar; under /api/ (and for token requests) it answers JSON. A body over its route's limit (413) names the
limit and the setting that sets it (web/bad_input.body_limit); the access refusals have their own answers
(access.refuse)."""

from __future__ import annotations

from flask import Flask, make_response, render_template, request
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, ServiceUnavailable
from werkzeug.wrappers import Response

from ..jobs.outages import brief, is_outage
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


def error_page(error: HTTPException) -> tuple[Response | str, int]:
    status = error.code or 500
    if wants_json():
        return json_error(status, error.description or error.name), status
    return render_template("error.html", error=error, status=status), status


def too_large(error: RequestEntityTooLarge) -> tuple[Response | str, int]:
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


def database_unavailable(error: DBAPIError) -> tuple[Response | str, int]:
    """The database could not take the request in time (SQLite's write lock still held after its busy
    timeout, PostgreSQL stopped or unreachable): 503 with Retry-After, never a 500. The request's
    transaction was rolled back; a save sent again with its client save id is applied once."""
    if not is_outage(error):
        raise error
    unavailable = ServiceUnavailable(
        f"The database is busy or unreachable ({brief(error)}), so nothing was changed. Try again in "
        f"{RETRY_AFTER_SECONDS} seconds.")
    response = make_response(error_page(unavailable))
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response, 503


def init_error_pages(app: Flask) -> None:
    app.register_error_handler(HTTPException, error_page)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.register_error_handler(DBAPIError, database_unavailable)
