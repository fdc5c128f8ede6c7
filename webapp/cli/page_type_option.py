"""The --type option of the commands that take page types, and --kind, its old name: kept hidden for one
release (it goes in the next one), it still works and says to use --type."""

from __future__ import annotations

from typing import Any

import click

DEST = "page_types"
OLD = "old_page_types"
OLD_FLAG_NOTE = "--kind is deprecated and goes in the next release: use --type (the same values)."


def _new(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(value) + tuple(ctx.meta.pop(OLD, ()))


def _old(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
    if not value:
        return
    click.echo(OLD_FLAG_NOTE, err=True)
    if DEST in ctx.params:  # --type was read first
        ctx.params[DEST] = tuple(ctx.params[DEST]) + tuple(value)
    else:
        ctx.meta[OLD] = tuple(value)


def page_type_option(**kwargs: Any):
    """`--type TYPE` (repeatable, into `page_types`) and the hidden, deprecated `--kind TYPE`."""

    def decorate(func):
        func = click.option("--kind", multiple=True, metavar="TYPE", hidden=True, expose_value=False,
                            callback=_old)(func)
        kwargs["help"] = kwargs.get("help", "") + " (--kind, its old name, works until the next release.)"
        return click.option("--type", DEST, multiple=True, metavar="TYPE", callback=_new, **kwargs)(func)

    return decorate
