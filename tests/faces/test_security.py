"""The security baseline: CSRF on every state change, the CSP and protective headers on every response,
the raw page route's isolation headers, escaping, and the request size cap."""

from __future__ import annotations

import hashlib
import io
import os
import re
from pathlib import Path
from typing import Any

import pytest
from app_settings import reconfigure
from database_copies import copied_world
from demo_fixtures import digest
from learned_sites import learned_site
from workbench import PASSWORD, add_account, csrf, log_in, make_page, sign_in

from webapp import create_app
from webapp.accounts.credentials import TOKEN, issue
from webapp.annotation.gold import add_revision
from webapp.annotation.gold_markdown import views_of
from webapp.extractors.composition_rows import add_composition
from webapp.extractors.compositions import Composition
from webapp.extractors.extraction_service import current_extractors
from webapp.extractors.registry import build_registry
from webapp.extractors.variants import add_variant
from webapp.models import (
    Annotation,
    Assignment,
    AssignmentChange,
    ControlPage,
    Extraction,
    Page,
    PageRendering,
    PageRequisite,
)
from webapp.web.db import dispose
from webapp.web.security import RAW_PAGE_CSP, REQUISITE_CSP

pytestmark = pytest.mark.security

HOSTILE = '<html><body><p>Text</p><script>alert(1)</script><img src="http://127.0.0.1:9/x.png"></body></html>'


def hostile_page(session) -> int:
    return make_page(session, HOSTILE, url="https://news.example/a", candidates={"trafilatura": "Text"}).id


@pytest.fixture
def page_id(session):
    return hostile_page(session)


# --- the app's routes, read from its URL map ----------------------------------------------------------

ROUTES = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "routes"}).url_map
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")
WRITE_ROUTES = [(method, rule) for rule in ROUTES.iter_rules() for method in STATE_CHANGING if method in rule.methods]
READ_ROUTES = [rule for rule in ROUTES.iter_rules() if "GET" in rule.methods]
STATIC = Path(__file__).resolve().parents[2] / "static"
# POST routes that change nothing (they take a body too large for a query string): the token is still
# required (test_state_changes_without_the_right_csrf_token_are_refused_and_change_nothing), but there is
# no state to change.
CHANGE_NOTHING = {"api.preview_json": "renders the Markdown it is sent, stores nothing"}
# Routes whose view sets its own Content-Security-Policy (checked in full below).
OWN_POLICY = {"pages.raw": RAW_PAGE_CSP, "pages.requisite": REQUISITE_CSP, "pages.screenshot": REQUISITE_CSP}


def route_id(route) -> str:
    method, rule = route if isinstance(route, tuple) else ("GET", route)
    return f"{method} {rule.rule}"


