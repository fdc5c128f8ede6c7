"""The embedded worker of `goldtext serve` lives and dies with its server: it asks Linux for a signal
when its parent dies (the parent-death signal, as the Node.js script of an extractor does), watches its
parent's pid as a fallback (other systems, or a parent that died before the request), and holds a lock
file in the instance folder so that a restarted server never adds a second embedded worker beside one
still running."""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import sys
import threading
from pathlib import Path
from typing import IO

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 1.0
LOCK_FILE = "embedded-worker.lock"


def die_with(parent: int) -> None:
    """SIGTERM this process once `parent` is gone (a clean stop: running chunks are given back)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(WATCH_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name=f"watch-parent-{parent}", daemon=True).start()


def hold_lock(instance: Path) -> IO[str] | None:
    """The instance's embedded-worker lock, held until this process ends (keep the handle); None, with
    the holder's pid readable in the file, when another process holds it."""
    instance.mkdir(parents=True, exist_ok=True)
    handle = (instance / LOCK_FILE).open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    handle.truncate(0)
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def holder(instance: Path) -> str:
    try:
        return (instance / LOCK_FILE).read_text().strip() or "?"
    except OSError:
        return "?"
