"""What runs inside an extractor process (the sandbox of one call): the memory cap, the timed call, and the
libxml2 depth watch.

libxml2 stops building a tree at depth 256 (2048 with huge_tree) and drops the rest of the
document, reporting only "Excessive depth in document" to the parser's error log. lxml also
copies every parser error to a per-thread global log; the worker replaces that log with one
that notes the depth error, so a call is flagged incomplete exactly when the parser an
extractor used (its own, whatever it is) truncated the page.
"""

from __future__ import annotations

import logging
import os
import resource
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from webapp.extractors.article_fields import none_found
from webapp.extractors.base import Extractor

DEPTH_ERROR = "Excessive depth in document"
INCOMPLETE_REASON = "libxml2 depth limit: document truncated"


class DepthWatch(etree.PyErrorLog):
    """A global lxml error log that only remembers whether a depth truncation happened."""

    def __init__(self) -> None:
        super().__init__()
        self.truncated = False

    def receive(self, log_entry: etree._LogEntry) -> None:
        if log_entry.message.startswith(DEPTH_ERROR):
            self.truncated = True


@dataclass(frozen=True)
class Output:
    """One call's result as it travels back from the worker."""

    text: str
    metadata: dict
    duration_ms: float
    error: str | None
    incomplete: bool
    markdown: str | None = None
    article_metadata: dict | None = None


def address_space() -> int:
    """This process's virtual size in bytes (0 where /proc is not there to tell)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def start_worker(memory_mb: int) -> None:
    """Pool initializer: cap the address space at what the worker has now plus `memory_mb`, so an
    allocation beyond that raises MemoryError. Relative, because a forked worker inherits its
    parent's mappings: a parent that loaded a library reserving gigabytes of virtual memory would
    otherwise leave the calls no room at all. The libraries are quieted (quiet_libraries)."""
    limit = address_space() + memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    quiet_libraries()


def quiet_libraries() -> None:
    """In a process that runs extractor calls: the libraries' log and warnings go nowhere. What a call comes to
    is its result (its text, or its error), and some libraries speak per page (goose3 logs each date it cannot
    place, boilerpy3 the whole traceback of a page it cannot parse before it raises, dateutil warns of each time
    zone it does not know, jieba logs the loading of its dictionary through a handler of its own), which reached
    the terminal of `goldtext extract` and the workers' log, hundreds of lines a run."""
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")


def describe(error: BaseException) -> str:
    """'ValueError: message', or the bare type name when there is no message."""
    message = str(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def call_extractor(extractor: Extractor, html: str, url: str | None) -> Output:
    """Run one extraction; an exception becomes the outcome's error, not the worker's death (and finds none of
    the article's metadata fields the extractor gives).

    SystemExit is caught too: pebble would re-raise it in the parent and end the whole run.
    """
    watch = DepthWatch()
    etree.use_global_python_log(watch)
    started = time.perf_counter()
    try:
        extracted = extractor(html, url)
        text, metadata, error, markdown = extracted.text, dict(extracted.metadata), None, extracted.markdown
        article = extracted.article_metadata
    except (Exception, SystemExit) as exc:  # the extractor's failure is the result recorded
        text, metadata, error, markdown = "", {}, describe(exc), None
        article = none_found(extractor.article_fields)
    duration_ms = (time.perf_counter() - started) * 1000
    if watch.truncated:
        metadata["incomplete_reason"] = INCOMPLETE_REASON
    return Output(text, metadata, duration_ms, error, watch.truncated, markdown, article)
