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

from flask import Flask, Response, abort, g, request, session

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

# The raw route's policy (docs/annotating.md, "The saved page"): nothing of the saved page runs or loads.
RAW_PAGE_CSP = (
    "sandbox allow-same-origin; default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
    "font-src data:; form-action 'none'; base-uri 'none'; frame-src 'none'"
)



def styled_page_csp(requisites: str) -> str:
    """The raw route's policy for a styled snapshot: as RAW_PAGE_CSP, and the page's captured stylesheets,
    fonts and images, from under the absolute URL `requisites` (its requisites route) and nowhere else."""
    return (
        f"sandbox allow-same-origin; default-src 'none'; img-src data: {requisites}; "
        f"style-src 'unsafe-inline' {requisites}; font-src data: {requisites}; form-action 'none'; base-uri 'none'; "
        "frame-src 'none'"
    )

REQUISITE_CSP = "default-src 'none'; sandbox"
"""The policy of a requisite opened by itself (an SVG image): nothing of it runs or loads."""


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
    """Abort with 400 unless a state-changing request carries the session's token (compared as bytes: a
    token with a character beyond ASCII is wrong, not an error)."""
    if request.method in SAFE_METHODS or g.get("csrf_exempt"):
        return
    expected = session.get(CSRF_FIELD)
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    if not expected or not sent or not hmac.compare_digest(expected.encode(), sent.encode(errors="replace")):
        abort(400, description="Missing or wrong CSRF token: reload the page and try again.")


def secure_headers(response: Response) -> Response:
    """CSP (unless the view set its own), frame, sniffing and referrer headers on every response."""
    response.headers.setdefault("Content-Security-Policy", app_csp(csp_nonce()))
    response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def init_security(app: Flask) -> None:
    app.before_request(check_csrf)
    app.after_request(secure_headers)
    app.jinja_env.globals.update(csrf_token=csrf_token, csp_nonce=csp_nonce)
