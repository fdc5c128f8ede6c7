"""Who is asking, and whether they may: the one check that every request passes before its view.

Every endpoint of the URL map has a line in ACCESS naming the lowest role that may use it (or PUBLIC);
an endpoint missing from it is refused to everyone (403), and tests/test_access.py fails naming it, so a
route added later cannot be left open by forgetting it.

Who is asking (`identity()`), read once per request:
- `Authorization: Bearer TOKEN`: the token's user, and nothing else (the session cookie is ignored, so
  the request needs no CSRF token: no cookie is involved); a wrong, revoked or disabled token -> 401;
- else the session's login: the user of an unexpired login credential (webapp/accounts/credentials.py);
- else, while no account exists, local mode: everyone may do everything, as before accounts, with a name
  typed once (`annotate.name`), but only on a request that reached the server on a loopback address and
  did not come through a proxy; any other request is refused with how to create an account;
- else nobody: pages redirect to the login form, the API answers 401.
Every request reads the user's row, so a disabled user or a changed role takes effect at once.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from flask import Flask, g, jsonify, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from ..accounts.credentials import LOGIN, TOKEN, holder
from ..accounts.roles import ADMIN, ANNOTATOR, REVIEWER, at_least
from ..accounts.users import accounts_exist
from ..db import get_session
from ..models import User

PUBLIC = "public"
LOGIN_KEY = "login"  # the session's login secret
PROXY_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP")
CREATE_ACCOUNT = "goldtext users add NAME --role admin"

ACCESS: dict[str, str] = {
    "static": PUBLIC,
    "jobs.health": PUBLIC,
    "accounts.login": PUBLIC,
    "accounts.logout": ANNOTATOR,
    "queue.index": ANNOTATOR,
    "queue.go": ANNOTATOR,
    "annotate.page": ANNOTATOR,
    "annotate.history": ANNOTATOR,
    "annotate.restore": ANNOTATOR,
    "annotate.name": ANNOTATOR,
    "pages.raw": ANNOTATOR,
    "pages.source": ANNOTATOR,
    "api.read_gold": ANNOTATOR,
    "api.write_gold": ANNOTATOR,
    "api.page_scores_json": ANNOTATOR,
    "api.leaderboard_json": ANNOTATOR,
    "api.leaderboard_pages_json": ANNOTATOR,
    "api.sites_json": ANNOTATOR,
    "api.compare_json": ANNOTATOR,
    "api.guard_json": ANNOTATOR,
    "api.site_rules_json": ANNOTATOR,
    "leaderboard.index": ANNOTATOR,
    "leaderboard.table": ANNOTATOR,
    "leaderboard.pages": ANNOTATOR,
    "leaderboard.compare": ANNOTATOR,
    "sites.index": ANNOTATOR,
    "sites.guard": ANNOTATOR,
    "sites.rules": ANNOTATOR,
    "jobs.index": ANNOTATOR,
    "jobs.show": ANNOTATOR,
    "jobs.progress": ANNOTATOR,
    "jobs.cancel": ADMIN,
    "jobs.download": ADMIN,
    "upload.form": ADMIN,
    "upload.receive": ADMIN,
    "upload.report": ADMIN,
    "exports.form": ADMIN,
    "exports.start": ADMIN,
    "accounts.users": ADMIN,
    "accounts.add": ADMIN,
    "accounts.role": ADMIN,
    "accounts.disable": ADMIN,
    "accounts.token": ADMIN,
    "accounts.revoke_tokens_of": ADMIN,
    "audit.index": ADMIN,
    "audit.export": ADMIN,
    "extractors.index": ANNOTATOR,
    "extractors.add": ADMIN,
    "extractors.remove": ADMIN,
    "reviewed.index": ANNOTATOR,
    "adjudication.index": REVIEWER,
    "adjudication.page": REVIEWER,
    "adjudication.save": REVIEWER,
    "agreement.index": REVIEWER,
    "api.agreement_json": REVIEWER,
    "checks.index": REVIEWER,
    "checks.run": REVIEWER,
    "checks.report_json": REVIEWER,
}


@dataclass(frozen=True)
class Identity:
    """The request's user (None in local mode and for nobody), their role, and how they were known:
    "token", "login", "local", "nobody" or "bad-token"."""

    user: User | None
    role: str | None
    via: str

    @property
    def local(self) -> bool:
        return self.via == "local"


LOCAL = Identity(None, ADMIN, "local")
NOBODY = Identity(None, None, "nobody")
BAD_TOKEN = Identity(None, None, "bad-token")


def identity() -> Identity:
    """Who sent this request (read once, then kept for the request)."""
    if "identity" not in g:
        g.identity = _identify()
    return g.identity


def _identify() -> Identity:
    db = get_session()
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        user = holder(db, secret.strip(), TOKEN) if secret.strip() else None
        return Identity(user, user.role, "token") if user is not None else BAD_TOKEN
    login = session.get(LOGIN_KEY)
    if isinstance(login, str):
        user = holder(db, login, LOGIN)
        if user is not None:
            return Identity(user, user.role, "login")
    return NOBODY if accounts_exist(db) else LOCAL


def is_loopback(host: str) -> bool:
    """Whether a host (an address or a name) means this machine only."""
    try:
        address = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        try:
            found = {info[4][0] for info in socket.getaddrinfo(host, None)}
        except OSError:
            return False
        return bool(found) and all(is_loopback(a) for a in found)
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def arrived_locally() -> bool:
    """Whether this request reached the server on a loopback address, not through a proxy: the local end
    of its connection (gunicorn's and Werkzeug's servers say which it is), else the client's address."""
    if any(name in request.headers for name in PROXY_HEADERS):
        return False
    connection = request.environ.get("gunicorn.socket") or request.environ.get("werkzeug.socket")
    if connection is None:
        return is_loopback(request.remote_addr or "")
    try:
        local = connection.getsockname()
    except OSError:
        return False
    return isinstance(local, tuple) and is_loopback(local[0])


