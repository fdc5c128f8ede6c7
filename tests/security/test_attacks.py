"""The outside attacks of issues 28 and 34, rerun: redirects after login to another site, a session cookie
fixed before login or kept after logout, another annotator's blind work through the API and the pages,
user text in the pages, and the role list against the docs. The rest of the suite marked `security` (the
route-by-identity walk, CSRF, the hostile saved page, bad input, outages, the audit log's end, the login
lockout, generated files and CSV) lives beside the code it checks; `python -m pytest -m security` runs it
all, on SQLite, or on PostgreSQL with GOLDTEXT_TEST_DATABASE_URL."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from workbench import PASSWORD, add_account, csrf, log_in, make_page

from webapp.accounts.roles import ADMIN, ANNOTATOR, ROLES
from webapp.cli.users_commands import users_add

pytestmark = pytest.mark.security

DOCS = Path(__file__).resolve().parents[2] / "docs"
OFF_SITE = ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)",
            "/%2F%2Fevil.example", "http:/evil.example", "\\\\evil.example"]


@pytest.fixture
def ada(session):
    return add_account(session, "Ada", ADMIN)


@pytest.mark.parametrize("target", OFF_SITE)
def test_a_login_never_redirects_to_another_site(client, ada, target):
    answer = client.post("/login", query_string={"next": target},
                         data={"name": "Ada", "password": PASSWORD, "csrf_token": csrf(client)})
    assert answer.status_code == 302
    assert answer.location == "/", (target, answer.location)


def test_a_session_cookie_from_before_the_login_or_after_the_logout_is_worth_nothing(app, client, ada):
    csrf(client)  # an attacker's cookie, planted in the browser before the login
    planted = client.get_cookie("session").value
    token = log_in(client, "Ada")
    assert client.get("/users").status_code == 200
    logged_in = client.get_cookie("session").value
    assert logged_in != planted
    replayed = app.test_client()
    replayed.set_cookie("session", planted)
    assert replayed.get("/users").location.startswith("/login?next=")  # the planted cookie did not log in
    assert client.post("/logout", data={"csrf_token": token}).status_code == 302
    stolen = app.test_client()
    stolen.set_cookie("session", logged_in)
    assert stolen.get("/users").location.startswith("/login?next=")  # the login ended with the logout


@pytest.mark.settings(OVERLAP=2)
def test_another_annotator_s_blind_work_is_never_shown(app, session):
    page_id = make_page(session, url="https://news.example/council").id
    ann, bob = add_account(session, "Ann", ANNOTATOR), add_account(session, "Bob", ANNOTATOR)
    secret = "Ann's own words about the council, not for Bob's eyes."
    ann_client, bob_client = app.test_client(), app.test_client()
    token = log_in(ann_client, ann.name)
    saved = ann_client.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                            json={"text": secret, "type": "article", "status": "done", "version": 0,
                                  "client_save_id": "a1"})
    assert saved.status_code == 200
    log_in(bob_client, bob.name)
    for path in (f"/api/pages/{page_id}/gold", f"/pages/{page_id}", f"/pages/{page_id}/history", "/", "/reviewed",
                 f"/api/pages/{page_id}/scores", "/effort", "/api/effort"):
        answer = bob_client.get(path)
        assert secret not in answer.get_data(as_text=True), path
        assert "Ann&#39;s own words" not in answer.get_data(as_text=True), path


def test_user_text_is_escaped_on_the_pages_that_show_it(app, session, ada):
    hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    make_page(session, url=f"https://a.example/{hostile}")
    client = app.test_client()
    client.post("/login", data={"name": hostile, "password": "wrong password", "csrf_token": csrf(client)})
    log_in(client, "Ada")
    for path in ("/", "/audit", "/users"):
        body = client.get(path).get_data(as_text=True)
        assert "<script>alert(1)" not in body and "<img src=x" not in body, path


def test_the_roles_the_docs_list_are_the_roles_there_are():
    """The docs' table of roles, `users add --role` and `users set-role` name the same roles (a role the docs
    promise that the command refuses was one of issue 34's findings)."""
    guide = (DOCS / "deployment.md").read_text(encoding="utf-8")
    table = guide.split("| role | may |", 1)[1].split("\n\n", 1)[0]
    assert re.findall(r"^\| `([a-z]+)` \|", table, flags=re.MULTILINE) == list(ROLES)
    (role,) = [param for param in users_add.params if param.name == "role"]
    assert list(role.type.choices) == list(ROLES)
    cli_reference = (DOCS / "cli.md").read_text(encoding="utf-8")
    listed = "\\|".join(ROLES)
    assert f"--role [{listed}]" in cli_reference
