"""Logging in and out, one's own account (change the password, log out everywhere), and the admins'
users page: add a user, change a role, disable or enable, hand out an API token (shown once), revoke a
user's tokens, log a user out everywhere, clear a user's login wait. Each change is one use-case call
(usecases/own_account.py, usecases/manage_accounts.py), the same as `goldtext users` makes.

No write transaction waits on a password hash: the login and the password change commit before the
Argon2 check and record its outcome in a transaction of their own (webapp/accounts/login.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

from ..accounts import devices, throttle
from ..accounts.credentials import LOGIN, TOKEN, token_counts
from ..accounts.devices import device_cookie, known_device
from ..accounts.login import LoginOutcome, LoginPolicy, begin, finish, refused, verify
from ..accounts.names import printable
from ..accounts.roles import ROLES
from ..accounts.users import AccountError, accounts_exist, hashed, list_users, password_problem
from ..models import User
from ..usecases.manage_accounts import (
    add_account,
    change_role,
    disable_account,
    enable_account,
    log_user_out,
    new_token,
    revoke_user_tokens,
    unlock_account,
)
from ..usecases.outcome import Refused
from ..usecases.own_account import change_own_password, log_out, log_out_everywhere, wrong_current_password
from ..web.access import CREATE_ACCOUNT, LOGIN_KEY, identity
from ..web.acting import actor
from ..web.app_settings import settings
from ..web.db import get_or_404, get_session
from ..web.redirects import asked_target
from ..web.refusals import refuse
from ..web.request_input import FLAG, TEXT, Form, posted

T = TypeVar("T")

LOGIN_FORM = Form({"name": TEXT, "password": TEXT}, {"name": "", "password": ""})
KEEP_TOKENS = Form({"keep_tokens": FLAG})
PASSWORD_FORM = Form({"current": TEXT, "password": TEXT, "confirm": TEXT, **KEEP_TOKENS.fields},
                     {"current": "", "password": ""}, frozenset({"confirm"}))
"""One's own new password: the current one, the new one and its confirmation (left out: not asked)."""
ACCOUNT_FORM = Form({"name": TEXT, "role": TEXT, "password": TEXT}, {"name": "", "role": "", "password": ""})
ROLE_FORM = Form({"role": TEXT}, {"role": ""})
DISABLED_FORM = Form({"disabled": FLAG})
bp = Blueprint("accounts", __name__)
bp.add_app_template_filter(printable, "printable")  # user text with control characters escaped (/audit)


def policy() -> LoginPolicy:
    """LOGIN_MAX_FAILURES, LOGIN_WINDOW_MINUTES, SESSION_HOURS."""
    return settings().serving.login


def wait_text(wait: timedelta) -> str:
    seconds = max(int(wait.total_seconds() + 0.999), 1)
    if seconds < 120:
        return "1 second" if seconds == 1 else f"{seconds} seconds"
    return f"{(seconds + 59) // 60} minutes"


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int, dict[str, str]]:
    target = asked_target() or url_for("queue.index")
    db = get_session()
    if request.method == "GET":
        return render_template("accounts/login.html", target=target, name="", local=not accounts_exist(db),
                               create=CREATE_ACCOUNT)
    form = posted(LOGIN_FORM)
    name, password = form["name"].strip(), form["password"]

    def again(message: str, status: int, headers: dict[str, str] | None = None):
        page = render_template("accounts/login.html", target=target, name=name, local=False, error=message,
                               create=CREATE_ACCOUNT)
        return page, status, headers or {}

    problem = password_problem(password) or ("a name cannot hold a NUL character" if "\x00" in name else None)
    if problem is not None:
        return again(f"Not checked: {problem}.", 400)
    device = this_device(name)
    outcome = checked_login(name, password, device)
    if outcome.wait is not None:
        return again(f"Too many failed logins for this name or from this address: wait {wait_text(outcome.wait)} "
                     "and try again. A browser you have logged in with before is not kept waiting by "
                     "failures elsewhere.", 429,
                     {"Retry-After": str(max(int(outcome.wait.total_seconds() + 0.999), 1))})
    if outcome.secret is None or outcome.user is None:
        return again("Wrong name or password.", 200)
    session.clear()  # a new session for the new login: nothing of the one before carries over
    session[LOGIN_KEY] = outcome.secret  # a cookie for this browser session; the login itself ends at SESSION_HOURS
    response = redirect(target)
    response.set_cookie(devices.COOKIE, device_cookie(current_app.secret_key or "", outcome.user.name, device),
                        max_age=int(devices.LIFETIME.total_seconds()), httponly=True, samesite="Lax",
                        secure=settings().serving.secure_cookies)
    return response


