"""Accounts: logging in and out, expiring sessions, the login throttle, disabled users and changed roles
taking effect at once, API tokens on the gold save, and `goldtext users`."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from app_settings import reconfigure
from argon2 import PasswordHasher
from sqlalchemy import create_engine, func, select, text, update
from workbench import PASSWORD, add_account, csrf, log_in, make_page

from webapp import create_app
from webapp.accounts import audit_log, throttle, users
from webapp.accounts.credentials import TOKEN, digest, issue
from webapp.accounts.roles import ADMIN, ANNOTATOR, REVIEWER
from webapp.accounts.users import PASSWORD_MAX_BYTES, AccountError, add_user, set_disabled, set_role
from webapp.cli.actor import cli_actor
from webapp.foundation.engine import sqlite_path
from webapp.models import AuditEvent, Credential, Gold, GoldRevision, LoginThrottle, User, utcnow
from webapp.web.db import dispose

SAVE = {"text": "Saved by a script", "type": "article", "status": "done", "version": 0, "client_save_id": "s1"}


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


def test_an_unknown_name_costs_a_password_check_as_a_known_one_does(client, ada, monkeypatch):
    """No timing to tell a wrong name from a wrong password: both check the password against an Argon2 hash."""
    checked: list[str] = []
    real = users.matches
    monkeypatch.setattr(users, "matches", lambda hashed, password: checked.append(hashed) or real(hashed, password))
    for name in ("Ada", "Nobody"):
        client.post("/login", data={"name": name, "password": "wrong password", "csrf_token": csrf(client)})
    assert len(checked) == 2 and all(hashed.startswith("$argon2id$") for hashed in checked)
    assert checked[1] == users.unknown_hash() != checked[0]


def test_the_login_form_only_redirects_to_this_site(client, ada):
    response = client.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": csrf(client),
                                           "next": "//evil.example/"})
    assert response.location == "/"


def test_a_login_expires_after_session_hours(app, client, session, ada):
    reconfigure(app, SESSION_HOURS=2.0)
    log_in(client, "Ada")
    assert client.get("/").status_code == 200
    (expires,) = session.scalars(select(Credential.expires_at)).all()
    session.execute(update(Credential).values(expires_at=utcnow() - timedelta(seconds=1)))
    session.commit()
    assert client.get("/").location.startswith("/login?next=")
    assert expires is not None


def test_too_many_failed_logins_are_throttled_even_with_the_right_password(app, client, ada, clock):
    reconfigure(app, LOGIN_MAX_FAILURES=3)
    for _ in range(3):
        client.post("/login", data={"name": "Ada", "password": "wrong password", "csrf_token": csrf(client)})
    response = client.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": csrf(client)})
    assert response.status_code == 429 and "Too many failed logins" in response.get_data(as_text=True)
    other = app.test_client()  # another web process would count the same rows: they are in the database
    again = other.post("/login", data={"name": "Ada", "password": PASSWORD, "csrf_token": csrf(other)})
    assert again.status_code == 429
    clock.now += timedelta(seconds=1)  # the wait has passed
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


# --- logins that hold no lock, a throttle that cannot be raced or turned against the user --------


class WatchedHasher(PasswordHasher):
    """The tests' quick Argon2 parameters, watching every password check: how many there were, and what
    else was true while each ran (`during`, called inside the check)."""

    def __init__(self, during=None, pause: float = 0.0) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.during, self.pause = during, pause
        self.checks: list = []
        self.hashes: list = []  # what `during` saw while a new password was hashed
        self.lock = threading.Lock()

    def verify(self, hash, password) -> bool:
        seen = self.during() if self.during is not None else None
        time.sleep(self.pause)  # a real hash's cost: the window in which a racing attempt could slip in
        with self.lock:
            self.checks.append(seen)
        return super().verify(hash, password)

    def hash(self, password, *, salt=None) -> str:
        if self.during is not None:
            self.hashes.append(self.during())
        return super().hash(password, salt=salt)


def open_transactions(url: str) -> list[str]:
    """The transactions open on the database besides this check's own: SQLite's write lock held (a
    `BEGIN IMMEDIATE` that cannot start at once), or PostgreSQL's sessions inside a transaction."""
    path = sqlite_path(url)
    if path is not None:
        probe = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            return []
        except sqlite3.OperationalError as error:
            return [str(error)]
        finally:
            probe.close()
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [f"{row.state}: {row.query}" for row in conn.execute(text(
                "SELECT state, query FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"))]
    finally:
        engine.dispose()


