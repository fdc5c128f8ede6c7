"""`goldtext users`: accounts from the command line, with the same use cases as the admins' users page
(usecases/manage_accounts.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click
from flask.cli import AppGroup
from sqlalchemy.orm import Session

from ..accounts.credentials import LOGIN, TOKEN
from ..accounts.names import printable
from ..accounts.roles import ROLES
from ..accounts.users import PASSWORD_MAX_BYTES, list_users
from ..usecases import manage_accounts
from ..usecases.outcome import Refused
from ..web.db import readers, sessions
from .actor import command_actor

T = TypeVar("T")

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


def _run(change: Callable[[Session], T]) -> T:
    """Apply a change (a use case of usecases/manage_accounts.py) and commit it; its refusal is the
    command's error."""
    with sessions()() as session:
        try:
            done = change(session)
        except Refused as error:
            raise click.ClickException(error.reason) from None
        session.commit()
    return done


@users_group.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option("--password-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read the password from the file's first line (else it is asked).")
def users_add(name: str, role: str, password_file: Path | None) -> None:
    """Add user NAME with ROLE. The first account switches login on: from then on everyone logs in."""
    password = read_password(password_file)
    user = _run(lambda s: manage_accounts.add_account(s, command_actor(), name, role, password))
    click.echo(f"{printable(user.name)} added as {role}")


@users_group.command("list")
def users_list() -> None:
    """Every user: name, role, enabled or disabled."""
    with readers()() as session:
        for user in list_users(session):
            state = "disabled" if user.disabled else "enabled"
            click.echo(f"{printable(user.name):24} {user.role:10} {state}")


@users_group.command("set-role")
@click.argument("name")
@click.argument("role", type=click.Choice(ROLES))
def users_set_role(name: str, role: str) -> None:
    """Give user NAME the role ROLE (at once, even in a session already open)."""
    _run(lambda s: manage_accounts.change_role(s, command_actor(), name, role))
    click.echo(f"{printable(name)} is now {role}")


@users_group.command("disable")
@click.argument("name")
def users_disable(name: str) -> None:
    """Disable user NAME: their sessions and API tokens stop working at once, and their assignments are
    removed (the places they held are free; enabling them again does not bring the assignments back)."""
    freed = _run(lambda s: manage_accounts.disable_account(s, command_actor(), name))
    click.echo(f"{printable(name)} disabled; {freed} assignment(s) removed")


@users_group.command("enable")
@click.argument("name")
def users_enable(name: str) -> None:
    """Enable user NAME again."""
    _run(lambda s: manage_accounts.enable_account(s, command_actor(), name))
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
    _run(lambda s: manage_accounts.reset_password(s, command_actor(), name, password, keep_tokens))
    click.echo(f"password of {printable(name)} set; their sessions ended" +
               ("" if keep_tokens else ", and their API tokens"))


@users_group.command("logout")
@click.argument("name")
@KEEP_TOKENS
def users_logout(name: str, keep_tokens: bool) -> None:
    """Log user NAME out everywhere: every session ends, and every API token unless --keep-tokens."""
    ended = _run(lambda s: manage_accounts.log_user_out(s, command_actor(), name, keep_tokens))
    click.echo(f"{printable(name)} logged out: {ended.get(LOGIN, 0)} session(s)" +
               ("" if keep_tokens else f", {ended.get(TOKEN, 0)} API token(s)") + " ended")


@users_group.command("unlock")
@click.argument("name")
def users_unlock(name: str) -> None:
    """Clear the login throttle's wait for NAME, so that they may log in at once."""
    cleared = _run(lambda s: manage_accounts.unlock_account(s, command_actor(), name))
    click.echo(f"{printable(name)} may log in at once" if cleared else f"{printable(name)} had no login wait")


@users_group.command("token")
@click.argument("name")
def users_token(name: str) -> None:
    """Print a new API token of user NAME, once (only its hash is kept); send it as
    `Authorization: Bearer TOKEN`."""
    click.echo(_run(lambda s: manage_accounts.new_token(s, command_actor(), name)))


COMMANDS = [users_group]