def this_device(name: str) -> str | None:
    """The id of this browser's device cookie when it is valid for the name (webapp/accounts/devices.py)."""
    return known_device(current_app.secret_key or "", request.cookies.get(devices.COOKIE), name)


def checked_login(name: str, password: str, device: str | None) -> LoginOutcome:
    """The three steps of a login, each transaction committed before the password hash is checked."""
    db = get_session()
    attempt = begin(db, name, address(), policy(), device)
    db.commit()
    if attempt.wait is not None:
        return refused(attempt)
    new_hash = verify(attempt, password)  # no transaction open
    outcome = finish(db, attempt, new_hash, policy())
    db.commit()
    return outcome


def address() -> str:
    """The client's address: the proxy's header's when PROXY_HOPS trusts it (webapp/web/access.py)."""
    return request.remote_addr or ""


@bp.post("/logout")
def logout() -> Response:
    who = identity()
    secret = session.get(LOGIN_KEY)
    if who.user is not None and who.via == "login" and isinstance(secret, str):
        log_out(get_session(), actor(), who.user, secret)
        get_session().commit()
    session.clear()
    return redirect(url_for("accounts.login"))


@bp.get("/account")
def account() -> Response | str:
    who = identity()
    if who.user is None:
        flash("This Goldtext has no accounts yet: there is no password to change.")
        return redirect(url_for("queue.index"))
    tokens = token_counts(get_session()).get(who.user.id, 0)
    return render_template("accounts/account.html", user=who.user, tokens=tokens)


def own_user() -> User:
    """The user logged in in this browser (an API token may not change its user's password or sessions)."""
    who = identity()
    if who.user is None:
        abort(400, description="This Goldtext has no accounts yet: there is no password to change.")
    if who.via != "login":
        abort(400, description="Your password and sessions are changed from a browser login, not with an API token.")
    return who.user


@bp.post("/account/password")
def change_password() -> Response | tuple[str, int, dict[str, str]]:
    """The user's own new password, after the current one: every other session ends, and the API tokens
    unless kept; this browser stays logged in with a new login (usecases/own_account.py)."""
    db, user = get_session(), own_user()
    form = posted(PASSWORD_FORM)
    current, new = form["current"], form["password"]
    problem = password_problem(current) or password_problem(new)
    if form["confirm"] is not None and new != form["confirm"]:
        problem = "the new password and its confirmation differ"
    if problem is not None:
        abort(400, description=f"Password not changed: {problem}.")
    device = this_device(user.name)
    attempt = begin(db, user.name, address(), policy(), device)  # the throttle guards the current password too
    db.commit()
    if attempt.wait is not None:
        abort(429, description=f"Too many wrong passwords: wait {wait_text(attempt.wait)} and try again.")
    try:
        new_hash = hashed(new) if verify(attempt, current) is not None else None  # no transaction open
    except AccountError as error:
        abort(400, description=f"Password not changed: {error}.")
    keep = form["keep_tokens"]
    try:
        if new_hash is None:
            wrong_current_password(db, actor(), user)
            db.commit()
            flash("Password not changed: the current password is wrong.")
            return redirect(url_for("accounts.account"))
        session[LOGIN_KEY] = change_own_password(db, actor(), user, new_hash, keep_tokens=keep,
                                                 lifetime=policy().lifetime, device=device)
    except Refused as error:
        refuse(error)
    db.commit()
    flash("Password changed. Every other session has ended" + (", your API tokens still work." if keep else
                                                              ", and your API tokens no longer work."))
    return redirect(url_for("accounts.account"))