@pytest.fixture
def watched(app, monkeypatch) -> Iterator[WatchedHasher]:
    hasher = WatchedHasher(during=lambda: open_transactions(app.config["DATABASE_URL"]))
    monkeypatch.setattr(users, "HASHER", hasher)
    users.unknown_hash.cache_clear()  # the process's hash of nothing is made under watch (an earlier test made it)
    yield hasher
    users.unknown_hash.cache_clear()


def test_no_transaction_is_open_while_a_login_or_a_password_change_checks_the_password(app, client, runner, session,
                                                                                         ada, watched, tmp_path):
    """A flood of wrong logins cannot hold up saves: the Argon2 check runs with no transaction (and so no
    write lock on SQLite) open; the attempt is counted before and its outcome recorded after."""
    session.commit()
    wrong = client.post("/login", data={"name": "Ada", "password": "wrong password", "csrf_token": csrf(client)})
    assert "Wrong name or password." in wrong.get_data(as_text=True)
    nobody = client.post("/login", data={"name": "Nobody", "password": "wrong password", "csrf_token": csrf(client)})
    assert "Wrong name or password." in nobody.get_data(as_text=True)
    token = log_in(client, "Ada")
    changed = client.post("/account/password", data={"current": PASSWORD, "password": "a new long password",
                                                     "confirm": "a new long password", "csrf_token": token})
    assert changed.status_code == 302
    assert watched.checks == [[], [], [], []]
    session.rollback()
    assert session.scalar(select(func.count()).where(AuditEvent.action == "login.failed")) == 2
    session.rollback()
    added = client.post("/users", data={"name": "Bo", "role": "annotator", "password": PASSWORD, "csrf_token": token})
    assert added.status_code == 302
    secret = tmp_path / "password"
    secret.write_text("another long password\n")
    assert runner.invoke(args=["users", "password", "Bo", "--password-file", str(secret)]).exit_code == 0
    # the hash of nothing an unknown name is checked against (made at Nobody's login, with no transaction open,
    # as a process's first unknown name makes it), then the new passwords: Ada's own, Bo's on the Users page and
    # the CLI's
    assert watched.hashes == [[], [], [], []]


def test_parallel_wrong_logins_for_one_name_check_at_most_the_limit_of_passwords(app, session, ada, monkeypatch,
                                                                                   clock):
    """40 wrong logins at once for one name: the throttle counts and decides each in one atomic step, so
    no more than LOGIN_MAX_FAILURES passwords are checked (PostgreSQL checked 19 of 40 before). The
    throttle's clock stands still meanwhile: on a slow machine the burst could outlast the first wait."""
    hasher = WatchedHasher(pause=0.05)
    monkeypatch.setattr(users, "HASHER", hasher)
    start = threading.Barrier(40)
    statuses: list[int] = []

    def attempt(number: int) -> None:
        client = app.test_client()
        token = csrf(client)
        start.wait(timeout=60)
        response = client.post("/login", data={"name": "Ada", "password": f"guess {number}", "csrf_token": token},
                               environ_base={"REMOTE_ADDR": f"198.51.100.{number}"})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(hasher.checks) == 5
    assert sorted(statuses) == [200] * 5 + [429] * 35


@pytest.fixture
def clock(monkeypatch):
    """The throttle's clock, moved by hand: clock.now += timedelta(...)."""
    class Clock:
        now = utcnow()

    monkeypatch.setattr(throttle, "utcnow", lambda: Clock.now)
    return Clock


def attempt_login(client, name: str, password: str, address: str = "192.0.2.1"):
    return client.post("/login", data={"name": name, "password": password, "csrf_token": csrf(client)},
                       environ_base={"REMOTE_ADDR": address})


