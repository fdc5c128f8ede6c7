"""`goldtext users`: accounts from the command line, with the same services as the admins' users page."""

from __future__ import annotations

from pathlib import Path

import click
from flask.cli import AppGroup

from ..accounts.credentials import TOKEN, issue
from ..accounts.roles import ROLES
from ..accounts.users import AccountError, add_user, existing, list_users, set_disabled, set_password, set_role
from ..db import readers, sessions
from .actor import cli_record
from .audit import printable

users_group = AppGroup("users", help="Accounts: add users, set their role, disable them, give API tokens.")


def read_password(password_file: Path | None) -> str:
    """The first line of the file, or asked twice without echo."""
    if password_file is not None:
        lines = password_file.read_text(encoding="utf-8").splitlines()
        return lines[0] if lines else ""
    return click.prompt("Password", hide_input=True, confirmation_prompt=True)


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


def change(action: str, name: str, apply, detail: dict | None = None) -> None:
    with sessions()() as session:
        try:
            apply(session)
        except AccountError as error:
            raise click.ClickException(str(error)) from error
        cli_record(session, action, target(name), detail)
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
    """Disable user NAME: their sessions and API tokens stop working at once."""
    change("user.disable", name, lambda s: set_disabled(s, name, True))
    click.echo(f"{printable(name)} disabled")


@users_group.command("enable")
@click.argument("name")
def users_enable(name: str) -> None:
    """Enable user NAME again."""
    change("user.enable", name, lambda s: set_disabled(s, name, False))
    click.echo(f"{printable(name)} enabled")


@users_group.command("password")
@click.argument("name")
@click.option("--password-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read the password from the file's first line (else it is asked).")
def users_password(name: str, password_file: Path | None) -> None:
    """Set user NAME's password."""
    change("user.password", name, lambda s: set_password(s, name, read_password(password_file)))
    click.echo(f"password of {printable(name)} set")


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
