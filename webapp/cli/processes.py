"""`--processes N`, the processes a command runs its work in (`goldtext extract`, `goldtext import`).

Its old name, `--jobs N`, is still read until the next release: hidden from the help, it prints a note
naming `--processes` (a "job" is a row of `goldtext jobs`, not a process).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

PROCESSES = click.IntRange(min=1)


def jobs_note(_ctx: click.Context, _param: click.Parameter, value: int | None) -> int | None:
    if value is not None:
        click.echo("Note: --jobs is now called --processes; --jobs is read as --processes until the next release.",
                   err=True)
    return value


def processes_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add `--processes` (given to the command as `processes`) and its hidden old name `--jobs`."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_processes(*args: Any, processes: int | None, jobs: int | None, **kwargs: Any) -> Any:
            return command(*args, processes=processes if processes is not None else jobs, **kwargs)

        with_jobs = click.option("--jobs", type=PROCESSES, default=None, hidden=True, callback=jobs_note)
        with_new = click.option("--processes", type=PROCESSES, default=None, metavar="N", help=help_text)
        return with_new(with_jobs(with_processes))

    return decorate
