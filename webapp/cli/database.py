"""`goldtext db upgrade|downgrade`: schema migrations."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import AppGroup

from ..foundation.engine import configured_engine
from ..foundation.migrate import downgrade, dropped_by_downgrade, upgrade
from ..foundation.settings import settings_of

db_group = AppGroup("db", help="Schema migrations (applied automatically on first use too).")


@db_group.command("upgrade")
@click.argument("revision", default="head")
def upgrade_command(revision: str) -> None:
    """Bring the schema up to REVISION (default: the newest)."""
    upgrade(configured_engine(settings_of(current_app).database), revision)
    click.echo(f"schema at {revision}")


@db_group.command("downgrade")
@click.argument("revision")
@click.option("--yes-destroy", is_flag=True,
              help="Drop the tables and columns the downgrade removes, with what they hold.")
def downgrade_command(revision: str, yes_destroy: bool) -> None:
    """Take the schema back to REVISION ("base" drops every table). A downgrade that drops a table or
    a column says which and refuses unless given --yes-destroy."""
    engine = configured_engine(settings_of(current_app).database)
    dropped = dropped_by_downgrade(engine, revision)
    if dropped and not yes_destroy:
        raise click.ClickException(
            f"refusing to take the schema back to {revision}: it would drop {'; '.join(dropped)}. "
            "Back the database up, then run again with --yes-destroy to drop them.")
    downgrade(engine, revision)
    if dropped:
        click.echo(f"dropped {'; '.join(dropped)}")
    click.echo(f"schema at {revision}")


COMMANDS = [db_group]
