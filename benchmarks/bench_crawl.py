"""The exported crawl pipeline against `goldtext extract`: the same extractor on the same pages, in one run.

    python benchmarks/bench_crawl.py [CORPUS ...] [--extractor NAME] [--rounds N]

A temporary instance imports the corpora (default: the shared Readability pages and the WCXB sample), then
`goldtext extract --extractor NAME` runs (one extractor process per core: its extracting time, from the job's
own clock); the pages' bytes are written as 2 WARC files, `goldtext export --format datatrove --extractor NAME
--challenger none` writes the pipeline, and `python pipeline.py --tasks 2 --workers 2` runs it on datatrove's
local executor (wall time of the whole command: start-up, reading and decoding the WARC, page facts, the calls,
writing JSONL). The bare run calls the extractor directly on the decoded pages in this process: pages per
second per core. The same calls are then made on as many cores as the pipeline's workers at once
(benchmarks/every_core.py): this machine's bound for a run of 2 workers, which each figure is also given
against. The runs alternate for --rounds rounds (default 3) and the median of each counts, so that the
ratios compare runs taken under the same load. Beside the wall times it measures each run's CPU seconds (the
process and every child it waited for: the app's extractor processes, the pipeline's tasks and theirs), which a
busy machine inflates far less than wall time: the pipeline's CPU per page over the bare call's says what it
spends around the calls whatever the load (the app's job is left out: its CPU includes the scoring step after
the extraction). Then, not in --quick mode, the same pipeline with `--executor ray` on a Ray cluster of a
head and a worker started on this machine, its rounds after the others on the one cluster, the ratio to the
local executor printed. The last line is one JSON object of figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from io import BytesIO
from pathlib import Path

from every_core import WARM_UP, seconds_on_every_core
from figures import figure
from machine_load import MachineLoad
from quick import add_quick, sample_corpus
from sqlalchemy import select
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from webapp import create_app
from webapp.cli.corpus import run_import
from webapp.cli.crawl import run_pipeline_export
from webapp.cli.extract_commands import run_extraction
from webapp.crawl.choice import NO_CHALLENGER, PipelineRequest
from webapp.extractors.base import Extractor
from webapp.extractors.registry import build_registry
from webapp.models import Job, Page
from webapp.web.db import readers, sessions

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
DEFAULT = [CORPORA / "readability-test-pages", CORPORA / "wcxb-dev-sample"]
PIPELINE_TARGET = 0.9
TASKS = 2


def write_warcs(folder: Path, pages: list[tuple[str, bytes]]) -> None:
    """The pages as HTML responses, shared round-robin among TASKS gzipped WARC files (one per task)."""
    folder.mkdir()
    streams = [(folder / f"crawl-{n}.warc.gz").open("wb") for n in range(TASKS)]
    writers = [WARCWriter(stream, gzip=True) for stream in streams]
    for number, (url, raw) in enumerate(pages):
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer = writers[number % TASKS]
        writer.write_record(writer.create_warc_record(url, "response", payload=BytesIO(raw), http_headers=http))
    for stream in streams:
        stream.close()


def prepare(folder: Path, corpora: list[Path]) -> tuple[object, list[tuple[str, bytes]]]:
    """A fresh instance with the corpora imported, every page given a URL (a crawl's pages have one)."""
    app = create_app({"INSTANCE_PATH": str(folder), "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
                      "SECRET_KEY": "benchmark"})
    with app.app_context():
        run_import([str(c) for c in corpora], "auto", "url", "importing")
        with sessions()() as session:
            for page in session.scalars(select(Page)):
                page.url = page.url or f"https://pages.example/{page.id}"
            session.commit()
            pages = [(p.url, p.raw) for p in session.scalars(select(Page).order_by(Page.id))]
    return app, pages


def extract_run(app, extractor: str) -> float:
    """Seconds of `goldtext extract --extractor NAME --force` extracting (the job's own clock)."""
    with app.app_context():
        job_id = run_extraction((extractor,), force=True)
        with readers()() as session:
            return session.get(Job, job_id).result["extract_seconds"]


def pipeline_run(folder: Path, round_: int) -> float:
    """Wall seconds of `python pipeline.py --tasks 2 --workers 2` over the WARC files."""
    out = folder / f"out-{round_}"
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    subprocess.run([sys.executable, str(folder / "pipeline" / "pipeline.py"), "--warc", str(folder / "warc"),
                    "--out", str(out), "--tasks", str(TASKS), "--workers", str(TASKS)],
                   env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def bare_calls(extractor_name: str, pages: list[tuple[str, bytes]]) -> list[tuple[Extractor, str, str | None]]:
    """The extractor's call on each decoded page: (extractor, html, url)."""
    from webapp.corpus.decoding import decode

    extractor = build_registry()[extractor_name]
    return [(extractor, decode(raw).text, url) for url, raw in pages]


def bare_run(calls: list[tuple[Extractor, str, str | None]]) -> float:
    """Seconds of the calls made directly, one after the other, in this process."""
    calls[0][0](WARM_UP, None)
    started = time.perf_counter()
    for extractor, html, url in calls:
        extractor(html, url)
    return time.perf_counter() - started


# --- The same pipeline on Ray: a local cluster of a head and a worker, one CPU each (tests/ray_cluster.py) ---

RAY_NODE_CPUS = 1


def ray_runs(folder: Path, rounds: int) -> list[float]:
    """Wall seconds of `python pipeline.py --tasks 2 --executor ray` over the WARC files, on a Ray cluster of a
    head and a worker started here with `ray start` (RAY_NODE_CPUS each: the local executor's 2 workers), once per
    round; the cluster's own start (half a minute) is not counted, the command's joining it and the tasks'
    start are, as the local executor's start is."""
    sys.path.insert(0, str(ROOT / "tests"))
    from ray_cluster import ray_cluster

    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    seconds = []
    with ray_cluster(folder / "ray", workers=TASKS - 1, cpus=RAY_NODE_CPUS, env=env) as address:
        for round_ in range(1, rounds + 1):
            started = time.perf_counter()
            subprocess.run([sys.executable, str(folder / "pipeline" / "pipeline.py"), "--warc", str(folder / "warc"),
                            "--out", str(folder / f"out-ray-{round_}"), "--tasks", str(TASKS), "--executor", "ray"],
                           env=env | {"RAY_ADDRESS": address}, check=True, capture_output=True)
            seconds.append(time.perf_counter() - started)
            print(f"round {round_}: pipeline on Ray {seconds[-1]:.1f} s", flush=True)
    return seconds


def ray_figures(folder: Path, rounds: int, count: int, local_seconds: float, quick: bool) -> dict:
    """The Ray run's pages per second and its ratio to the local executor's (its median run: local_seconds), for
    the last line; none in quick mode, where the cluster's start alone would take longer than the whole run
    (tests/crawl/test_crawl_ray.py runs the pipeline on Ray in CI)."""
    if quick:
        print("pipeline on Ray: not run in quick mode (the cluster's start takes half a minute)")
        return {}
    pipeline_rate = count / local_seconds
    ray_rate = count / statistics.median(ray_runs(folder, rounds))
    ratio = ray_rate / pipeline_rate
    print(f"pipeline on Ray ({TASKS} tasks, a head and {TASKS - 1} worker of {RAY_NODE_CPUS} CPU): "
          f"{ray_rate:.1f} pages/s, {ratio:.3f} of the local executor's {pipeline_rate:.1f} pages/s")
    return {"ray_pipeline_pages_per_second": figure(ray_rate, "pages/s"),
            "ray_over_local_pipeline": figure(ratio, "ratio")}


# --- end of the Ray section ---


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of every child it has waited for."""
    return sum(usage.ru_utime + usage.ru_stime
               for usage in map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))


def measured(run: Callable[[], float]) -> tuple[float, float]:
    """(the run's own figure of seconds, the CPU seconds spent meanwhile by this process and its children)."""
    started = cpu_seconds()
    seconds = run()
    return seconds, cpu_seconds() - started


def cpu_figures(count: int, pipeline_cpu: list[float], bare_cpu: list[float]) -> dict[str, dict]:
    """The median CPU milliseconds per page of the pipeline (every process of it) and of the bare calls."""
    pipeline_ms, bare_ms = (statistics.median(runs) / count * 1000 for runs in (pipeline_cpu, bare_cpu))
    print(f"CPU per page: pipeline {pipeline_ms:.1f} ms, bare call {bare_ms:.1f} ms "
          f"(pipeline / bare {pipeline_ms / bare_ms:.3f})")
    return {"pipeline_cpu_ms_per_page": figure(pipeline_ms, "ms"), "bare_cpu_ms_per_page": figure(bare_ms, "ms"),
            "pipeline_over_bare_cpu": figure(pipeline_ms / bare_ms, "ratio")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--extractor", default="trafilatura")
    parser.add_argument("--rounds", type=int, default=3)
    add_quick(parser)
    args = parser.parse_args()
    load = MachineLoad()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.quick:  # the first Readability pages, one round
            args.corpora, args.rounds = [sample_corpus(DEFAULT[0], folder / "quick-corpus")], 1
        app, pages = prepare(folder, args.corpora)
        write_warcs(folder / "warc", pages)
        with app.app_context():
            run_pipeline_export(folder / "pipeline", PipelineRequest(args.extractor, challenger=NO_CHALLENGER))
        calls = bare_calls(args.extractor, pages)
        workers = min(TASKS, os.cpu_count() or 1)
        extracts, pipelines, bares, pipeline_cpu, bare_cpu, every_core = [], [], [], [], [], []
        for round_ in range(1, args.rounds + 1):
            extracts.append(extract_run(app, args.extractor))
            seconds, cpu = measured(partial(pipeline_run, folder, round_))
            pipelines.append(seconds)
            pipeline_cpu.append(cpu)
            seconds, cpu = measured(partial(bare_run, calls))
            bares.append(seconds)
            bare_cpu.append(cpu)
            every_core.append(seconds_on_every_core(calls, workers))
            print(f"round {round_}: goldtext extract {extracts[-1]:.1f} s, pipeline {pipelines[-1]:.1f} s "
                  f"({pipeline_cpu[-1]:.1f} s CPU), bare {bares[-1]:.1f} s ({bare_cpu[-1]:.1f} s CPU), "
                  f"bare on {workers} cores {every_core[-1]:.1f} s", flush=True)
        on_ray = ray_figures(folder, args.rounds, len(pages), statistics.median(pipelines), args.quick)
    count = len(pages)
    extract_rate, pipeline_rate, bare_rate, bound_rate = (
        count / statistics.median(runs) for runs in (extracts, pipelines, bares, every_core))
    cores = os.cpu_count() or 1
    ratio = pipeline_rate / extract_rate
    per_core = pipeline_rate / workers / bare_rate
    print(f"\n{count} pages, extractor {args.extractor}, {cores} cores")
    print(f"goldtext extract: {extract_rate:.1f} pages/s; pipeline ({TASKS} tasks, {TASKS} workers): "
          f"{pipeline_rate:.1f} pages/s; bare call: {bare_rate:.1f} pages/s on one core")
    print(f"pipeline / goldtext extract: {ratio:.3f} (target >= {PIPELINE_TARGET})")
    print(f"pipeline per worker / bare call per core: {per_core:.3f} (target >= {PIPELINE_TARGET})")
    print(f"the bare calls on {workers} cores at once (benchmarks/every_core.py, this machine's bound): "
          f"{bound_rate:.1f} pages/s, {bound_rate / workers / bare_rate:.3f} of the bare call per core; "
          f"the pipeline {pipeline_rate / bound_rate:.3f} of it, goldtext extract {extract_rate / bound_rate:.3f}")
    cpu = cpu_figures(count, pipeline_cpu, bare_cpu)
    print(json.dumps({
        "pipeline_pages_per_second": figure(pipeline_rate, "pages/s"),
        "extract_pages_per_second": figure(extract_rate, "pages/s"),
        "bare_pages_per_second_per_core": figure(bare_rate, "pages/s"),
        "pipeline_over_extract": figure(ratio, "ratio", f">= {PIPELINE_TARGET}", ratio >= PIPELINE_TARGET),
        "pipeline_per_worker_over_bare": figure(per_core, "ratio", f">= {PIPELINE_TARGET}",
                                                per_core >= PIPELINE_TARGET),
        "bare_every_core_pages_per_second": figure(bound_rate, "pages/s"),
        "pipeline_over_bare_every_core": figure(pipeline_rate / bound_rate, "ratio"),
        "extract_over_bare_every_core": figure(extract_rate / bound_rate, "ratio"),
    } | cpu | on_ray | load.figures()))


if __name__ == "__main__":
    sys.exit(main())