def requests_that_change_state(values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """endpoint -> the keyword arguments of a request that changes something when it carries the token."""
    return {
        "annotate.name": {"data": {"name": "Mallory"}},
        "api.write_gold": {"json": {"text": "Mallory was here", "type": "article", "status": "done",
                                    "version": values["gold_version"], "client_save_id": "mallory"}},
        "annotate.restore": {"data": {}},
        "adjudication.save": {"data": {"version": values["gold_version"], "text": "Adjudicated", "type": "article",
                                       "status": "done", "note": "Mallory's note"}},
        "upload.receive": {"data": {"format": "auto", "site_from": "url",
                                    "files": (io.BytesIO(b"<html><body><p>Planted</p></body></html>"), "x.html")}},
        "exports.start": {"data": {"format": "jsonl"}},
        "capture.start": {"data": {"urls": "https://news.example/planted"}},
        "pages.choose_scored": {"data": {"rendering": "rendered"}},
        "jobs.cancel": {"data": {}},
        "extractors.add": {"data": {"name": "planted", "base": "trafilatura", "options": "fast=true"}},
        "extractors.remove": {"data": {}},
        "extractors.compose": {"data": {"name": "planted-union", "kind": "union", "parts": "trafilatura\njustext"}},
        "extractors.remove_composition": {"data": {}},
        "accounts.login": {"data": {"name": "Mallory", "password": "guessing-again"}},
        "accounts.logout": {"data": {}},
        "accounts.add": {"data": {"name": "Mallory", "role": "admin", "password": "mallory-was-here"}},
        "accounts.role": {"data": {"role": "admin"}},
        "accounts.disable": {"data": {"disabled": "on"}},
        "accounts.token": {"data": {}},
        "accounts.revoke_tokens_of": {"data": {}},
        "accounts.logout_user": {"data": {}},
        "accounts.unlock": {"data": {}},
        "accounts.change_password": {"data": {"current": PASSWORD, "password": "Mallory's password",
                                              "confirm": "Mallory's password"}},
        "accounts.logout_everywhere": {"data": {}},
        "checks.run": {"data": {}},
        "leaderboard.refresh": {"data": {"metric": "rouge-lsum"}},
        "api.start_extraction_json": {"json": {"extractors": ["trafilatura"]}},
        "extractors.pipeline": {"data": {"extractor": "trafilatura"}},
        "queue.hand_back": {"data": {}},
        "adjudication.void": {"data": {"author": "Bea"}},
        "guidelines.save": {"data": {"text": "# Forum\n\nMallory's policy.", "base": "1"}},
        "sites.accept_learned": {"data": {"site": "quay.example"}},
        "console.assign": {"data": {"action": "remove", "from": "Ann"}},
        "console.undo": {"data": {}},
        "console.controls": {"data": {"page": str(values["control_id"]), "to": "Bea"}},
        "console.end": {"data": {}},
        "console.tabs": {"data": {"extractor": "trafilatura", "state-trafilatura": "hidden"}},
        "console.comment": {"data": {"body": "Mallory's comment"}},
        "console.changes": {"data": {"annotator": "Ann", "body": "Mallory wants changes"}},
    }


LOCAL_ONLY = {"annotate.name"}
"""Routes that change state only in local mode (no accounts): the walk's control runs them there."""


@pytest.fixture
def local_app(tmp_path):
    """A second app on a database with no accounts (local mode)."""
    instance = tmp_path / "local"
    instance.mkdir()
    local = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "SECRET_KEY": "local",
                        "DATABASE_URL": f"sqlite:///{instance / 'local.sqlite'}"})
    yield local
    dispose(local)


def build_values(app, client, session) -> dict[str, Any]:
    """A client logged in as an admin, and real values for the routes' URL variables: a page with two gold
    revisions and trafilatura's extraction, its import batch, a queued export job, a file of static/, an
    annotator with an API token and an annotation of the page, the page assigned to the admin, and a site
    whose gold teaches a site rule that beats its best extractor. Built once per module, copied per test
    (database_copies.py)."""
    page_id = hostile_page(session)
    learned_site(session, "quay.example", exact=False)
    [trafilatura] = current_extractors(session, build_registry(), ("trafilatura",))
    add_variant(session, build_registry(), "no-ads", "trafilatura", ["prune_xpath=//aside"])
    add_composition(session, build_registry(), Composition("planted-cascade", "cascade", ("justext", "trafilatura")),
                    ["article"])
    session.add(Extraction(page_id=page_id, extractor="trafilatura", fingerprint=trafilatura.fingerprint, text="Text",
                           accepted=True))
    requisite = PageRequisite(page_id=page_id, url="https://news.example/site.css", content_type="text/css",
                              data=b"p { color: red }")
    session.add_all([requisite, PageRendering(page_id=page_id, html="<p>Rendered</p>", screenshot=b"PNG")])
    session.commit()
    add_account(session, "Ann", "admin")
    other = add_account(session, "Bea", "annotator")
    issue(session, other, TOKEN)
    session.add_all([Annotation(page_id=page_id, author="Bea", **views_of(text="Bea's").fields(), page_type="article",
                                status="done"),
                     Assignment(page_id=page_id, author="Ann"),
                     AssignmentChange(actor="Ann", action="assign", added=[[page_id, "Ann"]], removed=[])])
    control = make_page(session)  # a control page of the lead's console, given to nobody yet
    add_revision(session, control, text="Known gold", page_type="article", status="done", author="benchmark")
    session.add(ControlPage(page_id=control.id, text="Known gold", page_type="article", gold_version=1,
                            author="Ann"))
    session.commit()
    token = log_in(client, "Ann")
    for number, text in enumerate(["First gold", "Second gold"]):
        saved = client.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                            json={"text": text, "type": "article", "status": "done", "version": number,
                                  "client_save_id": f"seed-{number}"})
        assert saved.status_code == 200, saved.get_json()
    exported = client.post("/exports", data={"format": "jsonl", "csrf_token": token})
    assert exported.status_code == 302
    page = session.get(Page, page_id)
    session.refresh(page)
    found = {
        "page_id": page_id,
        "revision_id": min(revision.id for revision in page.gold.revisions),  # the first: restoring changes the gold
        "batch_id": page.batch_id,
        "job_id": int(exported.headers["Location"].rstrip("/").rsplit("/", 1)[1]),
        "filename": min(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()),
        "gold_version": page.gold.version,
        "user_id": other.id,
        "token": token,
        "name": "no-ads",
        "composition": "planted-cascade",
        "page_type": "forum",
        "control_id": control.id,
        "requisite_id": requisite.id,
    }
    session.rollback()
    return found


