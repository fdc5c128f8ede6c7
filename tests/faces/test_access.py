"""The role check, walked over the app's whole URL map: every route as nobody, as an annotator, a reviewer
and an admin logged in, and with their API tokens; local mode (no accounts) on loopback, its refusal
elsewhere, and the first account switching login on."""

from __future__ import annotations

import html
import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from app_settings import reconfigure
from browser_fixtures import serve
from database_copies import copied_world
from served import served
from sqlalchemy import select
from werkzeug.serving import make_server
from workbench import add_account, add_gold, csrf, log_in, make_page, sign_in

from webapp import create_app
from webapp.accounts.credentials import TOKEN, issue
from webapp.accounts.devices import COOKIE as DEVICE_COOKIE
from webapp.accounts.roles import ADMIN, ANNOTATOR, REVIEWER, ROLES, at_least
from webapp.extractors.registry import build_registry
from webapp.extractors.variants import add_variant
from webapp.models import Job, PageRendering, PageRequisite
from webapp.web.access import ACCESS, PUBLIC

pytestmark = pytest.mark.security

ROUTES = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "routes"}).url_map
WALKED = [(method, rule) for rule in ROUTES.iter_rules() for method in ("GET", "POST") if method in rule.methods]


def test_every_endpoint_of_the_url_map_has_an_access_rule_and_every_rule_an_endpoint():
    endpoints = {rule.endpoint for rule in ROUTES.iter_rules()}
    missing = sorted(endpoints - set(ACCESS))
    assert not missing, f"add these endpoints to ACCESS in webapp/web/access.py: {missing}"
    assert sorted(set(ACCESS) - endpoints) == []
    assert set(ACCESS.values()) <= {PUBLIC, *ROLES}


def test_a_route_missing_from_the_table_is_refused_even_to_an_admin(app, session):
    app.add_url_rule("/forgotten", "forgotten", lambda: "open")
    add_account(session, "Ada", ADMIN)
    client = app.test_client()
    log_in(client, "Ada")
    response = client.get("/forgotten")
    assert response.status_code == 403 and "forgotten" in response.get_data(as_text=True)


def build_world(app, client, session) -> dict[str, Any]:
    """A page with two gold revisions, a rendering and a captured stylesheet, its batch, an export job, a file
    of static/, one account of each role with an API token, and a user to change (Zed). Built once per
    module, copied per test (database_copies.py)."""
    page = make_page(session, "<html><body><p>Text</p></body></html>", url="https://a.example/1")
    first = add_gold(session, page, text="First", page_type="article", status="done", author="Ann")
    add_gold(session, page, text="Second", page_type="article", status="done", author="Ann")
    requisite = PageRequisite(page_id=page.id, url="https://a.example/site.css", content_type="text/css", data=b"p{}")
    session.add_all([requisite, PageRendering(page_id=page.id, html="<p>Rendered</p>", screenshot=b"PNG")])
    job = Job(kind="export", params={}, started_by="Ada", status="done", result={})
    session.add(job)
    session.commit()
    tokens = {}
    for name, role in (("Ann", ANNOTATOR), ("Rex", REVIEWER), ("Ada", ADMIN)):
        tokens[role] = issue(session, add_account(session, name, role), TOKEN)
    zed = add_account(session, "Zed", ANNOTATOR)
    add_variant(session, build_registry(), "trafilatura-planted", "trafilatura", ["fast=true"], created_by="Ada")
    session.commit()
    return {"page_id": page.id, "revision_id": first.id, "batch_id": page.batch_id, "job_id": job.id,
            "user_id": zed.id, "name": "trafilatura-planted", "composition": "planted-cascade",
            "filename": "css/app.css", "page_type": "forum",
            "control_id": page.id, "requisite_id": requisite.id, "tokens": tokens}


world_built, world = copied_world(build_world, "world")


def path_of(rule, values: dict[str, Any]) -> str:
    missing = sorted(set(rule.arguments) - set(values))
    assert not missing, f"{rule.rule} ({rule.endpoint}): give the `world` fixture a value for {missing}"
    return re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", lambda m: str(values[m.group(1)]), rule.rule)


