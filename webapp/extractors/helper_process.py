"""A helper program kept running beside an extractor's worker process, asked one JSON line at a time: the
Node.js script of Readability.js, the Go program of go-trafilatura and go-domdistiller.

Starting Node.js and loading jsdom takes about half a second, longer than most pages take: each worker
process starts the program once, on its first call, and keeps it. The program dies with the worker (Linux's
parent-death signal), so the runner's timeout, which kills a hung worker, kills its program too; a program
that exited is started again by the next call.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

PR_SET_PDEATHSIG = 1
STDERR_TAIL = 500


def die_with_parent() -> None:
    """In the child before exec: be killed when the process that started it dies (Linux only)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class HelperProcess:
    """One running helper program (`command`, started in `cwd`): `ask(request)` writes the request as a JSON
    line and reads the answer's; `label` names the program in errors."""

    def __init__(self, command: list[str], cwd: Path, label: str) -> None:
        self.command = command
        self.cwd = cwd
        self.label = label
        self.process: subprocess.Popen[str] | None = None
        self.stderr: IO[str] | None = None
        atexit.register(self.close)

    def start(self) -> subprocess.Popen[str]:
        self.close()
        self.stderr = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.process = subprocess.Popen(
            self.command, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
            text=True, encoding="utf-8", preexec_fn=die_with_parent,
        )
        return self.process

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The program's answer; RuntimeError with the end of its standard error when it exited instead."""
        process = self.process if self.process is not None and self.process.poll() is None else self.start()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            raise RuntimeError(f"{self.label} exited (code {process.wait()}): {self.stderr_tail()}")
        return json.loads(line)

    def stderr_tail(self) -> str:
        if self.stderr is None:
            return ""
        self.stderr.seek(0)
        return " ".join(self.stderr.read().split())[-STDERR_TAIL:] or "nothing on its standard error"

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):  # a write the program never read
                        pipe.close()
            self.process = None
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None
