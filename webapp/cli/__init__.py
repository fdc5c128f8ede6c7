"""The `goldtext` command: the Flask CLI group of create_app, with Goldtext's commands."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import FlaskGroup, routes_command, shell_command


def register(app: Flask) -> None:
    from . import (
        audit_commands,
        checks_commands,
        corpus,
        crawl,
        database,
        demo,
        export_commands,
        extract_commands,
        guidelines_commands,
        jobs_commands,
        scores_commands,
        serve,
        structure_commands,
        team,
        users_commands,
    )

    for module in (corpus, database, demo, export_commands, extract_commands, jobs_commands, scores_commands, serve,
                   team, users_commands, audit_commands, checks_commands, crawl, guidelines_commands,
                   structure_commands):
        for command in module.COMMANDS:
            app.cli.add_command(command)


def _create_app() -> Flask:
    from .. import create_app

    return create_app()


main = FlaskGroup(create_app=_create_app, add_default_commands=False, add_version_option=False,
                  help="Goldtext: gold text and extractor scores.")
click.version_option(package_name="goldtext", prog_name="goldtext", message="%(prog)s %(version)s",
                     help="Show Goldtext's version and exit.")(main)
main.add_command(shell_command)
main.add_command(routes_command)
