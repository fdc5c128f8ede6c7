"""A real Ray cluster on this machine, for the tests and benchmarks that run the exported pipeline on Ray: a head
and workers each started by `ray start` (`--head`, then `--address HEAD`) as on a cluster of machines, each node
its own raylet and object store, on free ports, its files in a folder the caller gives, and sized for a small
machine (CPUs per node as asked, a small object store, no dashboard). Stopped on leaving the `with`: each node's
`ray start --block` process is asked to stop its processes (SIGTERM), and what is left of its process group is
killed; `ray stop` is never used (it stops every Ray on the machine, other people's too).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path

OBJECT_STORE_BYTES = 100 * 1024 * 1024  # Ray's minimum is 75 MiB
STARTED = "Ray runtime started."
START_TIMEOUT = 180.0
STOP_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ray_command() -> list[str]:
    """The `ray` command of the Python running this (its virtualenv's), else the one on PATH."""
    beside = Path(sys.executable).with_name("ray")
    found = str(beside) if beside.exists() else shutil.which("ray")
    if not found:
        raise RuntimeError("the `ray` command is not installed: pip install 'goldtext[ray]'")
    return [found]


def node_arguments(cpus: int) -> list[str]:
    """What every node is started with: its CPUs, a small object store, random worker ports, no usage stats."""
    return ["start", "--block", "--node-ip-address", "127.0.0.1", "--num-cpus", str(cpus),
            "--object-store-memory", str(OBJECT_STORE_BYTES), "--min-worker-port", "0", "--max-worker-port", "0",
            "--dashboard-agent-listen-port", str(free_port()), "--disable-usage-stats"]


@contextmanager
def started_node(arguments: list[str], log: Path, env: Mapping[str, str]) -> Iterator[None]:
    """One `ray start --block` in a process group of its own, running until the `with` ends."""
    with log.open("wb") as output:
        process = subprocess.Popen([*ray_command(), *arguments], env=dict(env), stdout=output,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while STARTED not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ray {' '.join(arguments[:4])}... did not start "
                                   f"(exit {process.poll()}):\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.2)
        yield
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(process.pid, signal.SIGKILL)  # the group this node's processes were started in
        except ProcessLookupError:
            pass
        process.wait()


@contextmanager
def ray_cluster(folder: Path, workers: int = 1, cpus: int = 1, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """A head and `workers` worker nodes of `cpus` CPUs each, their files under `folder`; yields the head's
    address (what RAY_ADDRESS takes). `env` is the nodes' environment (the tasks' PYTHONPATH, say)."""
    folder.mkdir(parents=True, exist_ok=True)
    nodes_env = {**(env if env is not None else os.environ), "RAY_USAGE_STATS_ENABLED": "0"}
    # Ray's sockets live in its temp folder and a socket's path may not pass 107 bytes, which a test's tmp_path
    # and Ray's session folder together do: Ray is given a short link to the folder instead
    link_home = Path(tempfile.mkdtemp(prefix="ray-"))
    link = link_home / "t"
    link.symlink_to(folder.resolve(), target_is_directory=True)
    port = free_port()
    address = f"127.0.0.1:{port}"
    try:
        with ExitStack() as nodes:
            head = ["--head", "--port", str(port), "--include-dashboard", "false", "--temp-dir", str(link)]
            nodes.enter_context(started_node([*node_arguments(cpus), *head], folder / "head.log", nodes_env))
            for number in range(workers):
                nodes.enter_context(started_node([*node_arguments(cpus), "--address", address],
                                                 folder / f"worker-{number}.log", nodes_env))
            yield address
    finally:
        link.unlink()
        link_home.rmdir()
