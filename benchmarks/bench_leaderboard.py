"""Benchmark of the live leaderboard with 10,000 gold pages x 10 extractors (tokens counts cached).

1. Median server time of GET /api/leaderboard and of the leaderboard page, both warm (target <= 200 ms each),
   and of a poll answered 304.
2. The delay from a gold save (POST /api/pages/<id>/gold, which rescores that page) to the refreshed figures
   being served by /api/leaderboard: the save's time plus the first changed response's.

The corpus is written straight into a fresh SQLite database with synthetic counts (no texts are scored).
Run: python benchmarks/bench_leaderboard.py [--pages N]. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from workbench import sign_in  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.db import dispose, sessions  # noqa: E402
from webapp.extractors.registry import build_registry  # noqa: E402
from webapp.extractors.service import current_extractors  # noqa: E402
from webapp.models import Extraction, Gold, GoldRevision, ImportBatch, Page, Score, Site  # noqa: E402
from webapp.scoring import build_metrics  # noqa: E402

METRICS = build_metrics()
RUNS = 20
SITES = 50
BATCHES = 4
GOLD_WORDS = 12


def build(maker, pages: int) -> tuple[list[str], int]:
    """The synthetic corpus; returns the fingerprints and the first page's id."""
    rng = random.Random(0)
    gold = " ".join(f"w{i}" for i in range(GOLD_WORDS))
    with maker() as session:
        fingerprints = [e.fingerprint for e in current_extractors(session, build_registry())]
        session.execute(insert(Site), [{"id": s + 1, "host": f"site{s}.example"} for s in range(SITES)])
        session.execute(insert(ImportBatch),
                        [{"id": b + 1, "source": "bench", "format": "jsonl"} for b in range(BATCHES)])
        session.execute(insert(Page), [
            {"id": p + 1, "url": f"https://site{p % SITES}.example/{p}", "site_id": p % SITES + 1,
             "batch_id": p * BATCHES // pages + 1, "source_name": str(p), "raw": b"<p>x</p>", "sha256": f"{p:064d}",
             "encoding": "utf-8", "encoding_source": "meta", "html": "<p>x</p>", "facts": {}}
            for p in range(pages)
        ])
        session.execute(insert(Gold), [
            {"id": p + 1, "page_id": p + 1, "text": gold, "kind": "article", "status": "done", "author": "ann",
             "version": 1} for p in range(pages)
        ])
        session.execute(insert(GoldRevision), [
            {"gold_id": p + 1, "version": 1, "text": gold, "kind": "article", "status": "done", "author": "ann"}
            for p in range(pages)
        ])
        extractions, scores = [], []
        for p in range(pages):
            for f, fp in enumerate(fingerprints):
                ident = p * len(fingerprints) + f + 1
                kept = rng.randint(GOLD_WORDS // 2, GOLD_WORDS)
                text = " ".join(gold.split()[:kept])
                extractions.append({"id": ident, "page_id": p + 1, "extractor": fp.split("|")[0], "fingerprint": fp,
                                    "text": text, "meta": {}, "duration_ms": rng.uniform(1, 50), "accepted": True,
                                    "incomplete": False})
                scores.append({"extraction_id": ident, "page_id": p + 1, "metric": "tokens",
                               "metric_version": METRICS["tokens"].version, "gold_version": 1,
                               "counts": METRICS["tokens"].counts(text, gold)})
        session.execute(insert(Extraction), extractions)
        session.execute(insert(Score), scores)
        session.commit()
    return fingerprints, 1


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=10_000)
    pages = parser.parse_args().pages
    folder = Path(tempfile.mkdtemp())
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder),
                      "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}", "SECRET_KEY": "bench"})
    start = time.perf_counter()
    fingerprints, page_id = build(sessions(app), pages)
    print(f"{pages} pages x {len(fingerprints)} extractors written in {time.perf_counter() - start:.1f} s")
    client = app.test_client()
    start = time.perf_counter()
    first = client.get("/api/leaderboard")
    cold = 1000 * (time.perf_counter() - start)
    assert first.get_json()["pages"] == pages
    client.get("/leaderboard")
    figures = {
        "cold_api_ms": figure(cold, "ms"),
        "api_leaderboard_ms": figure(median_ms(client, "/api/leaderboard"), "ms", 200),
        "leaderboard_page_ms": figure(median_ms(client, "/leaderboard"), "ms", 200),
        "poll_304_ms": figure(
            median_ms(client, "/api/leaderboard", {"If-None-Match": first.headers["ETag"]}, 304), "ms"
        ),
    }
    token = sign_in(client)
    delays = []
    tag = first.headers["ETag"]
    for version in range(1, 6):
        start = time.perf_counter()
        saved = client.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                            json={"text": f"w0 w1 edit{version}", "kind": "article", "status": "done",
                                  "version": version, "client_save_id": f"bench-{version}"})
        assert saved.status_code == 200, saved.get_json()
        fresh = client.get("/api/leaderboard", headers={"If-None-Match": tag})
        delays.append(1000 * (time.perf_counter() - start))
        assert fresh.status_code == 200
        tag = fresh.headers["ETag"]
    # the page polls every second, so a save shows within 1 s plus this delay: the issue asks for 2 s
    figures["save_to_refreshed_ms"] = figure(statistics.median(delays), "ms", 1000)
    print(f"{pages} pages x {len(fingerprints)} extractors")
    for key, value in figures.items():
        print(f"{key:24} {value['value']} {value['unit']}")
    print(json.dumps(figures))
    dispose(app)


if __name__ == "__main__":
    main()
