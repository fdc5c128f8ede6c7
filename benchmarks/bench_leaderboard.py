"""Benchmark of the live leaderboard at 10,000 and 100,000 gold pages x the 16 registered extractors
(tokens counts cached), each size in a process of its own.

Per size:
1. The first request of a process: the first process of a deployment reads every count from the database
   (and stores the snapshot), a second process (another app on the same database and instance folder)
   starts from that snapshot. The first one's CPU time too (the process's, SQLite's work included), which
   a machine shared with other work changes less than its wall-clock time.
2. The median server time of GET /api/leaderboard and of the leaderboard page, both warm, and of a poll
   answered 304.
3. The delay from a gold save (POST /api/pages/<id>/gold, which rescores that page) to the refreshed figures
   being served by /api/leaderboard: the save's time plus the first changed response's.
4. The process's memory held by the cache: its resident size after the first request minus before it
   (the counts and one board with its bootstrap weights).
And the ratio of the warm API at 100,000 pages to that at 10,000.

The corpus is written straight into a fresh SQLite database with synthetic counts (no texts are scored).
Run: python benchmarks/bench_leaderboard.py [--pages N ...] (default: 10000 100000). The last line
printed is one JSON object, its keys prefixed with the size (`10000_api_leaderboard_ms`).
With `--corpora DIR`, each size's freshly built database is kept in DIR (`leaderboard-N.sqlite`) and a
later run measures a copy of it instead of building it again (100,000 pages take minutes to build); the
kept database is never changed, so every run starts from the same corpus with no snapshot.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from sqlalchemy import insert, select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from machine_load import MachineLoad  # noqa: E402
from model_rows import Like, checked  # noqa: E402
from quick import add_quick  # noqa: E402
from workbench import sign_in  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.annotation.gold import add_revision  # noqa: E402
from webapp.extractors.extraction_service import current_extractors  # noqa: E402
from webapp.extractors.registry import build_registry  # noqa: E402
from webapp.models import Extraction, Gold, GoldRevision, ImportBatch, Page, Score, Site  # noqa: E402
from webapp.scoring import build_metrics  # noqa: E402
from webapp.web.db import dispose, sessions  # noqa: E402

METRICS = build_metrics()
RUNS = 20
SITES = 50
BATCHES = 4
GOLD_WORDS = 12
CHUNK = 2000
TARGETS = {  # pages -> figure -> at most
    10_000: {"first_request_ms": 2000, "api_leaderboard_ms": 100, "leaderboard_page_ms": 150, "poll_304_ms": 10,
             "save_to_refreshed_ms": 300},
    100_000: {"first_request_ms": 15_000, "api_leaderboard_ms": 300, "poll_304_ms": 10, "cache_memory_mb": 500},
}
RATIO_TARGET = 3


def build(maker, pages: int) -> tuple[list[str], int]:
    """The synthetic corpus, written CHUNK pages at a time; returns the fingerprints and the first page's id."""
    rng = random.Random(0)
    gold = " ".join(f"w{i}" for i in range(GOLD_WORDS))
    with maker() as session:
        fingerprints = [e.fingerprint for e in current_extractors(session, build_registry())]
        session.execute(insert(Site), checked(Site, [{"id": s + 1, "host": f"site{s}.example"} for s in range(SITES)]))
        session.execute(insert(ImportBatch), checked(
            ImportBatch, [{"id": b + 1, "source": "bench", "format": "jsonl"} for b in range(BATCHES)]))
        gold_like = revision_like = None
        for first in range(0, pages, CHUNK):
            chunk = range(first, min(first + CHUNK, pages))
            session.execute(insert(Page), checked(Page, [
                {"id": p + 1, "url": f"https://site{p % SITES}.example/{p}", "site_id": p % SITES + 1,
                 "batch_id": p * BATCHES // pages + 1, "source_name": str(p), "raw": b"<p>x</p>",
                 "sha256": f"{p:064d}", "encoding": "utf-8", "encoding_source": "meta", "html": "<p>x</p>", "facts": {}}
                for p in chunk
            ]))
            if gold_like is None:  # the first page's gold saved by the app's code, the others' copied from it
                revision = add_revision(session, session.get_one(Page, 1), text=gold, page_type="article",
                                        status="done", author="ann")
                gold_like, revision_like = Like(revision.gold), Like(revision)
            later = [p for p in chunk if p > 0]
            session.execute(insert(Gold), [gold_like.row(id=p + 1, page_id=p + 1) for p in later])
            session.execute(insert(GoldRevision), [revision_like.row(gold_id=p + 1) for p in later])
            extractions, scores = [], []
            for p in chunk:
                for f, fp in enumerate(fingerprints):
                    ident = p * len(fingerprints) + f + 1
                    kept = rng.randint(GOLD_WORDS // 2, GOLD_WORDS)
                    text = " ".join(gold.split()[:kept])
                    extractions.append({"id": ident, "page_id": p + 1, "extractor": fp.split("|")[0],
                                        "fingerprint": fp, "text": text, "meta": {}, "duration_ms": rng.uniform(1, 50),
                                        "accepted": True, "incomplete": False})
                    scores.append({"extraction_id": ident, "page_id": p + 1, "metric": "tokens",
                                   "metric_version": METRICS["tokens"].version, "gold_version": 1,
                                   "counts": METRICS["tokens"].counts(text, gold)})
            session.execute(insert(Extraction), checked(Extraction, extractions))
            session.execute(insert(Score), checked(Score, scores))
        session.commit()
    return fingerprints, 1


def resident_mb() -> float:
    """This process's resident memory (Linux)."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4096 / 2**20


def median_ms(client, url: str, headers: dict | None = None, expect: int = 200) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(url, headers=headers or {})
        times.append(1000 * (time.perf_counter() - start))
        assert response.status_code == expect, (url, response.status_code)
    return statistics.median(times)


def figure(value: float, unit: str, at_most: float | None = None) -> dict:
    """One figure as the benchmarks print it; `at_most` is its target, if it has one."""
    return {"value": round(value, 1), "unit": unit, "target": None if at_most is None else f"<= {at_most:g}",
            "met": None if at_most is None else value <= at_most}


def new_app(folder: Path):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(folder),
                       "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}", "SECRET_KEY": "bench"})


def one_size(pages: int, corpora: Path | None) -> dict:
    """Every figure of one corpus size, measured in this process (the database removed after); the corpus
    built, or copied from `corpora` where a run kept it (and kept there when built)."""
    with tempfile.TemporaryDirectory() as folder:
        return measure(Path(folder), pages, None if corpora is None else corpora / f"leaderboard-{pages}.sqlite")


def corpus(folder: Path, pages: int, kept: Path | None) -> tuple[object, int]:
    """The app on this size's corpus in `folder`: copied from `kept` when it exists (checked against the
    registered extractors), else built (and copied to `kept`, when given); returns (app, the first page's id)."""
    start = time.perf_counter()
    if kept is not None and kept.exists():
        shutil.copyfile(kept, folder / "bench.sqlite")
        app = new_app(folder)
        with sessions(app)() as session:
            stored = set(session.scalars(select(Extraction.fingerprint).distinct()))
            registered = {e.fingerprint for e in current_extractors(session, build_registry())}
        if stored != registered:
            raise SystemExit(f"{kept} was built for other extractors: remove it to build it again")
        print(f"{pages} pages x {len(stored)} extractors copied from {kept} in {time.perf_counter() - start:.1f} s",
              file=sys.stderr)
        return app, 1
    app = new_app(folder)
    fingerprints, page_id = build(sessions(app), pages)
    print(f"{pages} pages x {len(fingerprints)} extractors written in {time.perf_counter() - start:.1f} s",
          file=sys.stderr)
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        copy_database(folder / "bench.sqlite", kept)
    return app, page_id


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of an SQLite database in WAL mode (its -wal file included), written whole."""
    partial = target.with_suffix(".partial")
    with closing(sqlite3.connect(source)) as reading, closing(sqlite3.connect(partial)) as writing:
        reading.backup(writing)
    partial.replace(target)


def measure(folder: Path, pages: int, kept: Path | None) -> dict:
    targets = TARGETS.get(pages, {})
    app, page_id = corpus(folder, pages, kept)
    client = app.test_client()
    before = resident_mb()
    start, cpu = time.perf_counter(), time.process_time()
    first = client.get("/api/leaderboard")
    cold, cold_cpu = 1000 * (time.perf_counter() - start), 1000 * (time.process_time() - cpu)
    memory = resident_mb() - before
    assert first.get_json()["pages"] == pages
    second = new_app(folder)
    start = time.perf_counter()
    assert second.test_client().get("/api/leaderboard").get_json()["pages"] == pages
    from_snapshot = 1000 * (time.perf_counter() - start)
    dispose(second)
    client.get("/leaderboard")
    figures = {
        "first_request_ms": figure(cold, "ms", targets.get("first_request_ms")),
        "first_request_cpu_ms": figure(cold_cpu, "ms"),
        "first_request_from_snapshot_ms": figure(from_snapshot, "ms", targets.get("first_request_ms")),
        "cache_memory_mb": figure(memory, "MB", targets.get("cache_memory_mb")),
        "api_leaderboard_ms": figure(median_ms(client, "/api/leaderboard"), "ms", targets.get("api_leaderboard_ms")),
        "leaderboard_page_ms": figure(median_ms(client, "/leaderboard"), "ms", targets.get("leaderboard_page_ms")),
        "poll_304_ms": figure(
            median_ms(client, "/api/leaderboard", {"If-None-Match": first.headers["ETag"]}, 304), "ms",
            targets.get("poll_304_ms"),
        ),
    }
    token = sign_in(client)
    delays = []
    tag = first.headers["ETag"]
    for version in range(1, 6):
        start = time.perf_counter()
        saved = client.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                            json={"text": f"w0 w1 edit{version}", "type": "article", "status": "done",
                                  "version": version, "client_save_id": f"bench-{version}"})
        assert saved.status_code == 200, saved.get_json()
        fresh = client.get("/api/leaderboard", headers={"If-None-Match": tag})
        delays.append(1000 * (time.perf_counter() - start))
        assert fresh.status_code == 200
        tag = fresh.headers["ETag"]
    # the page polls every second, so a save shows within 1 s plus this delay
    figures["save_to_refreshed_ms"] = figure(statistics.median(delays), "ms", targets.get("save_to_refreshed_ms"))
    dispose(app)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--corpora", type=Path, help="keep each size's built database here, and reuse it")
    parser.add_argument("--in-process", action="store_true", help="measure the one size given, here")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.pages = [200, 400]
    if args.in_process:
        print(json.dumps(one_size(args.pages[0], args.corpora)))
        return
    load = MachineLoad()
    figures: dict[str, dict] = {}
    for pages in args.pages:
        start = time.perf_counter()
        kept = [] if args.corpora is None else ["--corpora", str(args.corpora.resolve())]
        run = subprocess.run([sys.executable, __file__, "--in-process", "--pages", str(pages), *kept],
                             capture_output=True, text=True, check=False)
        sys.stderr.write(run.stderr)
        if run.returncode != 0:
            raise SystemExit(f"the run at {pages} pages failed")
        found = json.loads(run.stdout.strip().splitlines()[-1])
        print(f"{pages} pages ({time.perf_counter() - start:.0f} s in all, building included)")
        for key, value in found.items():
            print(f"  {key:32} {value['value']} {value['unit']}  (target {value['target']})")
            figures[f"{pages}_{key}"] = value
    small, large = min(args.pages), max(args.pages)
    if small != large:
        ratio = figures[f"{large}_api_leaderboard_ms"]["value"] / figures[f"{small}_api_leaderboard_ms"]["value"]
        figures[f"warm_api_ratio_{large}_over_{small}"] = figure(ratio, "x", RATIO_TARGET)
        print(f"warm API {large} / {small} pages: {ratio:.2f}")
    print(json.dumps(figures | load.figures()))


if __name__ == "__main__":
    main()
