"""Compiled Python kept between test runs, outside the checkout. Where the environment says
PYTHONDONTWRITEBYTECODE (keeping __pycache__ folders out of checkouts), every process of a run compiled
every module it imported from source, each time: the application, the test modules (pytest's rewritten
asserts are cached the same way) and, in the processes the tests start (pytest runs, `goldtext` commands),
everything again. Collecting the fast lane cost about 10 s of CPU a process with nothing compiled, 3.6 s
from compiled code.

conftest.py imports this module first. It points Python's own bytecode cache (PYTHONPYCACHEPREFIX, read by
every process the run starts, the workers of pytest-xdist among them; sys.pycache_prefix for this one) at
~/.cache/goldtext/pycache, or $XDG_CACHE_HOME/goldtext/pycache, and lets it be written. Python checks each
compiled file against its source's modification time and size, as it does a __pycache__ folder, so an
edited module is compiled again (as anywhere PYTHONDONTWRITEBYTECODE is not set). What the previous runs
compiled of the modules their tests wrote in temporary folders is removed as a run starts. Without
PYTHONDONTWRITEBYTECODE, or with a PYTHONPYCACHEPREFIX of one's own, nothing changes."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = str(cache_home / "goldtext" / "pycache")
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    sys.dont_write_bytecode = False
    shutil.rmtree(Path(sys.pycache_prefix) / Path(tempfile.gettempdir()).relative_to("/"), ignore_errors=True)
