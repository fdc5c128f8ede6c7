"""The job steps a worker runs, by the name a chunk carries (`JobChunk.step`), and the step that ends each
kind of job: registered by the app that runs the jobs (create_app registers webapp/steps/, the steps that run
users' actions and call their use cases), so that the job system runs them without importing them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .context import Context, Follow
from .host import Host

EXTENSION = "goldtext.job_steps"
"""Where an app keeps its step table: `app.extensions[EXTENSION]`."""

Step = Callable[[Context], Follow]
"""A step: runs one chunk, commits in small transactions, returns the chunks that follow it."""


@dataclass(frozen=True)
class StepTable:
    steps: Mapping[str, Step]
    """Each step by its name."""
    final: Mapping[str, str]
    """By kind of job, the step that runs once after every other chunk of the job is done."""


def set_step_table(host: Host, table: StepTable) -> None:
    host.extensions[EXTENSION] = table


def step_table(host: Host) -> StepTable:
    """The steps the app registered; LookupError when it registered none (create_app does)."""
    try:
        return host.extensions[EXTENSION]
    except KeyError:
        raise LookupError("no job steps are registered on this app: create_app registers them "
                          "(webapp/steps/)") from None
