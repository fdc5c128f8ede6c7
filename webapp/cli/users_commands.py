"""`goldtext users`: accounts from the command line, with the same services as the admins' users page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
from flask.cli import AppGroup

from ..accounts import throttle
from ..accounts.credentials import LOGIN, TOKEN, end_sessions, issue
from ..accounts.names import printable
from ..accounts.roles import ROLES
from ..accounts.users import (
    PASSWORD_MAX_BYTES,
    AccountError,
    add_user,
    existing,
    list_users,
    set_disabled,
    set_password,
    set_role,
)
from ..db import readers, sessions
from .actor import cli_record

users_group = AppGroup("users", help="Accounts: add users, set their role, disable them, give API tokens.")


def read_password(password_file: Path | None) -> str:
    """The first line of the file (UTF-8, read no further than a password can be long), or asked twice
    without echo."""
    if password_file is None:
        return click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        with password_file.open("rb") as stream:
            first = stream.readline(PASSWORD_MAX_BYTES + 2)
    except OSError as error:
        raise click.ClickException(f"cannot read the password file {password_file}: {error.strerror}") from error
    line = first.rstrip(b"\r\n")
    if len(line) > PASSWORD_MAX_BYTES:
        raise click.ClickException(f"the password file {password_file}: its first line is longer than a password "
                                   f"may be ({PASSWORD_MAX_BYTES} bytes)")
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise click.ClickException(f"the password file {password_file} is not UTF-8 text (byte {error.start + 1} "
                                   "of its first line)") from error


def target(name: str) -> str:
    return f"user {name}"


@users_group.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option("--password-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read the password from the file's first line (else it is asked).")
def users_add(name: str, role: str, password_file: Path | None) -> None:
    """Add user NAME with ROLE. The first account switches login on: from then on everyone logs in."""
    with sessions()() as session:
        try:
            user = add_user(session, name, role, read_password(password_file))
        except AccountError as error:
            raise click.ClickException(str(error)) from error
        cli_record(session, "user.add", target(user.name), {"role": role})
        session.commit()
    click.echo(f"{printable(user.name)} added as {role}")


@users_group.command("list")
def users_list() -> None:
    """Every user: name, role, enabled or disabled."""
    with readers()() as session:
        for user in list_users(session):
            state = "disabled" if user.disabled else "enabled"
            click.echo(f"{printable(user.name):24} {user.role:10} {state}")


def change(action: str, name: str, apply, detail: dict | Callable[[], dict] | None = None) -> None:
    """Apply a change to user NAME and audit it (`detail`, or a function giving it once applied)."""
    with sessions()() as session:
        try:
            apply(session)
        except AccountError as error:
            raise click.ClickException(str(error)) from error
        cli_record(session, action, target(name), detail() if callable(detail) else detail)
        session.commit()


@users_group.command("set-role")
@click.argument("name")
@click.argument("role", type=click.Choice(ROLES))
def users_set_role(name: str, role: str) -> None:
    """Give user NAME the role ROLE (at once, even in a session already open)."""
    change("user.role", name, lambda s: set_role(s, name, role), {"role": role})
    click.echo(f"{printable(name)} is now {role}")


@users_group.command("disable")
@click.argument("name")
def users_disable(name: str) -> None:
    """Disable user NAME: their sessions and API tokens stop working at once, and their assignments are
    removed (the places they held are free; enabling them again does not bring the assignments back)."""
    freed: list[int] = []
    change("user.disable", name, lambda s: freed.append(set_disabled(s, name, True)),
           lambda: {"assignments_removed": freed[0]})
    click.echo(f"{printable(name)} disabled; {freed[0]} assignment(s) removed")


@users_group.command("enable")
@click.argument("name")
def users_enable(name: str) -> None:
    """Enable user NAME again."""
    change("user.enable", name, lambda s: set_disabled(s, name, False))
    click.echo(f"{printable(name)} enabled")


KEEP_TOKENS = click.option("--keep-tokens", is_flag=True, help="Keep the user's API tokens working (scripts).")


@users_group.command("password")
@click.argument("name")
@click.option("--password-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read the password from the file's first line (else it is asked).")
@KEEP_TOKENS
def users_password(name: str, password_file: Path | None, keep_tokens: bool) -> None:
    """Set user NAME's password: every session of theirs ends, and their API tokens unless --keep-tokens."""
    password = read_password(password_file)
    change("user.password", name, lambda s: set_password(s, name, password, keep_tokens), {"tokens_kept": keep_tokens})
    click.echo(f"password of {printable(name)} set; their sessions ended" +
               ("" if keep_tokens else ", and their API tokens"))


@users_group.command("logout")
@click.argument("name")
@KEEP_TOKENS
def users_logout(name: str, keep_tokens: bool) -> None:
    """Log user NAME out everywhere: every session ends, and every API token unless --keep-tokens."""
    ended: dict[str, int] = {}
    change("user.logout-all", name, lambda s: ended.update(end_sessions(s, existing(s, name), keep_tokens)))
    click.echo(f"{printable(name)} logged out: {ended.get(LOGIN, 0)} session(s)" +
               ("" if keep_tokens else f", {ended.get(TOKEN, 0)} API token(s)") + " ended")


@users_group.command("unlock")
@click.argument("name")
def users_unlock(name: str) -> None:
    """Clear the login throttle's wait for NAME, so that they may log in at once."""
    cleared: list[bool] = []
    change("user.unlock", name, lambda s: cleared.append(throttle.clear(s, name)))
    click.echo(f"{printable(name)} may log in at once" if cleared[0] else f"{printable(name)} had no login wait")


@users_group.command("token")
@click.argument("name")
def users_token(name: str) -> None:
    """Print a new API token of user NAME, once (only its hash is kept); send it as
    `Authorization: Bearer TOKEN`."""
    with sessions()() as session:
        try:
            secret = issue(session, existing(session, name), TOKEN)
        except AccountError as error:
            raise click.ClickException(str(error)) from error
        cli_record(session, "user.token", target(name))
        session.commit()
    click.echo(secret)


COMMANDS = [users_group]
