"""`goldtext serve`'s embedded worker dies with its server, even one killed with SIGKILL, and a second
server on the same instance (a restart while the first still runs) adds no second embedded worker.
Real `goldtext serve` processes on an SQLite file (serving_fixtures.py's helpers)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from serving_fixtures import Client, Databases, free_port, goldtext_env, healthy, wait_for

pytestmark = pytest.mark.slow
NOT_STARTED = "embedded worker not started: the one of another server"



def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def embedded_workers(instance: Path) -> list[int]:
    """Pids of the running embedded workers of servers on this instance folder."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--embedded-in" in command and f"GOLDTEXT_INSTANCE_PATH={instance}".encode() in environ \
                and running(int(entry.name)):
            found.append(int(entry.name))
    return sorted(found)


def test_the_embedded_worker_dies_with_its_killed_server_and_is_never_doubled(processes, tmp_path):
    databases = Databases(tmp_path / "databases")
    try:
        db = databases.empty("sqlite")
        instance = tmp_path / "instance"
        instance.mkdir()
        env = goldtext_env(instance, db.url, "")
        first_port, second_port = free_port(), free_port()

        def serve(port: int, name: str):
            proc = processes.start(name, ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"],
                                   env)
            wait_for(lambda: healthy(Client(port)), 120, f"{name} to answer /health", interval=0.2, alive=[proc])
            return proc

        first = serve(first_port, "serve-first")
        (worker,) = wait_for(lambda: embedded_workers(instance), 60, "the first server's embedded worker",
                             alive=[first])
        wait_for(lambda: db.scalar("SELECT count(*) FROM worker_beat WHERE pid = :pid", pid=worker), 60,
                 "the embedded worker's heartbeat", alive=[first])

        second = serve(second_port, "serve-second")  # a restart while the first still runs
        wait_for(lambda: NOT_STARTED in second.output(), 60, "the second server to start no second worker",
                 alive=[second])
        wait_for(lambda: embedded_workers(instance) == [worker], 30, "the second server's worker to exit")

        os.kill(first.pid, signal.SIGKILL)  # the server alone, as `kill -9 PID` does
        first.popen.wait(timeout=30)
        wait_for(lambda: not running(worker), 30, f"the embedded worker {worker} to die with its server")

        third = serve(first_port, "serve-third")  # its replacement starts a worker again
        (replacement,) = wait_for(lambda: embedded_workers(instance), 60, "the new server's embedded worker",
                                  alive=[third])
        assert replacement != worker
        assert second.alive() and third.alive()
        assert embedded_workers(instance) == [replacement]
    finally:
        databases.cleanup()