def test_an_attacker_slows_down_but_never_locks_out_the_real_user(app, client, session, ada, clock):
    """After LOGIN_MAX_FAILURES failures each further one doubles the wait; refused attempts check no
    password and do not extend it, so an attacker trying every few seconds does not keep Ada out."""
    reconfigure(app, LOGIN_MAX_FAILURES=3)
    for _ in range(3):
        assert attempt_login(client, "Ada", "wrong password").status_code == 200
    refused = attempt_login(client, "Ada", PASSWORD)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert "wait 1 second and try again" in refused.get_data(as_text=True)
    for _ in range(5):  # the attacker keeps knocking: each is refused, none extends the wait
        clock.now += timedelta(seconds=0.15)
        assert attempt_login(client, "Ada", "wrong password", "203.0.113.7").status_code == 429
    clock.now += timedelta(seconds=0.3)
    assert attempt_login(client, "Ada", "wrong password", "203.0.113.7").status_code == 200  # the 4th failure
    assert attempt_login(client, "Ada", PASSWORD).headers["Retry-After"] == "2"  # the wait has doubled
    clock.now += timedelta(seconds=2)
    assert attempt_login(client, "Ada", PASSWORD).status_code == 302  # the real user gets in
    clock.now += timedelta(seconds=0.01)
    assert attempt_login(app.test_client(), "Ada", "wrong password").status_code == 200  # a fresh start


def test_a_name_s_wait_keeps_growing_past_the_window_and_an_address_s_stops_at_it(app, client, ada, clock):
    """Unknown devices wait ever longer for a name that keeps failing (to a day); an address's wait stops at
    the window, so an office behind one address is never kept out for long."""
    reconfigure(app, LOGIN_MAX_FAILURES=1, LOGIN_WINDOW_MINUTES=1.0)
    waits = []
    for number in range(20):  # each failure from an address of its own, once the wait is over
        assert attempt_login(client, "Ada", "wrong password", f"198.51.100.{number}").status_code == 200
        waits.append(int(attempt_login(client, "Ada", "wrong password").headers["Retry-After"]))
        clock.now += timedelta(seconds=waits[-1])
    assert waits[:10] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]  # past the window's 60 s
    assert waits[-3:] == [int(throttle.NAME_MAX_WAIT.total_seconds())] * 3

    address_waits = []
    for number in range(12):  # one address, ever new names: its count only
        attempt_login(client, f"someone {number}", "wrong password", "203.0.113.5")
        refused = attempt_login(client, f"someone else {number}", "wrong password", "203.0.113.5")
        address_waits.append(int(refused.headers.get("Retry-After", 0)))
        clock.now += timedelta(seconds=address_waits[-1])
    assert max(address_waits) == 60 and address_waits[-1] == 60


def test_an_address_is_limited_on_failures_only_and_its_users_still_get_in(app, client, session, ada, clock):
    """One office behind one address: 20 failures over many names delay the address a little, refused
    attempts add nothing, and a right password from there gets in once the short wait is over."""
    add_account(session, "Ann", ANNOTATOR)
    for number in range(20):
        assert attempt_login(client, f"someone {number}", "wrong password").status_code == 200
    assert attempt_login(client, "Ann", PASSWORD).status_code == 429
    assert attempt_login(client, "Ann", PASSWORD, "192.0.2.99").status_code == 302  # another address: at once
    for _ in range(10):
        clock.now += timedelta(seconds=0.09)
        assert attempt_login(client, "Ada", "wrong password").status_code == 429
    clock.now += timedelta(seconds=0.2)
    assert attempt_login(app.test_client(), "Ada", PASSWORD).status_code == 302


def test_guessing_with_ever_new_names_does_not_grow_the_throttle_table(app, client, session, ada, clock):
    """Each attempt deletes the rows that have forgotten their failures: once a window has passed since
    their last wait, the old names' and addresses' rows are gone."""
    reconfigure(app, LOGIN_MAX_FAILURES=1, LOGIN_WINDOW_MINUTES=1.0)
    for number in range(6):
        attempt_login(client, f"guess {number}", "wrong password", f"198.51.100.{number}")
    assert attempt_login(client, "Ada", "wrong password").status_code == 200  # Ada waits from now on
    session.rollback()
    assert session.scalar(select(func.count()).select_from(LoginThrottle)) == 14
    session.rollback()
    clock.now += timedelta(seconds=61)
    attempt_login(client, "Ann", "wrong password", "192.0.2.8")
    session.rollback()
    left = session.scalars(select(LoginThrottle.key).order_by(LoginThrottle.key)).all()
    assert left == ["address:192.0.2.8", "name:ann"]


