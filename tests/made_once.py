"""A folder made once for the whole test run, whatever the number of test processes: under pytest-xdist each
process would otherwise build its own copy of a costly session fixture (the demo corpus cost about 19 s of CPU
a process, most of it ROUGE). The first process to ask makes it while the others wait on a lock, then all
read it. A folder appears only once `make` has returned: if it fails, the next process to ask tries again
(and fails in its turn, naming its own error)."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's temporary folder that every process of it shares: a worker's own base folder sits in it."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The run's folder `name`, made by `make(folder)` in whichever process asks first."""
    folder = run_folder(tmp_path_factory) / name
    with open(folder.with_name(f"{name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not folder.is_dir():
            making = folder.with_name(f"{name}.making")
            shutil.rmtree(making, ignore_errors=True)
            making.mkdir()
            make(making)
            making.rename(folder)
    return folder