@bp.post("/account/logout-everywhere")
def logout_everywhere() -> Response:
    """End every session of the user, this one too, and their API tokens unless kept."""
    db, user = get_session(), own_user()
    try:
        log_out_everywhere(db, actor(), user, keep_tokens=posted(KEEP_TOKENS)["keep_tokens"])
    except Refused as error:
        refuse(error)
    db.commit()
    session.clear()
    return redirect(url_for("accounts.login"))


@bp.get("/users")
def users() -> str:
    db = get_session()
    people = list_users(db)
    return render_template("accounts/users.html", users=people, roles=ROLES, tokens=token_counts(db),
                           waits={n: wait_text(w) for n, w in throttle.waiting(db, [u.name for u in people]).items()},
                           new_token=None)


def _done(change: Callable[[], T]) -> T:
    """The use case's answer, its refusal answered with its status and reason."""
    try:
        return change()
    except Refused as error:
        refuse(error)


def _changed() -> Response:
    get_session().commit()
    return redirect(url_for("accounts.users"))


def _named(user_id: int) -> str:
    return get_or_404(get_session(), User, user_id).name


@bp.post("/users")
def add() -> Response:
    db = get_session()
    db.commit()  # end the read of who is asking: no transaction stays open while the password is hashed
    try:
        form = posted(ACCOUNT_FORM)
        user = add_account(db, actor(), form["name"], form["role"], form["password"])
    except Refused as error:
        if error.status != 400:
            refuse(error)
        flash(f"Not added: {error.reason}.")
        return redirect(url_for("accounts.users"))
    flash(f"{user.name} added as {user.role}." + (" Login is now required: log in with an account." if
                                                    identity().local else ""))
    return _changed()


@bp.post("/users/<int:user_id>/role")
def role(user_id: int) -> Response:
    name = _named(user_id)
    _done(lambda: change_role(get_session(), actor(), name, posted(ROLE_FORM)["role"]))
    return _changed()


@bp.post("/users/<int:user_id>/disabled")
def disable(user_id: int) -> Response:
    name = _named(user_id)
    if not posted(DISABLED_FORM)["disabled"]:
        _done(lambda: enable_account(get_session(), actor(), name))
        return _changed()
    freed = _done(lambda: disable_account(get_session(), actor(), name))
    if freed:
        flash(f"{name}'s {freed} assignment(s) were removed: their places are free for others.")
    return _changed()


@bp.post("/users/<int:user_id>/token")
def token(user_id: int) -> Response:
    """A new API token, shown on this answer only (never stored, never cached)."""
    db, name = get_session(), _named(user_id)
    secret = _done(lambda: new_token(db, actor(), name))
    db.commit()
    response = make_response(render_template("accounts/users.html", users=list_users(db), roles=ROLES,
                                             tokens=token_counts(db), waits={}, new_token=(name, secret)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/users/<int:user_id>/tokens/revoke")
def revoke_tokens_of(user_id: int) -> Response:
    name = _named(user_id)
    count = _done(lambda: revoke_user_tokens(get_session(), actor(), name))
    flash(f"{count} token(s) of {name} revoked.")
    return _changed()


@bp.post("/users/<int:user_id>/logout")
def logout_user(user_id: int) -> Response:
    """Log the user out everywhere: every session and every API token."""
    name = _named(user_id)
    ended = _done(lambda: log_user_out(get_session(), actor(), name))
    flash(f"{name} is logged out everywhere ({ended[LOGIN]} session(s), {ended[TOKEN]} token(s)).")
    return _changed()


@bp.post("/users/<int:user_id>/unlock")
def unlock(user_id: int) -> Response:
    """Clear the login throttle's wait for the user's name (the per-address count stays)."""
    name = _named(user_id)
    cleared = _done(lambda: unlock_account(get_session(), actor(), name))
    flash(f"{name} may log in again at once." if cleared else f"{name} had no login wait.")
    return _changed()