def wants_json() -> bool:
    return request.path.startswith("/api/") or identity().via in ("token", "bad-token")


def refuse(status: int, message: str) -> tuple[Response | str, int]:
    if wants_json():
        response = jsonify(error={401: "Unauthorized", 403: "Forbidden"}[status], message=message)
        if status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="goldtext"'
        return response, status
    return render_template("accounts/refused.html", message=message), status


def authorize() -> Response | tuple[Response | str, int] | None:
    """The before-request check: None lets the view run, anything else is the answer."""
    endpoint = request.endpoint
    if endpoint is None:
        return None  # no route: Flask answers 404 or 405
    needed = ACCESS.get(endpoint)
    if needed is None:
        return refuse(403, f"No access rule covers {endpoint}: it is refused to everyone "
                           "(add it to ACCESS in webapp/web/access.py).")
    if needed == PUBLIC:
        return None
    who = identity()
    if who.local:
        if not arrived_locally():
            return refuse(403, "This Goldtext has no accounts yet, so it answers only on this machine's "
                               f"loopback address. Create an account first: {CREATE_ACCOUNT}")
        return None
    if who.via == "bad-token":
        return refuse(401, "The bearer token is wrong, revoked, or its user is disabled.")
    if who.user is None:
        if wants_json():
            return refuse(401, "Log in, or send an API token: Authorization: Bearer TOKEN.")
        return redirect(url_for("accounts.login", next=request.full_path))
    if not at_least(who.role, needed):
        return refuse(403, f"This needs the {needed} role; you are {who.role}.")
    g.csrf_exempt = who.via == "token"
    return None


def init_access(app: Flask) -> None:
    """Register the check before every other before-request function (the CSRF check reads its verdict)."""
    app.before_request(authorize)
    app.jinja_env.globals.update(identity=identity)
