"""The machine's load average, printed by every benchmark at its start and at its end beside its figures, so
that a figure taken while other work ran is recognisable as such (on 2 cores, a 1-minute load above 2 means
the benchmark shared them)."""

from __future__ import annotations

import os
from typing import Any


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) on {os.cpu_count()} CPUs"


class MachineLoad:
    """Made at the benchmark's start (printing the load then); `figures()` at its end prints the load again and
    gives both 1-minute figures, to go in the last line's JSON object."""

    def __init__(self) -> None:
        self.start = os.getloadavg()[0]
        print(f"load average at start: {load_line()}", flush=True)

    def figures(self) -> dict[str, dict[str, Any]]:
        end = os.getloadavg()[0]
        print(f"load average at end: {load_line()}", flush=True)
        return {name: {"value": round(value, 2), "unit": "load (1 min)", "target": None, "met": None}
                for name, value in (("load_average_start", self.start), ("load_average_end", end))}
