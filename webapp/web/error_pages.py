"""Error pages: an HTTP error outside the API (a mistyped address, a method a route does not take, a
malformed form) answers with the app's own page, naming the status and what to do, with the navigation
bar; under /api/ (and for token requests) it answers JSON. The 413 and the access refusals have their
own, more specific answers (security.too_large, access.refuse)."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template
from werkzeug.exceptions import HTTPException

from .access import wants_json


def error_page(error: HTTPException) -> tuple[Response | str, int]:
    status = error.code or 500
    if wants_json():
        return jsonify(error=error.name, message=error.description), status
    return render_template("error.html", error=error, status=status), status


def init_error_pages(app: Flask) -> None:
    app.register_error_handler(HTTPException, error_page)
