"""Benchmark of the `goldtext` command's start (issue 32 §4): CPU time of `goldtext --help` and
`goldtext --version`, against a bare `python -c pass` measured in the same run.

Each command runs as a child process RUNS times; the CPU time is the children's user + system time
(resource.getrusage), so that a busy machine slows the wall clock but not the figure. The target is the
command's own CPU time, at most 0.3 s each. The last line is one JSON object.

Run: python benchmarks/bench_cli_start.py [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys

from machine_load import MachineLoad
from quick import add_quick

TARGET_SECONDS = 0.3
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "goldtext --help": [sys.executable, "-c", "from webapp.cli import main; main()", "--help"],
    "goldtext --version": [sys.executable, "-c", "from webapp.cli import main; main()", "--version"],
}


def cpu_seconds(command: list[str], runs: int) -> float:
    """The mean CPU time (user + system) of one run of the command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    add_quick(parser)
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    load = MachineLoad()
    figures = {}
    for name, command in COMMANDS.items():
        seconds = cpu_seconds(command, runs)
        print(f"{name:<20} {seconds * 1000:7.1f} ms of CPU per run ({runs} runs)")
        figures[name] = seconds
    result = {
        f"{name.replace(' ', '_').replace('-', '')}_cpu": {
            "value": round(figures[name] * 1000, 1), "unit": "ms", "target": f"<= {TARGET_SECONDS * 1000:.0f}",
            "met": figures[name] <= TARGET_SECONDS,
        }
        for name in ("goldtext --help", "goldtext --version")
    }
    result["python_start_cpu"] = {"value": round(figures["python -c pass"] * 1000, 1), "unit": "ms",
                                  "target": "baseline", "met": True}
    print(json.dumps(result | load.figures()))


if __name__ == "__main__":
    main()