values_built, values = copied_world(build_values, "values")


def path_of(rule, values: dict[str, Any]) -> str:
    """The rule's path with every variable filled; fails naming the rule when one has no value here."""
    missing = sorted(set(rule.arguments) - set(values))
    if missing:
        pytest.fail(f"{rule.rule} ({rule.endpoint}): no value for {missing}; add one to the `values` fixture")
    return re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", lambda m: str(values[m.group(1)]), rule.rule)


def state(app, client) -> tuple:
    """Everything a request could change: every table, the instance folder's files, the cookie session."""
    tables = digest(app.config["DATABASE_URL"])
    files = {p.relative_to(app.instance_path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in Path(app.instance_path).rglob("*") if p.is_file()}
    with client.session_transaction() as cookie:
        session = dict(cookie)
    return tables, files, session


def test_the_walk_finds_the_routes_that_change_state():
    assert {(method, rule.endpoint) for method, rule in WRITE_ROUTES} >= {
        ("POST", "annotate.name"), ("POST", "api.write_gold"), ("POST", "annotate.restore"),
        ("POST", "upload.receive"), ("POST", "exports.start"), ("POST", "jobs.cancel"),
        ("POST", "extractors.add"), ("POST", "extractors.remove"),
    }


@pytest.mark.parametrize("token", [None, "wrong"])
@pytest.mark.parametrize("route", WRITE_ROUTES, ids=route_id)
def test_state_changes_without_the_right_csrf_token_are_refused_and_change_nothing(app, client, values, route,
                                                                                   token):
    method, rule = route
    path = path_of(rule, values)
    kwargs = requests_that_change_state(values).get(rule.endpoint, {"data": {}})
    before = state(app, client)
    headers = {"X-CSRF-Token": token} if token else {}
    response = client.open(path, method=method, headers=headers, **kwargs)
    assert response.status_code == 400, f"{method} {path} answered {response.status_code}"
    assert "CSRF" in response.get_data(as_text=True)  # refused for the token, not for anything else
    assert state(app, client) == before


@pytest.mark.parametrize("route", WRITE_ROUTES, ids=route_id)
def test_the_same_requests_with_the_token_do_change_state(app, client, values, route, request):
    """The control of the test above: its requests are ones that change something."""
    method, rule = route
    path = path_of(rule, values)
    requests = requests_that_change_state(values)
    if rule.endpoint in CHANGE_NOTHING:
        answer = client.open(path, method=method, headers={"X-CSRF-Token": values["token"]},
                             json={"markdown": "# Planted"})
        assert answer.status_code == 200 and "<h1>Planted</h1>" in answer.get_json()["html"]
        return
    if rule.endpoint not in requests:
        pytest.fail(f"{method} {rule.rule} ({rule.endpoint}): add a request that changes state to "
                    "requests_that_change_state")
    token = values["token"]
    if rule.endpoint in LOCAL_ONLY:
        app = request.getfixturevalue("local_app")  # made only for these routes: an app costs its migrations
        client = app.test_client()
        token = sign_in(client)
    before = state(app, client)
    response = client.open(path, method=method, headers={"X-CSRF-Token": token}, **requests[rule.endpoint])
    assert response.status_code < 400, f"{method} {path} answered {response.status_code}"
    assert state(app, client) != before


def test_a_form_field_or_a_header_carries_the_token(client, page_id):
    token = sign_in(client)
    by_header = client.post(
        f"/api/pages/{page_id}/gold",
        json={"text": "Text", "type": "article", "status": "done", "version": 0, "client_save_id": "h1"},
        headers={"X-CSRF-Token": token},
    )
    assert by_header.status_code == 200
    by_field = client.post("/annotator", data={"name": "Bob", "csrf_token": token})
    assert by_field.status_code == 302


def test_the_refused_json_request_gets_a_json_error(client, page_id):
    csrf(client)
    response = client.post(f"/api/pages/{page_id}/gold", json={})
    assert response.status_code == 400
    assert "CSRF" in response.json["message"]


def check_app_headers(response) -> None:
    csp = response.headers["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]+)", csp).group(1).split()
    assert "'unsafe-inline'" not in script_src and any(s.startswith("'nonce-") for s in script_src)
    assert "frame-ancestors 'self'" in csp
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("route", READ_ROUTES, ids=route_id)
def test_every_app_response_carries_the_nonce_csp_and_protective_headers(client, values, route):
    response = client.get(path_of(route, values))
    assert response.status_code < 500
    if route.endpoint in OWN_POLICY:
        assert response.headers["Content-Security-Policy"] == OWN_POLICY[route.endpoint]
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    else:
        check_app_headers(response)


def test_a_missing_route_carries_them_too(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    check_app_headers(response)


@pytest.mark.parametrize("path", ["/", "/pages/{id}", "/pages/{id}/history"])
def test_app_pages_have_no_inline_scripts_and_every_script_carries_the_nonce(client, page_id, path):
    sign_in(client)
    response = client.get(path.format(id=page_id))
    nonce = re.search(r"'nonce-([^']+)'", response.headers["Content-Security-Policy"]).group(1)
    scripts = re.findall(r"<script([^>]*)>", response.get_data(as_text=True))
    assert scripts
    for attributes in scripts:
        assert f'nonce="{nonce}"' in attributes
        assert "src=" in attributes or 'type="application/json"' in attributes


def test_the_nonce_changes_with_every_response(client, page_id):
    first = client.get("/").headers["Content-Security-Policy"]
    second = client.get("/").headers["Content-Security-Policy"]
    assert first != second


def test_the_raw_page_is_served_decoded_with_the_isolation_headers(client, page_id):
    response = client.get(f"/pages/{page_id}/raw")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == HOSTILE
    assert response.mimetype == "text/html" and response.mimetype_params["charset"] == "utf-8"
    assert response.headers["Content-Security-Policy"] == RAW_PAGE_CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"


def test_the_source_view_is_escaped_and_numbered_line_by_line(client, session):
    html = "<html>\n<body>\n<script>alert('x')</script>\n</body>\n</html>"
    page = make_page(session, html)
    text = client.get(f"/pages/{page.id}/source").get_data(as_text=True)
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in text
    assert text.count("<li>") == 5


@pytest.mark.parametrize("path", ["/pages/999/raw", "/pages/999/source"])
def test_a_missing_page_is_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "url, linked",
    [("https://news.example/a?x=1&y=2", True), ("javascript:alert(1)", False), ("data:text/html,hi", False)],
)
def test_only_http_urls_become_links_and_all_are_escaped(client, session, url, linked):
    page = make_page(session, url=url)
    sign_in(client)
    text = client.get(f"/pages/{page.id}").get_data(as_text=True)
    escaped = url.replace("&", "&amp;")
    assert (f'href="{escaped}"' in text) is linked


def test_titles_and_urls_are_escaped_in_the_queue(client, session):
    make_page(session, url='https://news.example/<script>alert("q")</script>')
    text = client.get("/").get_data(as_text=True)
    assert '<script>alert("q")' not in text
    assert "&lt;script&gt;" in text


def test_a_request_over_the_size_cap_is_413(app, client):
    token = sign_in(client)
    reconfigure(app, MAX_CONTENT_LENGTH=1000)
    response = client.post(
        "/api/pages/1/gold", data="x" * 5000, content_type="application/json",
        headers={"X-CSRF-Token": token},
    )
    assert response.status_code == 413


def _key_when_released(instance: str, barrier) -> str:
    from webapp.foundation.config import secret_key

    barrier.wait()
    return secret_key(instance)


def test_processes_started_together_agree_on_one_secret_key(tmp_path):
    """Web processes and workers started at once on a new instance must sign sessions with the same key,
    or a CSRF token issued by one process is refused by the next."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    barrier = context.Manager().Barrier(8)
    with context.Pool(8) as pool:
        keys = pool.starmap(_key_when_released, [(str(tmp_path), barrier)] * 8)
    assert len(set(keys)) == 1 and len(keys[0]) == 64
    assert (tmp_path / "secret_key").read_text() == keys[0]
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary file left behind
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


# --- settings from the environment, private files ----------------------------------------------


DOCUMENTED = re.findall(r"^\| `([A-Z_]+)` \|", (Path(__file__).resolve().parents[2] / "docs" / "deployment.md")
                        .read_text(encoding="utf-8").split("\n## Settings\n", 1)[1].split("\n## ", 1)[0], re.M)


def environment_value(name: str, default: Any) -> tuple[str, Any]:
    """A value other than the default, as the environment spells it, and what the app should make of it."""
    if isinstance(default, bool):
        return ("yes", True) if not default else ("off", False)
    if isinstance(default, int):
        return f" {default + 3} ", default + 3
    if isinstance(default, float):
        return f"{default + 0.5}", default + 0.5
    if isinstance(default, list):
        chosen = list(reversed(default)) if len(default) > 1 else ["article", "forum"] if default else ["a", "b"]
        if name == "NO_CONTENT_TYPES":
            chosen = default[:1]
        return " , ".join(chosen), chosen
    text = {"DATABASE_URL": "sqlite:////tmp/elsewhere.sqlite", "BROKER_URL": "redis://127.0.0.1:6379/9",
            "DEFAULT_EXTRACTOR": "density", "PREFILL": "random", "CAPTURE_USER_AGENT": "Goldtext-tests/2",
            "PREFILL_POOL": "any"}[name]
    return text, text


def environment_app(monkeypatch, tmp_path, variables: dict[str, str]):
    """An app made as `goldtext` makes it: no test config, settings from the environment."""
    for name in [n for n in os.environ if n.startswith("GOLDTEXT_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("GOLDTEXT_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("GOLDTEXT_DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return create_app()


@pytest.mark.parametrize("name", [n for n in DOCUMENTED if n != "INSTANCE_PATH"])
def test_every_documented_setting_works_from_the_environment(monkeypatch, tmp_path, name):
    from webapp.foundation.config import defaults

    default = {**create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "x"}).config,
               **defaults(str(tmp_path))}[name]
    spelled, expected = environment_value(name, default)
    app = environment_app(monkeypatch, tmp_path, {f"GOLDTEXT_{name}": spelled})
    assert app.config[name] == expected and app.config[name] != default


def test_session_cookie_secure_from_the_environment_gives_the_secure_flag(monkeypatch, tmp_path):
    app = environment_app(monkeypatch, tmp_path, {"GOLDTEXT_SESSION_COOKIE_SECURE": "true"})
    try:
        cookie = app.test_client().get("/login").headers["Set-Cookie"]
    finally:
        dispose(app)
    assert "; Secure" in cookie


@pytest.mark.parametrize("value", ["maybe", "2"])
def test_a_boolean_setting_that_is_not_a_boolean_stops_the_app_naming_it(monkeypatch, tmp_path, value):
    with pytest.raises(ValueError, match="GOLDTEXT_SESSION_COOKIE_SECURE=.* is not a boolean"):
        environment_app(monkeypatch, tmp_path, {"GOLDTEXT_SESSION_COOKIE_SECURE": value})


@pytest.mark.parametrize("variables, expected", [
    ({"GOLDTEXT_EXTRACT_WORKERS": "3"}, 3),
    ({"GOLDTEXT_EXTRACT_WORKERS": "3", "GOLDTEXT_EXTRACT_PROCESSES": "5"}, 5),
])
def test_the_old_name_extract_workers_is_read_as_extract_processes_with_a_warning(monkeypatch, tmp_path, caplog,
                                                                                 variables, expected):
    app = environment_app(monkeypatch, tmp_path, variables)
    assert app.config["EXTRACT_PROCESSES"] == expected and "EXTRACT_WORKERS" not in app.config
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("GOLDTEXT_EXTRACT_WORKERS is now called GOLDTEXT_EXTRACT_PROCESSES" in w for w in warnings)
    assert not any("names no Goldtext setting" in w for w in warnings)


def test_extract_workers_in_the_instance_config_or_a_given_config_is_read_as_extract_processes(
        monkeypatch, tmp_path, caplog):
    (tmp_path / "config.py").write_text("EXTRACT_WORKERS = 2\n")
    assert environment_app(monkeypatch, tmp_path, {}).config["EXTRACT_PROCESSES"] == 2
    given = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "x", "EXTRACT_WORKERS": 4})
    assert given.config["EXTRACT_PROCESSES"] == 4 and "EXTRACT_WORKERS" not in given.config
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert sum("the setting EXTRACT_WORKERS is now called EXTRACT_PROCESSES" in w for w in warnings) == 2


def test_an_unknown_goldtext_variable_is_reported_at_start_up(monkeypatch, tmp_path, caplog):
    environment_app(monkeypatch, tmp_path, {"GOLDTEXT_SESION_HOURS": "3", "GOLDTEXT_ZZZ": "1"})
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("GOLDTEXT_SESION_HOURS" in w and "did you mean GOLDTEXT_SESSION_HOURS" in w for w in warnings)
    assert any("GOLDTEXT_ZZZ" in w and "names no Goldtext setting" in w for w in warnings)


def test_the_database_and_queue_files_are_private_under_umask_022(tmp_path):
    """The SQLite database holds password hashes and token digests: 0600, and so are its -wal and -shm
    files and the embedded broker's queue (SQLite gives those the database file's mode)."""
    import stat

    from sqlalchemy import text

    from webapp.jobs.broker import broker
    from webapp.web.db import database

    old = os.umask(0o022)
    try:
        app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x",
                          "DATABASE_URL": f"sqlite:///{tmp_path / 'team.sqlite'}"})
        with app.app_context():
            with database(app).engine.connect() as conn:
                conn.execute(text("SELECT count(*) FROM user"))
                queue = broker(app).huey
                queue.storage.enqueued_items()
                modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()
                         if p.name.startswith(("team.sqlite", "queue.sqlite")) and not p.name.endswith("lock")}
        dispose(app)
    finally:
        os.umask(old)
    assert {"team.sqlite", "team.sqlite-wal", "team.sqlite-shm", "queue.sqlite"} <= set(modes)
    assert modes == {name: 0o600 for name in modes}


# The name form's `next`: no open redirect, no 500, whatever it says ----------


HOSTILE_NEXT = [
    "//evil.example/",
    "///evil.example/",
    "/\\evil.example/",
    "\\\\evil.example/",
    "/\t/evil.example/",
    "/\n/evil.example/",
    "/\r\n/evil.example/",
    " /evil",
    "/%09/evil.example/",
    "/%0a/evil.example/",
    "/%2F/evil.example/",
    "/%5Cevil.example/",
    "%2F%2Fevil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "/javascript:alert(1)//%0a",
    "https://evil.example/",
    "http:/evil.example",
    "http:evil.example",
    "evil.example",
    "data:text/html,<script>alert(1)</script>",
    "/\u2028/evil.example",
    "\u3002evil",
    "",
]


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_the_name_form_follows_no_hostile_next_and_never_fails(client, target):
    token = csrf(client)
    shown = client.get("/annotator", query_string={"next": target})
    assert shown.status_code == 200
    assert 'name="next" value="/"' in shown.get_data(as_text=True)
    response = client.post("/annotator", data={"name": "Ann", "csrf_token": token, "next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/pages/3", "/?site=news.example&annotator=Ann+Smith", "/leaderboard?metric=tokens",
                                    "/pages/3?annotator=Ann%20Smith"])
def test_the_name_form_follows_a_same_origin_path(client, target):
    token = csrf(client)
    response = client.post("/annotator", data={"name": "Ann", "csrf_token": token, "next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == target
