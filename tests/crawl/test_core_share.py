"""The local run's tasks share the machine's cores: a task whose neighbours have finished takes over theirs."""

from __future__ import annotations

import multiprocessing

from webapp.crawl.core_share import CoreShare


def count_in_and_wait(share: CoreShare, counted: multiprocessing.synchronize.Event,
                      done: multiprocessing.synchronize.Event) -> None:
    with share.task():
        counted.set()
        done.wait(60)


def test_a_task_runs_on_the_cores_the_running_tasks_leave_it_and_takes_over_those_of_a_finished_one():
    share = CoreShare(cores=4, tasks_at_once=2)
    assert share.processes(1) == 4  # twice its even share, so that it can take over a finished neighbour's
    assert share.processes(6) == 6  # never fewer than the task's own --extractor-workers
    fork = multiprocessing.get_context("fork")
    counted, done = fork.Event(), fork.Event()
    neighbour = fork.Process(target=count_in_and_wait, args=(share, counted, done))  # a forked task, as datatrove's
    neighbour.start()
    try:
        assert counted.wait(60)
        with share.task() as calls_at_once:
            assert calls_at_once() == 2
            done.set()
            neighbour.join(60)
            assert calls_at_once() == 4
    finally:
        done.set()
        neighbour.join(60)
    assert share.running.value == 0


def test_a_share_of_eight_cores_among_three_tasks_oversubscribes_none():
    share = CoreShare(cores=8, tasks_at_once=3)
    assert share.processes(1) == 6
    with share.task(), share.task(), share.task() as calls_at_once:
        assert calls_at_once() == 2