def test_the_client_address_comes_from_the_proxy_header_only_when_proxy_hops_says_so(app, session, ada):
    forwarded = {"X-Forwarded-For": "203.0.113.50"}
    client = app.test_client()
    client.post("/login", data={"name": "Ada", "password": "wrong", "csrf_token": csrf(client)}, headers=forwarded)
    behind = create_app({**app.config, "PROXY_HOPS": 1})
    try:
        proxied = behind.test_client()
        proxied.post("/login", data={"name": "Ada", "password": "wrong", "csrf_token": csrf(proxied)},
                     headers=forwarded)
    finally:
        dispose(behind)
    session.rollback()
    addresses = session.scalars(select(AuditEvent.address).where(AuditEvent.action == "login.failed")
                                .order_by(AuditEvent.id)).all()
    assert addresses == ["127.0.0.1", "203.0.113.50"]


def test_an_admin_clears_a_login_wait_from_the_users_page_or_the_command_line(app, client, runner, session, ada):
    add_account(session, "Ann", ANNOTATOR)
    reconfigure(app, LOGIN_MAX_FAILURES=2)
    for _ in range(2):
        attempt_login(client, "Ann", "wrong password")
    assert attempt_login(client, "Ann", PASSWORD).status_code == 429
    admin = app.test_client()
    token = log_in(admin, "Ada")
    page = admin.get("/users").get_data(as_text=True)
    assert "login waits 1 second" in page and "clear the login wait of Ann" in page
    ann_id = session.scalar(select(User.id).where(User.name == "Ann"))
    session.rollback()
    assert admin.post(f"/users/{ann_id}/unlock", data={"csrf_token": token}).status_code == 302
    assert attempt_login(client, "Ann", PASSWORD).status_code == 302
    for _ in range(2):
        attempt_login(client, "Ann", "wrong password")
    result = runner.invoke(args=["users", "unlock", "Ann"])
    assert result.exit_code == 0 and "may log in at once" in result.output
    assert attempt_login(client, "Ann", PASSWORD).status_code == 302
    session.rollback()
    assert session.scalars(select(AuditEvent.actor).where(AuditEvent.action == "user.unlock")
                           .order_by(AuditEvent.id)).all() == ["Ada", cli_actor()]


# --- a new password, a disable and "log out everywhere" end every session ---------------------


@pytest.fixture
def ann_logged_in(app, session, ada):
    """Ann logged in in one browser, with an API token; returns (that browser, the token's header)."""
    ann = add_account(session, "Ann", ANNOTATOR)
    secret = issue(session, ann, TOKEN)
    session.commit()
    browser = app.test_client()
    log_in(browser, "Ann")
    bearer = {"Authorization": f"Bearer {secret}"}
    assert browser.get("/").status_code == 200 and browser.get("/api/leaderboard", headers=bearer).status_code == 200
    return browser, bearer


def still_in(app, browser, bearer) -> tuple[bool, bool]:
    """Whether the old cookie and the old token still answer."""
    token_answers = app.test_client().get("/api/leaderboard", headers=bearer).status_code == 200
    return browser.get("/").status_code == 200, token_answers


def test_a_new_password_set_on_the_command_line_ends_sessions_and_tokens(app, runner, tmp_path, ann_logged_in):
    browser, bearer = ann_logged_in
    secret = tmp_path / "password"
    secret.write_text("another long password\n")
    result = runner.invoke(args=["users", "password", "Ann", "--password-file", str(secret)])
    assert result.exit_code == 0, result.output
    assert still_in(app, browser, bearer) == (False, False)


def test_keep_tokens_keeps_the_tokens_working_after_a_new_password(app, runner, tmp_path, ann_logged_in):
    browser, bearer = ann_logged_in
    secret = tmp_path / "password"
    secret.write_text("another long password\n")
    result = runner.invoke(args=["users", "password", "Ann", "--password-file", str(secret), "--keep-tokens"])
    assert result.exit_code == 0, result.output
    assert still_in(app, browser, bearer) == (False, True)


def test_disabling_and_enabling_again_revives_no_old_cookie_or_token(app, runner, ann_logged_in):
    browser, bearer = ann_logged_in
    assert runner.invoke(args=["users", "disable", "Ann"]).exit_code == 0
    assert runner.invoke(args=["users", "enable", "Ann"]).exit_code == 0
    assert still_in(app, browser, bearer) == (False, False)
    log_in(app.test_client(), "Ann")  # the password still works: only the old sessions are gone


