"""The security baseline: CSRF tokens, a nonce-based CSP and the protective headers on every response.

CSRF: one random token per session; every POST/PUT/PATCH/DELETE must carry it, forms in the hidden field
``csrf_token``, JSON requests in the ``X-CSRF-Token`` header. Missing or wrong -> 400. A request
authenticated by a bearer token alone needs none (webapp/web/access.py sets ``g.csrf_exempt``): no cookie
is involved, and a browser cannot send another site's Authorization header.
CSP: the app's own pages allow scripts only from the app with the request's nonce (no inline scripts);
a view that sets its own Content-Security-Policy (the raw page route) keeps it.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, Response, abort, current_app, g, jsonify, render_template_string, request, session
from werkzeug.exceptions import RequestEntityTooLarge

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

# The raw route's policy (DESIGN.md, "Settings that keep data safe"): nothing of the saved page runs or loads.
RAW_PAGE_CSP = (
    "sandbox allow-same-origin; default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
    "font-src data:; form-action 'none'; base-uri 'none'; frame-src 'none'"
)


def app_csp(nonce: str) -> str:
    """The policy of the app's own pages: scripts from the app carrying the nonce, nothing remote."""
    return (
        f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; "
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"
    )


def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    token = session.get(CSRF_FIELD)
    if token is None:
        token = session[CSRF_FIELD] = secrets.token_urlsafe(32)
    return token


def csp_nonce() -> str:
    """This request's script nonce."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return g.csp_nonce


def check_csrf() -> None:
    """Abort with 400 unless a state-changing request carries the session's token."""
    if request.method in SAFE_METHODS or g.get("csrf_exempt"):
        return
    expected = session.get(CSRF_FIELD)
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    if not expected or not sent or not hmac.compare_digest(expected, sent):
        abort(400, description="Missing or wrong CSRF token: reload the page and try again.")


def secure_headers(response: Response) -> Response:
    """CSP (unless the view set its own), frame, sniffing and referrer headers on every response."""
    response.headers.setdefault("Content-Security-Policy", app_csp(csp_nonce()))
    response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def byte_size(count: int) -> str:
    """A byte count as people read it: 512 MB, 20 KB, 900 bytes."""
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count} bytes"


TOO_LARGE_PAGE = """{% extends "base.html" %}{% block title %}Too large{% endblock %}
{% block main %}<h1>Request too large</h1><p class="notice error">{{ message }}</p>{% endblock %}"""


def too_large(error: RequestEntityTooLarge) -> tuple[Response | str, int]:
    """413 naming the limit (the MAX_CONTENT_LENGTH setting): JSON for the API, a page otherwise."""
    limit = request.max_content_length  # MAX_CONTENT_LENGTH, or a route's own smaller limit
    message = "The request is larger than this server accepts"
    if limit:
        own = limit != current_app.config.get("MAX_CONTENT_LENGTH")
        setting = "the limit of this route" if own else "the MAX_CONTENT_LENGTH setting"
        message += f": the limit is {byte_size(limit)} ({limit} bytes, {setting})"
    message += ". Send a smaller file, or split it."
    if request.path.startswith("/api/") or request.is_json:
        return jsonify(error=error.name, message=message, limit=limit), 413
    return render_template_string(TOO_LARGE_PAGE, message=message), 413


def init_security(app: Flask) -> None:
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.before_request(check_csrf)
    app.after_request(secure_headers)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.jinja_env.globals.update(csrf_token=csrf_token, csp_nonce=csp_nonce)
