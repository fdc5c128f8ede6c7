"""Who is asking, and whether they may: the one check that every request passes before its view.

Every endpoint of the URL map has a line in ACCESS naming the lowest role that may use it (or PUBLIC);
an endpoint missing from it is refused to everyone (403), and tests/faces/test_access.py fails naming it, so a
route added later cannot be left open by forgetting it.

Who is asking (`identity()`), read once per request:
- `Authorization: Bearer TOKEN`: the token's user, and nothing else (the session cookie is ignored, so
  the request needs no CSRF token: no cookie is involved); a wrong, revoked or disabled token -> 401;
- else the session's login: the user of an unexpired login credential (webapp/accounts/credentials.py);
- else, while no account exists, local mode: everyone may do everything, as before accounts, with a name
  typed once (`annotate.name`), but only on a request that reached the server on a loopback address, did
  not come through a proxy and names a loopback host in its Host header (`localhost`, `127.0.0.1`, `[::1]`:
  a page of another site that reaches the port through DNS rebinding sends its own name); any other
  request is refused with the reason and how to create an account;
- else nobody: pages redirect to the login form, the API answers 401.
Every request reads the user's row, so a disabled user or a changed role takes effect at once.

Before all of it: with ALLOWED_HOSTS set, a request whose Host is not one of them is refused (400); with
PROXY_HOPS set, the client's address is read from that many proxies' X-Forwarded-For (werkzeug's
ProxyFix), never otherwise. The login and account routes accept small bodies only (ACCOUNT_MAX_BODY).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from dataclasses import dataclass

from flask import Flask, current_app, g, redirect, render_template, request, session, url_for
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.sansio.utils import host_is_trusted
from werkzeug.wrappers import Response

from ..accounts.credentials import LOGIN, TOKEN, holder
from ..accounts.roles import ADMIN, ANNOTATOR, REVIEWER, at_least
from ..accounts.users import accounts_exist
from ..foundation.settings import settings_of
from ..models import User
from .db import get_session
from .json_error import json_error

PUBLIC = "public"
LOGIN_KEY = "login"  # the session's login secret
PROXY_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP")
CREATE_ACCOUNT = "goldtext users add NAME --role admin"
ACCOUNT_MAX_BODY = 64 * 2**10  # bytes of a login or account form: a password has at most 1024
LOOPBACK_NAMES = ("localhost", ".localhost")  # browsers resolve these to loopback themselves
HOST_FREE = {"jobs.health"}  # a load balancer's health check names the machine's address, not ALLOWED_HOSTS

ACCESS: dict[str, str] = {
    "static": PUBLIC,
    "jobs.health": PUBLIC,
    "accounts.login": PUBLIC,
    "accounts.logout": ANNOTATOR,
    "queue.index": ANNOTATOR,
    "queue.go": ANNOTATOR,
    "queue.hand_back": ANNOTATOR,
    "annotate.page": ANNOTATOR,
    "annotate.history": ANNOTATOR,
    "annotate.restore": ANNOTATOR,
    "annotate.name": ANNOTATOR,
    "pages.raw": ANNOTATOR,
    "pages.source": ANNOTATOR,
    "pages.requisite": ANNOTATOR,
    "pages.screenshot": ANNOTATOR,
    "pages.choose_scored": REVIEWER,
    "api.read_gold": ANNOTATOR,
    "api.editor_json": ANNOTATOR,
    "api.write_gold": ANNOTATOR,
    "api.start_extraction_json": ADMIN,
    "api.page_scores_json": ANNOTATOR,
    "api.preview_json": ANNOTATOR,
    "api.page_structure_tests_json": ANNOTATOR,
    "api.leaderboard_json": ANNOTATOR,
    "api.leaderboard_pages_json": ANNOTATOR,
    "api.leaderboard_metadata_json": ANNOTATOR,
    "api.sites_json": ANNOTATOR,
    "api.compare_json": ANNOTATOR,
    "api.guard_json": ANNOTATOR,
    "api.site_rules_json": ANNOTATOR,
    "leaderboard.index": ANNOTATOR,
    "leaderboard.table": ANNOTATOR,
    "leaderboard.metadata": ANNOTATOR,
    "leaderboard.refresh": ANNOTATOR,
    "leaderboard.pages": ANNOTATOR,
    "leaderboard.compare": ANNOTATOR,
    "sites.index": ANNOTATOR,
    "sites.guard": ANNOTATOR,
    "sites.rules": ANNOTATOR,
    "sites.learned": ANNOTATOR,
    "sites.accept_learned": ADMIN,
    "jobs.index": ANNOTATOR,
    "jobs.show": ANNOTATOR,
    "jobs.progress": ANNOTATOR,
    "jobs.cancel": ADMIN,
    "jobs.download": ADMIN,
    "upload.form": ADMIN,
    "upload.receive": ADMIN,
    "upload.report": ADMIN,
    "capture.form": ADMIN,
    "capture.start": ADMIN,
    "capture.report": ADMIN,
    "capture.warc": ADMIN,
    "exports.form": ADMIN,
    "exports.start": ADMIN,
    "accounts.users": ADMIN,
    "accounts.add": ADMIN,
    "accounts.role": ADMIN,
    "accounts.disable": ADMIN,
    "accounts.token": ADMIN,
    "accounts.revoke_tokens_of": ADMIN,
    "accounts.logout_user": ADMIN,
    "accounts.unlock": ADMIN,
    "accounts.account": ANNOTATOR,
    "accounts.change_password": ANNOTATOR,
    "accounts.logout_everywhere": ANNOTATOR,
    "audit.index": ADMIN,
    "audit.export": ADMIN,
    "extractors.index": ANNOTATOR,
    "extractors.add": ADMIN,
    "extractors.remove": ADMIN,
    "extractors.compose": ADMIN,
    "extractors.remove_composition": ADMIN,
    "extractors.pipeline": ADMIN,
    "reviewed.index": ANNOTATOR,
    "adjudication.index": REVIEWER,
    "adjudication.page": REVIEWER,
    "adjudication.save": REVIEWER,
    "adjudication.void": ADMIN,
    "agreement.index": REVIEWER,
    "api.agreement_json": REVIEWER,
    "checks.index": REVIEWER,
    "checks.run": REVIEWER,
    "checks.report_json": REVIEWER,
    "effort.index": ANNOTATOR,
    "api.effort_json": ANNOTATOR,
    "guidelines.index": ANNOTATOR,
    "guidelines.show": ANNOTATOR,
    "guidelines.history": ANNOTATOR,
    "guidelines.edit": ADMIN,
    "guidelines.save": ADMIN,
    "console.index": REVIEWER,
    "console.assign": REVIEWER,
    "console.undo": REVIEWER,
    "console.controls": REVIEWER,
    "console.end": REVIEWER,
    "console.tabs": REVIEWER,
    "console.find_page": REVIEWER,
    "console.page": ANNOTATOR,
    "console.comment": ANNOTATOR,
    "console.changes": REVIEWER,
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
            found = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
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


def host_name(host: str) -> str:
    """The Host header's name or address, without its port or brackets, lower-case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def loopback_host(name: str) -> bool:
    """Whether a Host header's name means this machine, without asking DNS (a rebinding attacker's name
    resolves to 127.0.0.1 too): `localhost` and its subdomains, or a loopback address."""
    if name == LOOPBACK_NAMES[0] or name.endswith(LOOPBACK_NAMES[1]):
        return True
    try:
        address = ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def allowed_host(name: str, allowed: Sequence[str]) -> bool:
    """ALLOWED_HOSTS: names, `.example.org` for it and its subdomains, `*` for any."""
    return "*" in allowed or host_is_trusted(name, [entry.lower() for entry in allowed])