def test_log_out_everywhere_from_the_command_line_the_users_page_and_one_s_own_account(app, runner, session,
                                                                                       ann_logged_in):
    browser, bearer = ann_logged_in
    result = runner.invoke(args=["users", "logout", "Ann", "--keep-tokens"])
    assert result.exit_code == 0 and "1 session(s) ended" in result.output
    assert still_in(app, browser, bearer) == (False, True)
    admin = app.test_client()
    token = log_in(admin, "Ada")
    ann_id = session.scalar(select(User.id).where(User.name == "Ann"))
    session.rollback()
    log_in(browser, "Ann")
    assert admin.post(f"/users/{ann_id}/logout", data={"csrf_token": token}).status_code == 302
    assert still_in(app, browser, bearer) == (False, False)
    other = app.test_client()
    log_in(other, "Ann")
    own = log_in(browser, "Ann")
    assert browser.post("/account/logout-everywhere", data={"csrf_token": own}).location == "/login"
    assert other.get("/").location.startswith("/login?next=") and browser.get("/").location.startswith("/login")


def test_an_annotator_changes_their_own_password_after_giving_the_current_one(app, session, ann_logged_in):
    browser, bearer = ann_logged_in
    other = app.test_client()
    log_in(other, "Ann")
    token = csrf(browser)
    form = {"current": "not my password", "password": "my new password", "confirm": "my new password",
            "csrf_token": token}
    wrong = browser.post("/account/password", data=form, follow_redirects=True)
    assert "the current password is wrong" in wrong.get_data(as_text=True)
    assert still_in(app, other, bearer) == (True, True)
    mismatched = browser.post("/account/password", data={**form, "current": PASSWORD, "confirm": "typo"})
    assert mismatched.status_code == 400 and "differ" in mismatched.get_data(as_text=True)
    changed = browser.post("/account/password", data={**form, "current": PASSWORD}, follow_redirects=True)
    assert "Password changed" in changed.get_data(as_text=True)
    assert browser.get("/").status_code == 200  # this browser stays logged in
    assert still_in(app, other, bearer) == (False, False)  # every other session and the token ended
    log_in(app.test_client(), "Ann", "my new password")
    refused = attempt_login(app.test_client(), "Ann", PASSWORD)
    assert "Wrong name or password." in refused.get_data(as_text=True)


def test_the_account_page_is_for_a_browser_login_only(app, ann_logged_in):
    _browser, bearer = ann_logged_in
    response = app.test_client().post("/account/password", headers=bearer, data={"current": PASSWORD,
                                      "password": "my new password", "confirm": "my new password"})
    assert response.status_code == 400 and "API token" in response.get_data(as_text=True)


# --- names that cannot pass for someone else ---------------------------------------------------


@pytest.mark.parametrize("name,message", [
    ("cli:root", "colon"), ("local", "records for itself"), ("Import", "records for itself"),
    ("ann\u202e1nna", "control or invisible"), ("ann\n1", "control or invisible"), ("a\u200bnn", "invisible"),
    ("\u0430nn1", "mix Cyrillic and Latin"), ("Ad\u03b1", "mix Greek and Latin"),
])
def test_names_that_would_impersonate_are_refused(session, name, message):
    with pytest.raises(AccountError, match=message):
        add_user(session, name, ANNOTATOR, PASSWORD)


@pytest.mark.parametrize("existing,name", [("ann1", "ANN1"), ("ann1", "Ann1"), ("ann1", "ann 1"),
                                           ("cope", "\u0441\u043e\u0440\u0435"), ("axe", "\u0430\u0445\u0435")])
def test_names_differing_only_in_case_or_look_alike_letters_conflict(session, existing, name):
    add_user(session, existing, ANNOTATOR, PASSWORD)
    with pytest.raises(AccountError, match="exists already"):
        add_user(session, name, ANNOTATOR, PASSWORD)


def test_names_are_stored_nfkc_normalised_and_single_spaced(session):
    assert add_user(session, "\uff21nn  Lee", ANNOTATOR, PASSWORD).name == "Ann Lee"
    assert add_user(session, "Zoë Ōta", ANNOTATOR, PASSWORD).name == "Zoë Ōta"  # one script, accents: fine
    assert add_user(session, "\u0418\u0432\u0430\u043d", ANNOTATOR, PASSWORD).name == "Иван"  # all Cyrillic: fine


