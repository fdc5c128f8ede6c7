"""Logging in and out, and the admins' users page: add a user, change a role, disable or enable, hand
out an API token (shown once), revoke a user's tokens. The same services as `goldtext users`."""

from __future__ import annotations

from datetime import timedelta

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

from ..accounts.credentials import TOKEN, issue, revoke_tokens, token_counts
from ..accounts.login import LoginPolicy, log_in, log_out
from ..accounts.roles import ROLES
from ..accounts.users import AccountError, accounts_exist, add_user, list_users, set_disabled, set_role
from ..db import get_or_404, get_session
from ..models import User
from ..web.access import CREATE_ACCOUNT, LOGIN_KEY, identity
from .common import local_target, record

bp = Blueprint("accounts", __name__)


def policy() -> LoginPolicy:
    config = current_app.config
    return LoginPolicy(int(config["LOGIN_MAX_FAILURES"]), timedelta(minutes=float(config["LOGIN_WINDOW_MINUTES"])),
                       timedelta(hours=float(config["SESSION_HOURS"])))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    target = local_target(request.values.get("next")) or url_for("queue.index")
    db = get_session()
    if request.method == "GET":
        return render_template("accounts/login.html", target=target, name="", local=not accounts_exist(db),
                               create=CREATE_ACCOUNT)
    name = request.form.get("name", "").strip()
    outcome = log_in(db, name, request.form.get("password", ""), request.remote_addr or "", policy())
    db.commit()
    if outcome.secret is None:
        message = ("Too many failed logins: wait a few minutes and try again." if outcome.throttled
                   else "Wrong name or password.")
        page = render_template("accounts/login.html", target=target, name=name, local=False, error=message,
                               create=CREATE_ACCOUNT)
        return page, 429 if outcome.throttled else 200
    session.clear()  # a new session for the new login: nothing of the one before carries over
    session[LOGIN_KEY] = outcome.secret  # a cookie for this browser session; the login itself ends at SESSION_HOURS
    return redirect(target)


@bp.post("/logout")
def logout() -> Response:
    who = identity()
    secret = session.get(LOGIN_KEY)
    if who.user is not None and who.via == "login" and isinstance(secret, str):
        log_out(get_session(), who.user, secret, request.remote_addr or "")
        get_session().commit()
    session.clear()
    return redirect(url_for("accounts.login"))


@bp.get("/users")
def users() -> str:
    db = get_session()
    return render_template("accounts/users.html", users=list_users(db), roles=ROLES, tokens=token_counts(db),
                           new_token=None)


def _changed(action: str, user: User, detail: dict | None = None) -> Response:
    record(action, f"user {user.name}", detail)
    get_session().commit()
    return redirect(url_for("accounts.users"))


@bp.post("/users")
def add() -> Response:
    db = get_session()
    try:
        user = add_user(db, request.form.get("name", ""), request.form.get("role", ""),
                        request.form.get("password", ""))
    except AccountError as error:
        flash(f"Not added: {error}.")
        return redirect(url_for("accounts.users"))
    flash(f"{user.name} added as {user.role}." + (" Login is now required: log in with an account." if
                                                    identity().local else ""))
    return _changed("user.add", user, {"role": user.role})


@bp.post("/users/<int:user_id>/role")
def role(user_id: int) -> Response:
    user = get_or_404(get_session(), User, user_id)
    try:
        set_role(get_session(), user.name, request.form.get("role", ""))
    except AccountError as error:
        abort(400, description=str(error))
    return _changed("user.role", user, {"role": user.role})


@bp.post("/users/<int:user_id>/disabled")
def disable(user_id: int) -> Response:
    user = get_or_404(get_session(), User, user_id)
    disabled = request.form.get("disabled") == "on"
    try:
        set_disabled(get_session(), user.name, disabled)
    except AccountError as error:
        abort(400, description=str(error))
    return _changed("user.disable" if disabled else "user.enable", user)


@bp.post("/users/<int:user_id>/token")
def token(user_id: int) -> Response:
    """A new API token, shown on this answer only (never stored, never cached)."""
    db = get_session()
    user = get_or_404(db, User, user_id)
    secret = issue(db, user, TOKEN)
    record("user.token", f"user {user.name}")
    db.commit()
    response = make_response(render_template("accounts/users.html", users=list_users(db), roles=ROLES,
                                             tokens=token_counts(db), new_token=(user.name, secret)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/users/<int:user_id>/tokens/revoke")
def revoke_tokens_of(user_id: int) -> Response:
    user = get_or_404(get_session(), User, user_id)
    count = revoke_tokens(get_session(), user)
    flash(f"{count} token(s) of {user.name} revoked.")
    return _changed("user.revoke-tokens", user, {"tokens": count})
