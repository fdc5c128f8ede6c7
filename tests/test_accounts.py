"""Accounts: logging in and out, expiring sessions, the login throttle, disabled users and changed roles
taking effect at once, API tokens on the gold save, and `goldtext users`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update
from workbench import PASSWORD, add_account, csrf, log_in, make_page

from webapp.accounts.credentials import TOKEN, digest, issue
from webapp.accounts.roles import ADMIN, ANNOTATOR, REVIEWER
from webapp.accounts.users import AccountError, add_user, set_disabled, set_role
from webapp.models import Credential, Gold, GoldRevision, User, utcnow

SAVE = {"text": "Saved by a script", "kind": "article", "status": "done", "version": 0, "client_save_id": "s1"}


@pytest.fixture
def ada(session) -> User:
    return add_account(session, "Ada", ADMIN)


def test_logging_in_saves_as_the_user_and_logging_out_ends_the_session(client, session, ada):
    page = make_page(session)
    token = log_in(client, "Ada")
    saved = client.post(f"/api/pages/{page.id}/gold", json=SAVE, headers={"X-CSRF-Token": token})
    assert saved.status_code == 200
    assert session.scalar(select(GoldRevision.author)) == "Ada"
    session.rollback()  # the test's session ends its read: a writer's transaction holds SQLite's lock
    assert "Ada (admin)" in client.get("/").get_data(as_text=True)
    stolen = client.get_cookie("session").value
    assert client.post("/logout", data={"csrf_token": csrf(client)}).location == "/login"
    assert client.get("/").location.startswith("/login?next=")
    client.set_cookie("session", stolen)  # the cookie from before the logout names a login that is gone
    assert client.get("/").location.startswith("/login?next=")
    assert session.scalar(select(Credential.id).where(Credential.kind == "session")) is None


def test_a_wrong_password_or_name_is_refused_alike(client, ada):
    for name, password in (("Ada", "wrong password"), ("Nobody", PASSWORD)):
        response = client.post("/login", data={"name": name, "password": password, "csrf_token": csrf(client)})
        assert response.status_code == 200 and "Wrong name or password." in response.get_data(as_text=True)
    assert client.get("/").location.startswith("/login?next=")


def test_the_login_form_only_redirects_to_this_site(client, ada):
    response = client.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": csrf(client),
                                           "next": "//evil.example/"})
    assert response.location == "/"


def test_a_login_expires_after_session_hours(app, client, session, ada):
    app.config["SESSION_HOURS"] = 2.0
    log_in(client, "Ada")
    assert client.get("/").status_code == 200
    (expires,) = session.scalars(select(Credential.expires_at)).all()
    session.execute(update(Credential).values(expires_at=utcnow() - timedelta(seconds=1)))
    session.commit()
    assert client.get("/").location.startswith("/login?next=")
    assert expires is not None


def test_too_many_failed_logins_are_throttled_even_with_the_right_password(app, client, ada):
    app.config["LOGIN_MAX_FAILURES"] = 3
    for _ in range(3):
        client.post("/login", data={"name": "Ada", "password": "wrong password", "csrf_token": csrf(client)})
    response = client.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": csrf(client)})
    assert response.status_code == 429 and "Too many failed logins" in response.get_data(as_text=True)
    other = app.test_client()  # another web process would count the same rows: they are in the database
    again = other.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": csrf(other)})
    assert again.status_code == 429
    app.config["LOGIN_WINDOW_MINUTES"] = 0.0  # the window has passed
    log_in(client, "Ada")


def test_a_disabled_user_is_out_at_once_in_the_browser_and_with_a_token(app, client, session, ada):
    page = make_page(session)
    ann = add_account(session, "Ann", ANNOTATOR)
    secret = issue(session, ann, TOKEN)
    session.commit()
    log_in(client, "Ann")
    bearer = {"Authorization": f"Bearer {secret}"}
    assert client.get("/").status_code == 200
    assert client.get(f"/api/pages/{page.id}/gold", headers=bearer).status_code == 200
    set_disabled(session, "Ann", True)
    session.commit()
    assert client.get("/").location.startswith("/login?next=")
    assert app.test_client().get(f"/api/pages/{page.id}/gold", headers=bearer).status_code == 401
    fresh = app.test_client()
    refused = fresh.post("/login", data={"name": "Ann", "password": PASSWORD, "csrf_token": csrf(fresh)})
    assert refused.status_code == 200 and "Wrong name or password." in refused.get_data(as_text=True)


def test_a_changed_role_takes_effect_at_once(client, session, ada):
    add_account(session, "Ann", ANNOTATOR)
    log_in(client, "Ann")
    assert client.get("/users").status_code == 403
    set_role(session, "Ann", ADMIN)
    session.commit()
    assert client.get("/users").status_code == 200


def test_the_last_enabled_admin_cannot_be_disabled_or_demoted(session, ada):
    with pytest.raises(AccountError, match="last enabled admin"):
        set_disabled(session, "Ada", True)
    with pytest.raises(AccountError, match="last enabled admin"):
        set_role(session, "Ada", REVIEWER)
    add_account(session, "Bo", ADMIN)
    set_role(session, "Ada", REVIEWER)


@pytest.mark.parametrize("name,password,message", [("Ada", PASSWORD, "exists already"), ("Bo", "short", "8 characters"),
                                                   ("  ", PASSWORD, "1 to 100")])
def test_add_user_refuses_what_would_not_work(session, ada, name, password, message):
    with pytest.raises(AccountError, match=message):
        add_user(session, name, ANNOTATOR, password)


def test_passwords_are_stored_as_argon2id_hashes(session, ada):
    assert ada.password_hash.startswith("$argon2id$") and PASSWORD not in ada.password_hash


def test_a_bearer_token_saves_gold_without_csrf_and_records_its_user(app, session, ada):
    page = make_page(session)
    secret = issue(session, add_account(session, "Ann", ANNOTATOR), TOKEN)
    session.commit()
    client = app.test_client()
    saved = client.post(f"/api/pages/{page.id}/gold", json=SAVE, headers={"Authorization": f"Bearer {secret}"})
    assert saved.status_code == 200, saved.get_json()
    assert session.scalar(select(Gold.author)) == "Ann"
    read = client.get(f"/api/pages/{page.id}/gold", headers={"Authorization": f"Bearer {secret}"})
    assert read.get_json()["text"] == "Saved by a script"
    assert client.get_cookie("session") is None  # nothing of the token's request lives in a cookie


def test_a_bearer_token_does_not_lend_its_user_to_a_cookie(app, client, session, ada):
    """A request with a token is the token's user's, whatever cookie comes with it; a wrong token is 401
    even beside a good login."""
    page = make_page(session)
    add_account(session, "Ann", ANNOTATOR)
    log_in(client, "Ada")
    response = client.post(f"/api/pages/{page.id}/gold", json=SAVE, headers={"Authorization": "Bearer gt_wrong"})
    assert response.status_code == 401 and response.headers["WWW-Authenticate"].startswith("Bearer")
    assert session.scalar(select(Gold.id)) is None


def test_a_token_is_stored_only_as_its_hash(session, ada):
    secret = issue(session, ada, TOKEN)
    session.commit()
    stored = session.scalars(select(Credential.digest)).all()
    assert stored == [digest(secret)] and secret not in stored


# --- goldtext users --------------------------------------------------------------------------------------


def test_users_commands(app, runner, session, tmp_path):
    secret = tmp_path / "password"
    secret.write_text(PASSWORD + "\n")
    assert runner.invoke(args=["users", "add", "Ada", "--role", "admin", "--password-file", str(secret)]).exit_code == 0
    prompted = runner.invoke(args=["users", "add", "Ann", "--role", "annotator"], input="typed password\n" * 2)
    assert prompted.exit_code == 0, prompted.output
    assert runner.invoke(args=["users", "set-role", "Ann", "reviewer"]).exit_code == 0
    assert runner.invoke(args=["users", "disable", "Ann"]).exit_code == 0
    listed = runner.invoke(args=["users", "list"]).output.splitlines()
    assert [line.split() for line in listed] == [["Ada", "admin", "enabled"], ["Ann", "reviewer", "disabled"]]
    assert runner.invoke(args=["users", "enable", "Ann"]).exit_code == 0
    client = app.test_client()
    log_in(client, "Ann", "typed password")
    token = runner.invoke(args=["users", "token", "Ada"]).output.strip()
    assert token.startswith("gt_")
    assert client.get("/api/leaderboard", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    failed = runner.invoke(args=["users", "set-role", "Nobody", "admin"])
    assert failed.exit_code == 1 and "no user named 'Nobody'" in failed.output


def test_users_page_adds_changes_and_hands_out_a_token_once(client, session, ada):
    token = log_in(client, "Ada")
    added = client.post("/users", data={"name": "Ann", "role": "annotator", "password": PASSWORD, "csrf_token": token})
    assert added.status_code == 302
    ann_id = session.scalar(select(User.id).where(User.name == "Ann"))
    session.rollback()
    client.post(f"/users/{ann_id}/role", data={"role": "reviewer", "csrf_token": token})
    shown = client.post(f"/users/{ann_id}/token", data={"csrf_token": token})
    assert shown.headers["Cache-Control"] == "no-store"
    secret = shown.get_data(as_text=True).split('<code class="token">')[1].split("</code>")[0]
    assert client.get("/users").get_data(as_text=True).count(secret) == 0  # shown once
    client.post(f"/users/{ann_id}/disabled", data={"disabled": "on", "csrf_token": token})
    ann = session.get(User, ann_id)
    assert (ann.role, ann.disabled) == ("reviewer", True)
    assert client.get("/api/leaderboard", headers={"Authorization": f"Bearer {secret}"}).status_code == 401


def test_user_names_are_escaped_on_the_users_page(client, session, ada):
    add_account(session, "<b>Eve</b>", ANNOTATOR)
    log_in(client, "Ada")
    text = client.get("/users").get_data(as_text=True)
    assert "<b>Eve</b>" not in text and "&lt;b&gt;Eve&lt;/b&gt;" in text
