"""A helper program belongs to the process that started it: a worker forked after its parent started one (the
crawl pipeline warms its extractors, helpers among them, before forking its tasks) starts its own on its first
call (Popen.poll in the fork finds no child of its own), and the parent's keeps working."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

from webapp.extractors.helper_process import HelperProcess

ECHO_PID = ("import json, os, sys\n"
            "for line in sys.stdin:\n"
            "    print(json.dumps({'pid': os.getpid(), 'asked': json.loads(line)['n']}), flush=True)\n")


def answers_in_child(program: HelperProcess, queue: multiprocessing.Queue) -> None:
    first, second = program.ask({"n": 1}), program.ask({"n": 2})
    queue.put((first, second, program.process.pid if program.process else None))
    program.close()


def test_a_forked_process_asks_its_own_program_and_leaves_its_parents_running(tmp_path: Path):
    program = HelperProcess([sys.executable, "-c", ECHO_PID], tmp_path, "echo")
    try:
        parent = program.ask({"n": 0})
        assert parent["pid"] != os.getpid() and parent["asked"] == 0
        context = multiprocessing.get_context("fork")
        queue = context.Queue()
        child = context.Process(target=answers_in_child, args=(program, queue))
        child.start()
        first, second, child_program = queue.get(timeout=60)
        child.join(60)
        assert child.exitcode == 0
        assert first["pid"] == second["pid"] == child_program != parent["pid"]
        assert (first["asked"], second["asked"]) == (1, 2)
        again = program.ask({"n": 3})
        assert again == {"pid": parent["pid"], "asked": 3}
    finally:
        program.close()
    assert program.process is None


def test_a_process_that_ends_stops_its_program_and_closes_the_pipes_to_it(tmp_path: Path):
    script = ("import sys\n"
              "from pathlib import Path\n"
              "from webapp.extractors.helper_process import HelperProcess\n"
              f"program = HelperProcess([sys.executable, '-c', {ECHO_PID!r}], Path('.'), 'echo')\n"
              "print(program.ask({'n': 1})['pid'], flush=True)\n")
    ended = subprocess.run([sys.executable, "-X", "dev", "-c", script], cwd=tmp_path, capture_output=True,
                           text=True, timeout=60, check=True)
    assert "ResourceWarning" not in ended.stderr, ended.stderr
    assert not Path(f"/proc/{int(ended.stdout)}").exists()  # stopped and reaped, not left to the parent-death signal