ENDS_THE_LOGIN = {"accounts.logout", "accounts.logout_everywhere", "accounts.change_password"}
"""The routes after which the browser's login may have ended: the next route logs in anew."""


class Login:
    """One person's browser login through the login form, carried into fresh clients: logged in once, and
    again after a route that may have ended it (`after`)."""

    def __init__(self, app, name: str) -> None:
        self.app, self.name = app, name
        self.cookies: list | None = None
        self.token = ""

    def client(self) -> tuple[Any, dict[str, str]]:
        """A fresh client with the login's cookies, and the headers of its CSRF token."""
        if self.cookies is None:
            browser = self.app.test_client()
            self.token = log_in(browser, self.name)
            kept = (browser.get_cookie(name) for name in (self.app.config["SESSION_COOKIE_NAME"], DEVICE_COOKIE))
            self.cookies = [cookie for cookie in kept if cookie is not None]
        client = self.app.test_client()
        for cookie in self.cookies:
            client.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
        return client, {"X-CSRF-Token": self.token}

    def after(self, endpoint: str) -> None:
        if endpoint in ENDS_THE_LOGIN:
            self.cookies = None


def walk(app, world, role: str | None, *, token: str | None = None) -> Iterator[tuple[str, str, Any, bool]]:
    """Every (method, route) requested as `role` (None: nobody) in a fresh client, which carries the cookies
    of the role's browser login (logged in through the form once, and again after a route that may end
    it); yields (what, endpoint, response, allowed)."""
    login = Login(app, {ANNOTATOR: "Ann", REVIEWER: "Rex", ADMIN: "Ada"}[role]) if role is not None else None
    for method, rule in WALKED:
        client, headers = login.client() if login is not None and token is None else (app.test_client(), {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        elif role is None:
            headers["X-CSRF-Token"] = csrf(client)
        path = path_of(rule, world)
        response = client.open(path, method=method, headers=headers, data={"csrf_token": headers.get("X-CSRF-Token")})
        if login is not None:
            login.after(rule.endpoint)
        needed = ACCESS[rule.endpoint]
        yield f"{method} {path} ({rule.endpoint})", rule.endpoint, response, needed == PUBLIC or at_least(role, needed)


def refused_to_nobody(path: str, response) -> bool:
    if path.split()[1].startswith("/api/"):
        return response.status_code == 401 and "Bearer" in response.headers.get("WWW-Authenticate", "")
    return response.status_code == 302 and response.location.startswith("/login?next=")


def let_through(response) -> bool:
    """The view ran: not refused for who asked (it may still say 400, 404 or 409 about the request)."""
    return response.status_code not in (401, 403) and not (
        response.status_code == 302 and response.location.startswith("/login?next="))


@pytest.mark.parametrize("role", [None, ANNOTATOR, REVIEWER, ADMIN])
def test_every_route_as_each_role_logged_in(app, world, role):
    wrong = []
    for what, _endpoint, response, allowed in walk(app, world, role):
        if allowed and not let_through(response):
            wrong.append(f"{what}: refused ({response.status_code}) though allowed")
        elif not allowed and role is None and not refused_to_nobody(what, response):
            wrong.append(f"{what}: answered {response.status_code} to nobody")
        elif not allowed and role is not None and response.status_code != 403:
            wrong.append(f"{what}: answered {response.status_code}, not 403, to an {role}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("role", [ANNOTATOR, REVIEWER, ADMIN, "wrong"])
def test_every_route_with_each_roles_api_token(app, world, role):
    token = world["tokens"].get(role, "gt_not-a-token")
    wrong = []
    for what, endpoint, response, allowed in walk(app, world, role if role in ROLES else None, token=token):
        body = response.get_data(as_text=True)
        if ACCESS[endpoint] == PUBLIC:
            continue  # the login form and the health check read no token (and the login form wants CSRF)
        if allowed and (not let_through(response) or "CSRF" in body):
            wrong.append(f"{what}: refused ({response.status_code}) though allowed: {body[:120]}")
        elif not allowed and role == "wrong" and response.status_code != 401:
            wrong.append(f"{what}: answered {response.status_code}, not 401, to a wrong token")
        elif not allowed and role != "wrong" and response.status_code != 403:
            wrong.append(f"{what}: answered {response.status_code}, not 403, to an {role}'s token")
    assert not wrong, "\n".join(wrong)


def test_in_local_mode_every_route_is_open_as_before_accounts(app, session):
    page = make_page(session, "<html><body><p>Text</p></body></html>")
    first = add_gold(session, page, text="First", page_type="article", status="done", author="Ann")
    session.add(job := Job(kind="export", params={}, started_by="Ann", status="done", result={}))
    session.commit()
    values = {"page_id": page.id, "revision_id": first.id, "batch_id": page.batch_id, "job_id": job.id,
              "user_id": 999, "name": "no-such-variant", "composition": "no-such-composition",
              "filename": "css/app.css", "page_type": "forum",
              "control_id": page.id, "requisite_id": 999}
    wrong = []
    for method, rule in WALKED:
        if rule.endpoint == "accounts.add":
            continue  # it would end local mode; test_the_first_account_switches_login_on_for_everyone
        client = app.test_client()
        token = sign_in(client)
        response = client.open(path_of(rule, values), method=method, headers={"X-CSRF-Token": token})
        if not let_through(response):
            wrong.append(f"{method} {rule.rule}: {response.status_code}")
    assert not wrong, "\n".join(wrong)


def test_the_first_account_switches_login_on_for_everyone(app, client, session):
    page = make_page(session)
    token = sign_in(client, "Ann")
    assert client.get(f"/pages/{page.id}").status_code == 200
    added = client.post("/users", data={"name": "Ada", "role": "admin", "password": "long enough", "csrf_token": token})
    assert added.status_code == 302
    assert client.get(f"/pages/{page.id}").location.startswith("/login?next=")
    assert app.test_client().get("/").location.startswith("/login?next=")
    saved = client.post(f"/api/pages/{page.id}/gold", headers={"X-CSRF-Token": token},
                        json={"text": "x", "type": "article", "status": "done", "version": 0, "client_save_id": "a"})
    assert saved.status_code == 401
    log_in(client, "Ada", "long enough")
    assert client.get(f"/pages/{page.id}").status_code == 200


def test_an_account_made_on_the_command_line_switches_login_on_too(app, client, runner, tmp_path):
    assert client.get("/").status_code == 200
    secret = tmp_path / "password"
    secret.write_text("long enough password\n")
    result = runner.invoke(args=["users", "add", "Ada", "--role", "admin", "--password-file", str(secret)])
    assert result.exit_code == 0, result.output
    assert client.get("/").location.startswith("/login?next=")


@pytest.mark.parametrize("header", [{"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"}])
def test_local_mode_refuses_a_request_that_came_through_a_proxy(client, header):
    response = client.get("/", headers=header)
    assert response.status_code == 403
    assert "goldtext users add NAME --role admin" in response.get_data(as_text=True)


def non_loopback_address() -> str | None:
    """An address of this machine that is not loopback, if it has one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def get(url: str) -> tuple[int, str]:
    from urllib.error import HTTPError
    from urllib.request import urlopen

    try:
        with urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except HTTPError as error:
        return error.code, error.read().decode()


def test_local_mode_answers_on_loopback_through_a_real_server(app):
    for base in serve(app):
        status, body = get(f"{base}/")
        assert status == 200 and "Queue" in body


def test_local_mode_refuses_a_request_on_a_non_loopback_address_of_a_real_server(app, session):
    address = non_loopback_address()
    if address is None:
        pytest.fail("this machine has no non-loopback address to test with")
    with served(make_server("0.0.0.0", 0, app, threaded=True)) as server:
        port = server.server_port
        assert get(f"http://127.0.0.1:{port}/")[0] == 200  # the same server, reached on loopback
        status, body = get(f"http://{address}:{port}/")
        assert status == 403 and "goldtext users add NAME --role admin" in body
        add_account(session, "Ada", ADMIN)
        status, body = get(f"http://{address}:{port}/")
        assert status == 200 and "Log in" in body  # with an account: the login form, from anywhere


@pytest.mark.parametrize("command", [["run"], ["serve"], ["demo"]])
def test_serving_a_non_loopback_address_without_accounts_is_refused(runner, command):
    result = runner.invoke(args=[*command, "--host", "0.0.0.0", "--port", "9"])
    assert result.exit_code == 1
    assert "no account exists" in result.output and "goldtext users add NAME --role admin" in result.output


@pytest.mark.parametrize("host,loopback", [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                           ("127.0.0.2", True), ("0.0.0.0", False), ("::", False),
                                           ("192.0.2.7", False), ("::ffff:127.0.0.1", True)])
def test_which_hosts_are_loopback(host, loopback):
    from webapp.web.access import is_loopback

    assert is_loopback(host) is loopback


# --- the Host header (DNS rebinding) and ALLOWED_HOSTS ------------------------------------------


REBOUND = "http://rebind.attacker.example"


def test_local_mode_refuses_a_rebound_host_and_creates_no_admin_for_it(app, session):
    """A page of another site that reaches a local instance through DNS rebinding sends its own name in
    the Host header: refused with the reason, and the first account cannot be made that way."""
    from webapp.models import User

    client = app.test_client()
    page = client.get("/users", base_url=REBOUND)
    assert page.status_code == 400 and "rebind.attacker.example" in page.get_data(as_text=True)
    assert "loopback" in page.get_data(as_text=True)
    token = csrf(client)  # the login form is public: the attacker can read a CSRF token of their session
    added = client.post("/users", base_url=REBOUND, data={"name": "Mallory", "role": "admin",
                                                          "password": "mallory-was-here", "csrf_token": token})
    assert added.status_code == 400
    assert session.scalars(select(User.name)).all() == []
    assert client.get("/api/leaderboard", base_url=REBOUND).get_json()["error"] == "Bad Request"


def test_local_mode_refuses_a_rebound_host_through_a_real_server(app):
    import http.client

    for base in serve(app):
        connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=30)
        connection.request("GET", "/users", headers={"Host": "rebind.attacker.example:5000"})
        response = connection.getresponse()
        assert response.status == 400 and b"rebind.attacker.example" in response.read()
        connection.close()


@pytest.mark.parametrize("host", ["localhost", "localhost:5000", "127.0.0.1:5000", "[::1]:8000", "app.localhost"])
def test_local_mode_answers_to_the_loopback_names_and_addresses(app, host):
    assert app.test_client().get("/", base_url=f"http://{host}").status_code == 200


def test_allowed_hosts_refuses_every_other_host_with_accounts_too(app, session):
    add_account(session, "Ada", ADMIN)
    reconfigure(app, ALLOWED_HOSTS=["goldtext.example.org", ".team.example"])
    client = app.test_client()
    refused = client.get("/login", base_url="http://evil.example")
    assert refused.status_code == 400 and "ALLOWED_HOSTS" in refused.get_data(as_text=True)
    for host in ("goldtext.example.org", "GOLDTEXT.example.org:443", "team.example", "gold.team.example"):
        assert client.get("/login", base_url=f"http://{host}").status_code == 200, host
    assert client.get("/health", base_url="http://10.0.0.7:8000").status_code != 400  # the load balancer's check


# --- bad input on every route ------------------------------------------------------------------------------
# Every bad input a clear answer, never a 500: ids beyond what the database's id columns hold,
# NUL characters (PostgreSQL refuses them in text) in the path, the query, a form or a JSON body, and JSON
# nested 100,000 levels deep (Python's parser gives up with RecursionError).

DEEP_JSON = "[" * 100_000 + "]" * 100_000
TOO_LARGE_IDS = [2**31, 2**63, 2**64, 10**30]


def told(response) -> str:
    """What the answer says, as a person reads it (a page's escaping undone)."""
    return html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("number", TOO_LARGE_IDS)
def test_an_id_beyond_the_id_columns_answers_404_naming_it_on_every_route(app, world, number):
    wrong = []
    admin = Login(app, "Ada")
    for method, rule in WALKED:
        ids = re.findall(r"<int:(\w+)>", rule.rule)
        if not ids:
            continue
        client, headers = admin.client()
        path = path_of(rule, {**world, **dict.fromkeys(ids, number)})
        response = client.open(path, method=method, headers=headers, data={"csrf_token": headers["X-CSRF-Token"]})
        if response.status_code != 404 or str(number) not in told(response):
            wrong.append(f"{method} {path}: {response.status_code} {told(response)[:200]!r}")
        admin.after(rule.endpoint)
    assert not wrong, "\n".join(wrong)


def nul_requests(rule, world, token: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(the field named in the answer, the path, the request's keywords) with a NUL in one field."""
    headers = {"X-CSRF-Token": token}
    path = path_of(rule, world)
    yield "q", path + "?q=a%00b", {"headers": headers, "data": {"csrf_token": token}}
    yield "actor", path + "?actor=%00", {"headers": headers, "data": {"csrf_token": token}}
    yield "name", path, {"data": {"csrf_token": token, "name": "Ann\x00", "password": "long enough"}}
    yield "text", path, {"headers": headers, "json": {"text": "a\x00b", "client_save_id": "s", "version": 0}}
    yield "snippets.with[0]", path, {"headers": headers, "json": {"snippets": {"with": ["\x00"], "without": []}}}
    for name in set(rule.arguments) - set(re.findall(r"<int:(\w+)>", rule.rule)):
        yield name, path_of(rule, {**world, name: f"{world[name]}%00"}), {"headers": headers}


def test_a_nul_character_anywhere_in_a_request_answers_400_naming_the_field_on_every_route(app, world):
    wrong = []
    admin = Login(app, "Ada")
    for method, rule in WALKED:
        client, headers = admin.client()
        for field, path, request in nul_requests(rule, world, headers["X-CSRF-Token"]):
            response = client.open(path, method=method, **request)
            if response.status_code != 400 or f"'{field}' cannot hold a NUL character" not in told(response):
                wrong.append(f"{method} {path} ({field}): {response.status_code} {told(response)[:200]!r}")
        admin.after(rule.endpoint)
    assert not wrong, "\n".join(wrong)


def test_json_nested_100000_deep_answers_400_or_413_on_every_route(app, world):
    wrong = []
    admin = Login(app, "Ada")
    for method, rule in WALKED:
        client, headers = admin.client()
        response = client.open(path_of(rule, world), method=method, headers=headers, data=DEEP_JSON,
                               content_type="application/json")
        nested = response.status_code == 400 and "nested deeper than 32 levels" in told(response)
        too_large = response.status_code == 413 and "the limit is" in told(response)  # the account forms' 64 KB
        if not (nested or too_large):
            wrong.append(f"{method} {rule.rule}: {response.status_code} {told(response)[:200]!r}")
        admin.after(rule.endpoint)
    assert not wrong, "\n".join(wrong)


NUMBER_FIELDS = ("before", "offset", "batch", "limit", "top", "seed", "bootstrap", "version", "page", "id")


@pytest.mark.parametrize("number", [2**31, 2**63, 2**64])
def test_whole_numbers_beyond_the_integer_columns_in_a_query_or_a_form_never_fail_on_every_route(app, world, number):
    wrong = []
    query = "&".join(f"{name}={number}" for name in NUMBER_FIELDS)
    admin = Login(app, "Ada")
    for method, rule in WALKED:
        client, headers = admin.client()
        form = {"csrf_token": headers["X-CSRF-Token"], **dict.fromkeys(NUMBER_FIELDS, str(number))}
        response = client.open(f"{path_of(rule, world)}?{query}", method=method, headers=headers, data=form)
        if response.status_code >= 500:
            wrong.append(f"{method} {rule.rule}: {response.status_code} {told(response)[:200]!r}")
        admin.after(rule.endpoint)
    assert not wrong, "\n".join(wrong)
