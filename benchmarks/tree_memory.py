"""The memory of a benchmark's whole process tree: the sum of each process's PSS (its proportional set size, a
page shared by N processes counting 1/N in each, so that forked workers are not counted N times), sampled
every half second from /proc while the benchmark runs, and at its peak which programs held it.

Linux only (elsewhere the peak is 0 and no program is named)."""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

INTERVAL = 0.5


def children() -> dict[int, list[int]]:
    """parent pid -> its children's pids, for every process /proc lists."""
    found: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            found.setdefault(parent, []).append(int(entry.name))
    return found


def tree(root: int) -> list[int]:
    """The root and every process under it."""
    below = children()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(below.get(pid, []))
    return found


def pss_mb(pid: int) -> float:
    try:
        for line in (Path("/proc") / str(pid) / "smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def program(pid: int, root: int) -> str:
    """What a process runs, for the peak's breakdown: 'this process', 'python (a child)', or the program's file
    name (node with its script's folder: readability_js/extract.mjs)."""
    if pid == root:
        return "this process"
    try:
        words = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    name = Path(words[0].decode(errors="replace")).name
    if name == "node" and len(words) > 1:
        script = Path(words[1].decode(errors="replace"))
        return f"node {script.parent.name}/{script.name}"
    return f"{name} (a child)" if name.startswith("python") else name


class TreeMemory:
    """Started with the benchmark: samples its tree's PSS until `stop()`, which gives the peak in MB and, for
    that moment, each program's MB and how many processes ran it; made `watching=False`, only inside
    `watch()` (the runs whose memory is the figure)."""

    def __init__(self, watching: bool = True) -> None:
        self.root = os.getpid()
        self._watching = threading.Event()
        if watching:
            self._watching.set()
        self.peak = 0.0
        self.at_peak: dict[str, tuple[float, int]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="tree-memory", daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(INTERVAL):
            if not self._watching.is_set():
                continue
            held = [(program(pid, self.root), pss_mb(pid)) for pid in tree(self.root)]
            total = sum(mb for _, mb in held)
            if total > self.peak:
                megabytes: Counter[str] = Counter()
                processes: Counter[str] = Counter()
                for name, mb in held:
                    megabytes[name] += mb
                    processes[name] += 1
                self.peak = total
                self.at_peak = {name: (mb, processes[name]) for name, mb in megabytes.most_common()}

    @contextmanager
    def watch(self) -> Iterator[None]:
        self._watching.set()
        try:
            yield
        finally:
            self._watching.clear()

    def stop(self) -> tuple[float, dict[str, tuple[float, int]]]:
        self._stop.set()
        self._thread.join()
        return self.peak, self.at_peak