def test_a_refused_name_is_refused_on_the_command_line_and_the_users_page(client, runner, session, ada, tmp_path):
    secret = tmp_path / "password"
    secret.write_text(PASSWORD + "\n")
    result = runner.invoke(args=["users", "add", "cli:root", "--role", "admin", "--password-file", str(secret)])
    assert result.exit_code == 1 and "colon" in result.output
    token = log_in(client, "Ada")
    client.post("/users", data={"name": "ADA", "role": "admin", "password": PASSWORD, "csrf_token": token})
    assert "exists already" in client.get("/users").get_data(as_text=True)
    session.rollback()
    assert session.scalars(select(User.name)).all() == ["Ada"]


def test_the_audit_page_shows_control_characters_escaped(client, session, ada):
    audit_log.record(session, "ann\u202egnp.exe", "login.failed", "user x\u001b[31m", {"reason": "a\nb"}, "127.0.0.1")
    session.commit()
    log_in(client, "Ada")
    page = client.get("/audit").get_data(as_text=True)
    assert "\u202e" not in page and "\x1b" not in page
    assert "ann\\u202egnp.exe" in page and "user x\\x1b[31m" in page


# --- passwords of a sane size, password files that are text ------------------------------------


def test_a_huge_password_is_refused_before_any_hashing(app, client, session, ada, watched):
    huge = "x" * (PASSWORD_MAX_BYTES + 1)
    response = client.post("/login", data={"name": "Ada", "password": huge, "csrf_token": csrf(client)})
    assert response.status_code == 400 and "at most 1024 bytes" in response.get_data(as_text=True)
    assert watched.checks == []
    with pytest.raises(AccountError, match="at most 1024 bytes"):
        add_user(session, "Bo", ANNOTATOR, "é" * 513)  # 1026 bytes in UTF-8


@pytest.mark.parametrize("name,password", [("Ada\x00", PASSWORD), ("Ada", "pass\x00word long")])
def test_a_nul_in_a_login_is_a_clear_refusal(client, ada, watched, name, password):
    response = client.post("/login", data={"name": name, "password": password, "csrf_token": csrf(client)})
    assert response.status_code == 400 and "cannot hold a NUL character" in response.get_data(as_text=True)
    assert watched.checks == []


def test_the_login_and_account_routes_take_small_bodies_only(app, client, ada):
    response = client.post("/login", data={"name": "Ada", "password": "x" * 200_000, "csrf_token": csrf(client)})
    assert response.status_code == 413 and "65536 bytes, the limit of this route" in response.get_data(as_text=True)
    assert app.config["MAX_CONTENT_LENGTH"] == 512 * 2**20  # uploads keep theirs


@pytest.mark.parametrize("content,message", [(b"\xff\xfepassword\n", "not UTF-8"), (b"x" * 5000, "longer than")])
def test_a_password_file_that_is_not_a_password_is_a_clear_error(runner, tmp_path, content, message):
    secret = tmp_path / "password"
    secret.write_bytes(content)
    result = runner.invoke(args=["users", "add", "Ada", "--role", "admin", "--password-file", str(secret)])
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_password_file_dev_zero_is_a_clear_error(runner):
    result = runner.invoke(args=["users", "add", "Ada", "--role", "admin", "--password-file", "/dev/zero"])
    assert result.exit_code == 1 and "longer than a password may be (1024 bytes)" in result.output


@pytest.mark.parametrize("name", ["local", "import", "cli:root", "ann\u202e1", "\u0430nn1"])
def test_local_mode_refuses_a_typed_name_that_would_impersonate(client, name):
    """In local mode the typed name is every revision's author: it follows the same rules as a user's name."""
    token = csrf(client)
    response = client.post("/annotator", data={"name": name, "csrf_token": token})
    assert response.status_code == 200 and "That name cannot be used: " in response.get_data(as_text=True)
    with client.session_transaction() as cookie:
        assert "annotator" not in cookie
    assert client.post("/annotator", data={"name": " Ann  Lee ", "csrf_token": token}).status_code == 302
    with client.session_transaction() as cookie:
        assert cookie["annotator"] == "Ann Lee"
