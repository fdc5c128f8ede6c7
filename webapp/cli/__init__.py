"""The `goldtext` command: Goldtext's own commands, each run in the app of create_app.

The group imports a command's module only when that command runs (`command_index.py` names them and their
one-line help), so that `goldtext --help` and `goldtext --version` import neither Flask nor the app.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import click

from .command_index import COMMANDS

if TYPE_CHECKING:
    from flask import Flask


def command_of(name: str) -> click.Command:
    """The command `name` of the index, its module imported."""
    module = importlib.import_module(f"{__name__}.{COMMANDS[name].module}")
    return next(command for command in module.COMMANDS if command.name == name)


def register(app: Flask) -> None:
    """Every command on the app's own group (`flask --app webapp COMMAND`, the tests' CLI runner)."""
    for name in COMMANDS:
        app.cli.add_command(command_of(name))


def _create_app() -> Flask:
    from .. import create_app

    return create_app()


class Goldtext(click.Group):
    """The console script's group: its commands from the index, run with the app's context."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return command_of(cmd_name) if cmd_name in COMMANDS else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        with formatter.section("Commands"):
            formatter.write_dl([(name, click.Command(name, help=COMMANDS[name].short_help).get_short_help_str(limit))
                                for name in names])

    def invoke(self, ctx: click.Context) -> Any:
        from flask.cli import ScriptInfo  # the app is made only when a command runs (flask's with_appcontext)

        ctx.obj = ScriptInfo(create_app=_create_app, set_debug_flag=False)
        return super().invoke(ctx)


main = Goldtext(name="goldtext", help="Goldtext: gold text and extractor scores.")
click.version_option(package_name="goldtext", prog_name="goldtext", message="%(prog)s %(version)s",
                     help="Show Goldtext's version and exit.")(main)
