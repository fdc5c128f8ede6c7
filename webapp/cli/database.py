"""`goldtext db upgrade|downgrade`: schema migrations."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import AppGroup

from ..db import make_engine
from ..migrate import downgrade, upgrade

db_group = AppGroup("db", help="Schema migrations (applied automatically on first use too).")


@db_group.command("upgrade")
@click.argument("revision", default="head")
def upgrade_command(revision: str) -> None:
    """Bring the schema up to REVISION (default: the newest)."""
    upgrade(make_engine(current_app.config["DATABASE_URL"]), revision)
    click.echo(f"schema at {revision}")


@db_group.command("downgrade")
@click.argument("revision")
def downgrade_command(revision: str) -> None:
    """Take the schema back to REVISION ("base" drops every table)."""
    downgrade(make_engine(current_app.config["DATABASE_URL"]), revision)
    click.echo(f"schema at {revision}")


COMMANDS = [db_group]
