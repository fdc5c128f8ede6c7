"""The benchmarks' quick mode: every script in benchmarks/ takes `--quick`, which runs it on tiny sizes in
seconds. CI runs each in that mode (.ci/run), so that a change which breaks a benchmark fails CI; the
figures of a quick run say only that it ran (its targets are for the full sizes, which stay outside CI).
tests/project/test_benchmarks.py checks that every script takes the flag."""

from __future__ import annotations

import argparse
from pathlib import Path

QUICK_PAGES = 6


def add_quick(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes, seconds: CI's check that the benchmark runs (not its figures)")


def sample_corpus(corpus: Path, into: Path, pages: int = QUICK_PAGES) -> Path:
    """A folder `into` of links to the first `pages` page folders of a folder-per-page corpus (the Readability
    test pages), in name order: the corpus a quick run imports."""
    into.mkdir(parents=True, exist_ok=True)
    for entry in sorted(p for p in corpus.iterdir() if p.is_dir())[:pages]:
        (into / entry.name).symlink_to(entry, target_is_directory=True)
    return into
