"""Import and extract the shared corpus through the app, and time the bare extractor calls in one process.

    python benchmarks/bench_extract.py [CORPUS] [--processes N] [--rounds N]

The app's run is what `goldtext import CORPUS` then `goldtext extract` do, on a temporary instance
(SQLite in a temporary folder): reading, decoding, page facts, storing, the worker pool, the guard, the
score cache. The bare run calls every built-in extractor directly on the same decoded pages, one after
the other in this process, and gives each extractor's pages per second (what it costs: the README's
table). The ratio (app wall time) / (bare time) is what the worker pool buys on this
machine, net of everything the app does around the calls. Extractors that cannot run here (a missing
package, Node.js or the Go program) are named and left out of both runs. The same calls are also made on
every core at once (benchmarks/every_core.py: this machine's bound, which the app's time is also given
against). The runs alternate for --rounds rounds (default 2) and the fastest of each counts, so a burst of
other work on the machine does not decide
the ratio. The bare calls run in a process forked for them, so that the libraries they load and the helper
programs they start end with it and are never counted as the app's. While the app runs, the peak memory of the
whole process tree is sampled (benchmarks/tree_memory.py: the sum of the processes' PSS, the Node.js, Go and
Rust helpers included) and printed with what each program held at the peak. The last line is one JSON object
of figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from every_core import WARM_UP, seconds_on_every_core
from figures import figure
from machine_load import MachineLoad
from quick import add_quick, sample_corpus
from tree_memory import TreeMemory

from webapp import create_app
from webapp.cli.corpus import run_import
from webapp.cli.extract_commands import run_extraction
from webapp.corpus.decoding import decode
from webapp.corpus.document import RawDocument
from webapp.corpus.readers import iter_documents
from webapp.extractors.process_pool import pool_size
from webapp.extractors.registry import build_registry, runnable
from webapp.extractors.sandbox import quiet_libraries
from webapp.models import Job
from webapp.web.db import readers

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "readability-test-pages"
RATIO_TARGET = 0.55  # two cores bound it near 0.6 here: the bare calls' helpers use a second core (docs/extractors.md)
MEMORY_TARGET_MB = 1024


def app_run(corpus: Path, processes: int | None) -> tuple[float, float]:
    """(import seconds, extract seconds) of a fresh instance importing and extracting the corpus. The
    extraction job's own clock splits its time into extracting (compared with the bare calls) and the
    step that follows, caching scores and measuring disagreement (printed, not compared: the bare calls
    score nothing)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({
            "INSTANCE_PATH": folder,
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
            "SECRET_KEY": "benchmark",
        })
        with app.app_context():
            started = time.perf_counter()
            run_import([str(corpus)], "auto", "url", "importing")
            imported = time.perf_counter()
            job_id = run_extraction(processes=processes)
            whole = time.perf_counter() - imported
            with readers()() as session:
                result = session.get(Job, job_id).result
            print(f"extraction job: {whole:.1f} s = extracting {result['extract_seconds']:.1f} s "
                  f"+ scores and disagreement {result['derive_seconds']:.1f} s (not compared)")
            return imported - started, result["extract_seconds"]


def decoded_pages(corpus: Path) -> list[tuple[str, str | None]]:
    """(html, url) of each page of the corpus, decoded as the import decodes it."""
    return [(decode(doc.data, doc.charset).text, doc.url) for doc in iter_documents([corpus])
            if isinstance(doc, RawDocument)]


def bare_run(corpus: Path) -> tuple[int, dict[str, float], Counter[str]]:
    """(pages, seconds per extractor, errors per extractor) of every runnable built-in called directly."""
    pages = decoded_pages(corpus)
    seconds: dict[str, float] = {}
    errors: Counter[str] = Counter()
    for extractor in runnable(build_registry()):
        name = extractor.name
        extractor(WARM_UP, None)  # imports and caches, not timed
        started = time.perf_counter()
        for html, url in pages:
            try:
                extractor(html, url)
            except Exception:  # an extractor's own failure (boilerpy3 gives up on some pages)
                errors[name] += 1
        seconds[name] = time.perf_counter() - started
    return len(pages), seconds, errors


def in_a_process_of_its_own(corpus: Path) -> tuple[int, dict[str, float], Counter[str]]:
    """bare_run in a process forked for it: its libraries and helper programs (a Node.js process per Node.js
    extractor, the Go and Rust programs, magic-html's Python) end with it, so none of them is left beside the
    app's next run to be counted as the app's memory; its libraries are quieted as in the app's extractor
    processes."""
    with multiprocessing.get_context("fork").Pool(1, initializer=quiet_libraries) as pool:
        return pool.apply(bare_run, (corpus,))


