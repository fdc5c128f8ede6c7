"""Misbehaving extractors for the runner tests: module-level, so they pickle into workers."""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
import warnings
from pathlib import Path

from webapp.extractors.base import Extracted, Extractor


def installed(folder: Path, name: str, entry_points: dict[str, str]) -> Path:
    """A distribution `goldtext-NAME` in folder/plugins registering these extractors of this module (entry
    point name -> attribute); the folder to put on the path."""
    plugins = folder / "plugins"
    dist_info = plugins / f"goldtext_{name}-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: goldtext-{name}\nVersion: 1.0\n")
    lines = "".join(f"{key} = extractor_fixtures:{value}\n" for key, value in entry_points.items())
    (dist_info / "entry_points.txt").write_text("[goldtext.extractors]\n" + lines)
    return plugins


def count_characters(html: str, url: str | None) -> Extracted:
    return Extracted(text=f"{len(html)} characters from {url}", metadata={"url": url})


def log_and_count(html: str, url: str | None) -> Extracted:
    """count-characters, after speaking as libraries do: a log without a handler, a log through a handler of its
    own on standard error, a warning."""
    logging.getLogger("a.library").error("the library's error about %s", url)
    own = logging.getLogger("another.library")
    if not own.handlers:
        own.addHandler(logging.StreamHandler(sys.stderr))
    own.warning("the library's own handler's line")
    warnings.warn("the library's warning", UserWarning, stacklevel=1)
    return count_characters(html, url)


def name_process(html: str, url: str | None) -> Extracted:
    """The worker process's id as the text, after `html` hundredths of a second (a number, or 0)."""
    time.sleep(int(html or 0) / 100)
    return Extracted(text=str(os.getpid()), metadata={})


def hang(html: str, url: str | None) -> Extracted:
    time.sleep(1000)
    raise AssertionError("unreachable")


def crash(html: str, url: str | None) -> Extracted:
    raise ValueError("broken page")


def call_sys_exit(html: str, url: str | None) -> Extracted:
    sys.exit(5)


def exit_worker(html: str, url: str | None) -> Extracted:
    os._exit(3)


def kill_worker(html: str, url: str | None) -> Extracted:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def hog_memory(html: str, url: str | None) -> Extracted:
    block = bytearray(3 * 1024**3)  # beyond the runner's default 2048 MB cap
    return Extracted(text=str(len(block)), metadata={})


def use_memory(html: str, url: str | None) -> Extracted:
    block = bytearray(256 * 1024**2)  # well within the runner's default 2048 MB cap
    return Extracted(text=str(len(block)), metadata={})


def fixture(func) -> Extractor:
    return Extractor(func.__name__.replace("_", "-"), "fixture 1", func, {}, "runner test fixture")


COUNT = fixture(count_characters)
PROCESS = fixture(name_process)
LOGGING = fixture(log_and_count)
HANG = fixture(hang)
CRASH = fixture(crash)
EXIT = fixture(exit_worker)
SYS_EXIT = fixture(call_sys_exit)
KILL = fixture(kill_worker)
HOG = fixture(hog_memory)
MODEST = fixture(use_memory)


HANG_MARK = "goldtext-test-hang"


def hang_on_mark(html: str, url: str | None) -> Extracted:
    """Hangs on a page holding HANG_MARK; elsewhere the page's length, like count-characters."""
    if HANG_MARK in html:
        time.sleep(1000)
    return Extracted(text=f"{len(html)} characters from {url}", metadata={"url": url})


HANG_ON_MARK = fixture(hang_on_mark)
