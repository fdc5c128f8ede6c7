"""An option renamed (one word per concept) and its old name, kept hidden for one release: the old name still
works, fills the same parameter and says to use the new one."""

from __future__ import annotations

from typing import Any

import click


def deprecation(new: str, old: str) -> str:
    """What a command prints when the old name is used."""
    return f"{old} is deprecated and goes in the next release: use {new} (the same values)."


def renamed_option(new: str, old: str, dest: str, **kwargs: Any):
    """The repeatable option `new` (into `dest`) and the hidden, deprecated `old` (the same values)."""
    held = f"{old} for {dest}"
    note = deprecation(new, old)

    def read_new(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(value) + tuple(ctx.meta.pop(held, ()))

    def read_old(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
        if not value:
            return
        click.echo(note, err=True)
        if dest in ctx.params:  # the new name was read first
            ctx.params[dest] = tuple(ctx.params[dest]) + tuple(value)
        else:
            ctx.meta[held] = tuple(value)

    def decorate(func):
        func = click.option(old, multiple=True, metavar=kwargs.get("metavar"), hidden=True, expose_value=False,
                            callback=read_old)(func)
        return click.option(new, dest, multiple=True, callback=read_new, **kwargs)(func)

    return decorate


def renamed_choice(new_names: dict[str, str]):
    """A callback for a choice option whose values were renamed (old -> new): an old value is read as the new
    one, with the deprecation note."""

    def read(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value in new_names:
            click.echo(deprecation(f"{param.opts[0]} {new_names[value]}", f"{param.opts[0]} {value}"), err=True)
            return new_names[value]
        return value

    return read