def every_core_run(corpus: Path, processes: int) -> float:
    """Seconds of the bare run's calls (extractor by extractor) on `processes` cores at once
    (benchmarks/every_core.py: the calls, and the helper programs they start, are in its forked processes)."""
    pages = decoded_pages(corpus)
    return seconds_on_every_core([(e, html, url) for e in runnable(build_registry()) for html, url in pages],
                                 processes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--processes", type=int, default=None, help="extractor processes (default: one per core)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds; the fastest of each run counts")
    add_quick(parser)
    args = parser.parse_args()
    load = MachineLoad()
    memory = TreeMemory(watching=False)
    with tempfile.TemporaryDirectory() as tmp:
        if args.quick:  # the corpus's first pages, one round
            args.corpus, args.rounds = sample_corpus(args.corpus, Path(tmp) / "corpus"), 1
        measure(args, load, memory)


def measure(args: argparse.Namespace, load: MachineLoad, memory: TreeMemory) -> None:
    apps, bares, every_core = [], [], []
    processes = pool_size(args.processes)
    for round_ in range(1, args.rounds + 1):
        with memory.watch():
            apps.append(app_run(args.corpus, args.processes))
        bares.append(in_a_process_of_its_own(args.corpus))
        every_core.append(every_core_run(args.corpus, processes))
        print(f"round {round_}: app {sum(apps[-1]):.1f} s, bare {sum(bares[-1][1].values()):.1f} s, "
              f"bare on {processes} cores {every_core[-1]:.1f} s")
    import_s, extract_s = min(apps, key=sum)
    pages, bare, errors = min(bares, key=lambda run: sum(run[1].values()))
    bare_s = sum(bare.values())
    app_s = import_s + extract_s
    ratio = app_s / bare_s

    print(f"\n{pages} pages, {len(bare)} extractors")
    print(f"app: import {import_s:.1f} s + extract {extract_s:.1f} s = {app_s:.1f} s "
          f"({pages / app_s:.2f} pages/s)")
    print(f"bare, one process: {bare_s:.1f} s ({pages / bare_s:.2f} pages/s)")
    for name, seconds in sorted(bare.items(), key=lambda item: -item[1]):
        failed = f", {errors[name]} errors" if errors[name] else ""
        print(f"  {name:24} {seconds:6.1f} s  {seconds / pages * 1000:7.1f} ms/page  "
              f"{pages / seconds:7.1f} pages/s{failed}")
    for extractor in build_registry().values():
        if not extractor.available:
            print(f"  {extractor.name:24} unavailable: {extractor.unavailable_reason}")
    print(f"ratio app / bare: {ratio:.3f} (target <= {RATIO_TARGET})")
    bound_s = min(every_core)
    print(f"the bare calls on {processes} cores at once (benchmarks/every_core.py, this machine's bound): "
          f"{bound_s:.1f} s, {bound_s / bare_s:.3f} of the bare calls' time; the app {app_s / bound_s:.3f} times it")
    peak_mb, at_peak = memory.stop()
    print(f"peak memory of the app's runs (PSS of the process tree): {peak_mb:.0f} MB "
          f"(target < {MEMORY_TARGET_MB}), held by")
    for name, (megabytes, processes) in at_peak.items():
        print(f"  {name:40} {megabytes:6.0f} MB in {processes} process{'es' if processes != 1 else ''}")
    print(json.dumps({
        "app_pages_per_second": figure(pages / app_s, "pages/s"),
        "bare_pages_per_second": figure(pages / bare_s, "pages/s"),
        "import_seconds": figure(import_s, "s"),
        "extract_seconds": figure(extract_s, "s"),
        "bare_seconds": figure(bare_s, "s"),
        "app_over_bare_ratio": figure(ratio, "ratio", f"<= {RATIO_TARGET}", ratio <= RATIO_TARGET),
        "bare_every_core_seconds": figure(bound_s, "s"),
        "bare_every_core_over_bare": figure(bound_s / bare_s, "ratio"),
        "app_over_bare_every_core": figure(app_s / bound_s, "ratio"),
        "peak_memory": figure(peak_mb, "MB", f"< {MEMORY_TARGET_MB}", peak_mb < MEMORY_TARGET_MB),
        **{f"{name}_pages_per_second": figure(pages / seconds, "pages/s") for name, seconds in bare.items()},
    } | load.figures()))


if __name__ == "__main__":
    sys.exit(main())
