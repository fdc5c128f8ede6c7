"""The machine's cores, shared by the tasks of a local run: a task whose neighbours have finished takes over
their cores.

datatrove's local executor gives each task whole files, and tasks end at different times: on two files of
the shared corpora one task had a fifth more extraction work than the other, and the machine ran on one core
while the last task finished. Each task keeps its files (its completion, and a rerun of the unfinished ranks,
rely on that); its calls do not keep to one core. A task runs as many calls at once as the cores divided
among the tasks still running (at least its `--extractor-workers`), in a pool of up to twice its even share
of processes, so that when half the tasks have finished the rest run on every core (the pool starts a process
only when every one it has is busy: ExtractorPool's warm_first).

The count of running tasks is one shared integer which the command creates before the local executor forks
the tasks (the step is pickled on its way to a task, the integer is inherited with the module). A task killed
before it could count itself out leaves the others a smaller share of the cores, never a wait.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


def machine_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass
class CoreShare:
    """The cores of a local run, and how many of its tasks are running (`tasks_at_once` run at most)."""

    cores: int
    tasks_at_once: int
    running: Any = field(default_factory=lambda: multiprocessing.Value("i", 0))

    def processes(self, floor: int) -> int:
        """A task's extractor processes: twice its even share of the cores, at most every core, at least `floor`."""
        even = -(-self.cores // max(1, self.tasks_at_once))
        return max(floor, min(self.cores, 2 * even))

    def calls_at_once(self) -> int:
        """The calls a task may run now: the cores divided among the running tasks (at least one)."""
        return max(1, self.cores // max(1, self.running.value))

    @contextmanager
    def task(self) -> Iterator[Callable[[], int]]:
        """Count a task in while it runs; gives the function that says how many calls it may run now."""
        with self.running.get_lock():
            self.running.value += 1
        try:
            yield self.calls_at_once
        finally:
            with self.running.get_lock():
                self.running.value -= 1


SHARED: list[CoreShare] = []
"""The local run's share, once the command has made it (inherited by the forked tasks); empty elsewhere."""


def share_cores(tasks_at_once: int) -> None:
    """Make the local run's share of this machine's cores, before the executor forks its tasks."""
    SHARED[:] = [CoreShare(machine_cores(), tasks_at_once)]


@contextmanager
def task_calls(floor: int) -> Iterator[tuple[int, Callable[[], int] | None]]:
    """(extractor processes, how many calls may run now) of a task with at least `floor` of each: in a task of
    a local run its share, the task counted in meanwhile; elsewhere (Slurm, Ray, a step run on its own) `floor`
    processes and the pool's default."""
    if not SHARED:
        yield floor, None
        return
    share = SHARED[0]
    with share.task() as calls_at_once:
        yield share.processes(floor), lambda: max(floor, calls_at_once())