def host_refusal(local: bool) -> str | None:
    """Why this request's Host header is refused, or None."""
    name = host_name(request.host)
    allowed = settings_of(current_app).serving.allowed_hosts
    if allowed and not allowed_host(name, allowed):
        return (f"The Host header {name!r} is not one this server answers to (the ALLOWED_HOSTS setting: "
                f"{', '.join(allowed)}).")
    if local and not loopback_host(name):
        return (f"The Host header {name!r} is not this machine's loopback name or address: this Goldtext has no "
                "accounts yet, so it answers only to http://localhost or http://127.0.0.1 (a page of another "
                f"site reaching it through DNS rebinding is refused). To serve a team, create an account first: "
                f"{CREATE_ACCOUNT}")
    return None


def wants_json() -> bool:
    return request.path.startswith("/api/") or identity().via in ("token", "bad-token")


def refuse(status: int, message: str) -> tuple[Response | str, int]:
    if wants_json():
        response = json_error(status, message)
        if status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="goldtext"'
        return response, status
    return render_template("accounts/refused.html", message=message), status


def authorize() -> Response | tuple[Response | str, int] | None:
    """The before-request check: None lets the view run, anything else is the answer."""
    endpoint = request.endpoint
    if endpoint is not None and endpoint.startswith("accounts."):
        request.max_content_length = ACCOUNT_MAX_BODY
    refusal = host_refusal(local=False) if endpoint not in HOST_FREE else None
    if refusal is not None:
        return refuse(400, refusal)
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
        refusal = host_refusal(local=True)
        return refuse(400, refusal) if refusal is not None else None
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
    """Register the check before every other before-request function (the CSRF check reads its verdict);
    with PROXY_HOPS, read the client's address from that many proxies' X-Forwarded-For."""
    hops = settings_of(app).serving.proxy_hops
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    app.before_request(authorize)
    app.jinja_env.globals.update(identity=identity)
