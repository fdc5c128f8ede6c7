"""What an exported pipeline.py runs: its command line, the pipeline (Goldtext's WARC reader, the Goldtext step,
datatrove's JSONL writer) and the executor (local, Slurm or Ray) that runs it in tasks.

The work splits by file: datatrove gives task RANK of N the WARC files RANK, RANK + N, ... (one file is one
task's), and each task runs its pages through `--extractor-workers` killable extractor processes; on the local
executor a task runs as many calls at once as the cores divided among the tasks still running, so the last
tasks take over the cores of those that finished (crawl/core_share.py). A task that finished leaves
logs/completions/RANK; running the same command again runs only the tasks without one.

The executor is the command line's `--executor`, else the one pipeline.json names (`goldtext export --executor`).
On Ray the command joins the cluster RAY_ADDRESS names (as `ray.init` reads it; without it, the cluster
`ray start` started on this machine, else a Ray of its own), and each task asks the cluster for
`--extractor-workers` CPUs and as many times the memory cap of an extractor process.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import posixpath
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datatrove.pipeline.writers import JsonlWriter

from ..corpus.datatrove_output import DATA
from ..extractors.base import Extractor
from .core_share import share_cores
from .output import LOGS, document_record
from .pins import VersionDrift, build_pinned
from .plan import EXECUTORS, Plan
from .step import GoldtextExtractor
from .warc import GoldtextWarcReader

WARM_PAGE = "<html><head><title>warm</title></head><body><p>Warm up.</p></body></html>"
GLOB_CHARS = "*?["


def split_glob(path: str) -> tuple[str, str | None]:
    """(folder, glob relative to it) of a WARC path, folder or glob (local, or remote as fsspec names it)."""
    parts = path.split("/")
    fixed = next((i for i, part in enumerate(parts) if any(c in part for c in GLOB_CHARS)), None)
    if fixed is not None:
        return "/".join(parts[:fixed]) or ".", "/".join(parts[fixed:])
    if "://" not in path and Path(path).is_dir():
        return path, "**/*.warc*"
    return posixpath.dirname(path) or ".", posixpath.basename(path)


def parser(description: str, executor: str = EXECUTORS[0]) -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(description=description)
    found.add_argument("--warc", required=True, metavar="PATH_OR_GLOB",
                       help="WARC file, folder of WARC files, or glob (local or remote: s3://..., hf://...)")
    found.add_argument("--out", required=True, metavar="FOLDER", help="Output folder: data/ (JSONL) and logs/")
    found.add_argument("--tasks", type=int, default=1, help="Tasks the WARC files are split into (default: 1)")
    found.add_argument("--workers", type=int, default=-1,
                       help="Tasks run at once (default: all; on Slurm and Ray, the cluster's limit)")
    found.add_argument("--executor", choices=EXECUTORS, default=executor,
                       help=f"Where the tasks run (default: {executor}, as exported; ray: the cluster RAY_ADDRESS "
                            "names)")
    found.add_argument("--extractor-workers", type=int, default=1,
                       help="Killable extractor processes per task (default: 1; on the local executor at least "
                            "this many: a task also takes over the cores of the tasks that finished)")
    found.add_argument("--allow-version-drift", action="store_true",
                       help="Run even when the installed libraries differ from the pinned ones (warns, naming each)")
    found.add_argument("--keep-html-bytes", type=int, default=None,
                       help="Keep each page's HTML up to this size in its metadata "
                            "(0: none; default: the configuration's)")
    found.add_argument("--partition", default=None, help="slurm: the partition")
    found.add_argument("--time", default="24:00:00", help="slurm: time limit of a task (default: 24:00:00)")
    return found


def pipeline(config: dict[str, Any], args: argparse.Namespace) -> list[Any]:
    folder, glob = split_glob(args.warc)
    out = args.out.rstrip("/")
    return [
        GoldtextWarcReader(folder, glob_pattern=glob),
        GoldtextExtractor(config, allow_version_drift=args.allow_version_drift, workers=args.extractor_workers,
                          keep_html_bytes=args.keep_html_bytes),
        JsonlWriter(f"{out}/{DATA}", adapter=document_record),
    ]


def executor(config: dict[str, Any], args: argparse.Namespace) -> Any:
    steps = pipeline(config, args)
    logs = f"{args.out.rstrip('/')}/{LOGS}"
    if args.executor == "slurm":
        from datatrove.executor import SlurmPipelineExecutor

        if not args.partition:
            raise SystemExit("--executor slurm needs --partition")
        return SlurmPipelineExecutor(steps, tasks=args.tasks, workers=args.workers, time=args.time,
                                     partition=args.partition, logging_dir=logs, job_name="goldtext-crawl",
                                     venv_path=str(Path(sys.prefix) / "bin" / "activate"))
    if args.executor == "ray":
        from datatrove.executor.ray import RayPipelineExecutor

        # a task's share of the cluster: a CPU and an extractor process's memory cap per extractor process
        return RayPipelineExecutor(steps, tasks=args.tasks, workers=args.workers, logging_dir=logs,
                                   cpus_per_task=args.extractor_workers,
                                   mem_per_cpu_gb=Plan.from_config(config).memory_mb / 1024)
    from datatrove.executor import LocalPipelineExecutor

    # forked, not started by a fork server (datatrove's default): a task starts with this process's libraries
    # imported and its extractors warmed, instead of importing them again (a second of CPU per task)
    return LocalPipelineExecutor(steps, tasks=args.tasks, workers=args.workers, logging_dir=logs,
                                 start_method="fork")


def warm(extractors: Mapping[str, Extractor]) -> None:
    """Call each extractor once on a tiny page, so that its libraries are imported here, once, before the local
    executor forks the tasks and they their extractor processes (each would otherwise import them again). An
    extractor that fails here is left to fail on the pages, where its error is recorded."""
    for extractor in extractors.values():
        try:
            extractor(WARM_PAGE, None)
        except Exception:
            continue


def join_ray() -> str:
    """Connect this command to the Ray cluster (RAY_ADDRESS, else the one started on this machine, else a new one,
    as `ray.init` resolves it); says which, with its nodes and CPUs. SystemExit when Ray is not installed."""
    try:
        import ray
    except ModuleNotFoundError:
        raise SystemExit("--executor ray needs Ray: pip install 'goldtext[ray]'") from None
    ray.init(address=os.environ.get("RAY_ADDRESS") or None, log_to_driver=True)
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    cpus = ray.cluster_resources().get("CPU", 0)
    return f"Ray cluster at {ray.get_runtime_context().gcs_address}: {len(nodes)} nodes, {cpus:g} CPUs"


def unfinished(run: Any) -> list[int]:
    """The ranks without a completion after a run (local and Ray run every task before returning; Ray, unlike
    the local executor, returns without an error when a task failed)."""
    return list(run.get_incomplete_ranks(skip_completed=True))


def main(config_path: Path, argv: Sequence[str] | None = None, description: str = "") -> int:
    """Check the pins, then run the pipeline; 2 with the differences named when the versions drifted, 1 when a
    task of a local or Ray run did not complete."""
    config = json.loads(config_path.read_text(encoding="utf-8"))
    args = parser(description, config.get("executor", EXECUTORS[0])).parse_args(argv)
    try:
        extractors, drift = build_pinned(Plan.from_config(config).pins, args.allow_version_drift)
    except (VersionDrift, ValueError) as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    for difference in drift:
        print(f"warning: version drift: {difference}", file=sys.stderr)
    if args.executor == "local":
        warm(extractors)
        share_cores(min(args.tasks, args.workers) if args.workers > 0 else args.tasks)
        # what this process holds now (the libraries, the warmed extractors) is kept out of the collector's
        # passes in the forked tasks and their extractor processes: never scanned there, nor its pages copied
        gc.freeze()
    if args.executor == "ray":
        print(f"joined the {join_ray()}", file=sys.stderr)
    run = executor(config, args)
    run.run()
    if args.executor != "slurm" and (missing := unfinished(run)):
        print(f"failed: {len(missing)} of {args.tasks} tasks did not complete ({', '.join(map(str, missing))}); "
              f"their logs: {args.out.rstrip('/')}/{LOGS}/logs/task_RANK.log. The same command runs only those.",
              file=sys.stderr)
        return 1
    return 0
