"""What an exported pipeline.py runs: its command line, the pipeline (Goldtext's WARC reader, the Goldtext step,
datatrove's JSONL writer) and the executor (local, Slurm or Ray) that runs it in tasks.

The work splits by file: datatrove gives task RANK of N the WARC files RANK, RANK + N, ... (one file is one
task's), and each task runs its pages through `--extractor-workers` killable extractor processes. A task that
finished leaves logs/completions/RANK; running the same command again runs only the tasks without one.
"""

from __future__ import annotations

import argparse
import json
import posixpath
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datatrove.pipeline.writers import JsonlWriter

from ..corpus.datatrove_output import DATA
from ..extractors.base import Extractor
from .output import LOGS, document_record
from .pins import VersionDrift, build_pinned
from .plan import Plan
from .step import GoldtextExtractor
from .warc import GoldtextWarcReader

EXECUTORS = ("local", "slurm", "ray")
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


def parser(description: str) -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(description=description)
    found.add_argument("--warc", required=True, metavar="PATH_OR_GLOB",
                       help="WARC file, folder of WARC files, or glob (local or remote: s3://..., hf://...)")
    found.add_argument("--out", required=True, metavar="FOLDER", help="Output folder: data/ (JSONL) and logs/")
    found.add_argument("--tasks", type=int, default=1, help="Tasks the WARC files are split into (default: 1)")
    found.add_argument("--workers", type=int, default=-1,
                       help="Tasks run at once (default: all; on Slurm and Ray, the cluster's limit)")
    found.add_argument("--executor", choices=EXECUTORS, default="local", help="Where the tasks run (default: local)")
    found.add_argument("--extractor-workers", type=int, default=1,
                       help="Killable extractor processes per task (default: 1)")
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

        return RayPipelineExecutor(steps, tasks=args.tasks, workers=args.workers, logging_dir=logs)
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


def main(config_path: Path, argv: Sequence[str] | None = None, description: str = "") -> int:
    """Check the pins, then run the pipeline; 2 with the differences named when the versions drifted."""
    args = parser(description).parse_args(argv)
    config = json.loads(config_path.read_text(encoding="utf-8"))
    try:
        extractors, drift = build_pinned(Plan.from_config(config).pins, args.allow_version_drift)
    except (VersionDrift, ValueError) as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    for difference in drift:
        print(f"warning: version drift: {difference}", file=sys.stderr)
    if args.executor == "local":
        warm(extractors)
    executor(config, args).run()
    return 0
