"""The exported crawl pipeline against `goldtext extract`: the same extractor on the same pages, in one run.

    python benchmarks/bench_crawl.py [CORPUS ...] [--extractor NAME] [--rounds N]

A temporary instance imports the corpora (default: the shared Readability pages and the WCXB sample), then
`goldtext extract --extractor NAME` runs (one extractor process per core: its extracting time, from the job's
own clock); the pages' bytes are written as 2 WARC files, `goldtext export --format datatrove --extractor NAME
--challenger none` writes the pipeline, and `python pipeline.py --tasks 2 --workers 2` runs it on datatrove's
local executor (wall time of the whole command: start-up, reading and decoding the WARC, page facts, the calls,
writing JSONL), then with `--executor ray` on a Ray cluster of a head and a worker started on this machine (not
in --quick mode), the ratio of the two printed. The bare run calls the extractor directly on the decoded pages
in this process: pages per second per core. The runs alternate for --rounds rounds (default 2), the Ray runs'
rounds after them on the one cluster, and the fastest of each counts. The last line is one JSON object of
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from io import BytesIO
from pathlib import Path

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
from webapp.db import readers, sessions
from webapp.extractors.registry import build_registry
from webapp.models import Job, Page

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


def bare_run(extractor_name: str, pages: list[tuple[str, bytes]]) -> float:
    """Seconds of the extractor called directly on every decoded page, one after the other, in this process."""
    from webapp.corpus.decoding import decode

    extractor = build_registry()[extractor_name]
    decoded = [(decode(raw).text, url) for url, raw in pages]
    extractor("<html><body><p>warm up</p></body></html>", None)
    started = time.perf_counter()
    for html, url in decoded:
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
    """The Ray run's pages per second and its ratio to the local executor's (its fastest run: local_seconds), for
    the last line; none in quick mode, where the cluster's start alone would take longer than the whole run
    (tests/crawl/test_crawl_ray.py runs the pipeline on Ray in CI)."""
    if quick:
        print("pipeline on Ray: not run in quick mode (the cluster's start takes half a minute)")
        return {}
    pipeline_rate = count / local_seconds
    ray_rate = count / min(ray_runs(folder, rounds))
    ratio = ray_rate / pipeline_rate
    print(f"pipeline on Ray ({TASKS} tasks, a head and {TASKS - 1} worker of {RAY_NODE_CPUS} CPU): "
          f"{ray_rate:.1f} pages/s, {ratio:.3f} of the local executor's {pipeline_rate:.1f} pages/s")
    return {"ray_pipeline_pages_per_second": figure(ray_rate, "pages/s"),
            "ray_over_local_pipeline": figure(ratio, "ratio")}


# --- end of the Ray section ---


def figure(value: float, unit: str, target: str | None = None, met: bool | None = None) -> dict:
    return {"value": round(value, 3), "unit": unit, "target": target, "met": met}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--extractor", default="trafilatura")
    parser.add_argument("--rounds", type=int, default=2)
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
        extracts, pipelines, bares = [], [], []
        for round_ in range(1, args.rounds + 1):
            extracts.append(extract_run(app, args.extractor))
            pipelines.append(pipeline_run(folder, round_))
            bares.append(bare_run(args.extractor, pages))
            print(f"round {round_}: goldtext extract {extracts[-1]:.1f} s, pipeline {pipelines[-1]:.1f} s, "
                  f"bare {bares[-1]:.1f} s")
        on_ray = ray_figures(folder, args.rounds, len(pages), min(pipelines), args.quick)
    count = len(pages)
    extract_rate, pipeline_rate, bare_rate = (count / min(runs) for runs in (extracts, pipelines, bares))
    cores = os.cpu_count() or 1
    ratio = pipeline_rate / extract_rate
    per_core = pipeline_rate / min(TASKS, cores) / bare_rate
    print(f"\n{count} pages, extractor {args.extractor}, {cores} cores")
    print(f"goldtext extract: {extract_rate:.1f} pages/s; pipeline ({TASKS} tasks, {TASKS} workers): "
          f"{pipeline_rate:.1f} pages/s; bare call: {bare_rate:.1f} pages/s on one core")
    print(f"pipeline / goldtext extract: {ratio:.3f} (target >= {PIPELINE_TARGET})")
    print(f"pipeline per worker / bare call per core: {per_core:.3f} (target >= {PIPELINE_TARGET})")
    print(json.dumps({
        "pipeline_pages_per_second": figure(pipeline_rate, "pages/s"),
        "extract_pages_per_second": figure(extract_rate, "pages/s"),
        "bare_pages_per_second_per_core": figure(bare_rate, "pages/s"),
        "pipeline_over_extract": figure(ratio, "ratio", f">= {PIPELINE_TARGET}", ratio >= PIPELINE_TARGET),
        "pipeline_per_worker_over_bare": figure(per_core, "ratio", f">= {PIPELINE_TARGET}",
                                                per_core >= PIPELINE_TARGET),
    } | on_ray | load.figures()))


if __name__ == "__main__":
    sys.exit(main())
