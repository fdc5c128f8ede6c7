"""Benchmark of the lead's console (GET /team) after a long day of a team, on SQLite.

A fresh database gets PAGES pages (bulk Core INSERTs), each annotated by two of ANNOTATORS annotators
(finished, each save with its effort, texts of a few hundred words that differ a little), GOLD_SHARE of
them adjudicated, and CONTROLS control pages given to every annotator and answered; then the Flask test
client measures GET /team (median of several runs after one warm-up; target <= 1,000 ms, the "about a
second" no view of the team's day took) and a page's thread (GET /pages/ID/comments, reported).

Run: python benchmarks/bench_console.py [--pages N] [--repeat N]. The last line printed is one JSON object
of the figures.
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

from machine_load import MachineLoad  # noqa: E402
from quick import add_quick  # noqa: E402
from workbench import sign_in  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.foundation.migrate import upgrade  # noqa: E402
from webapp.models import (  # noqa: E402
    Annotation,
    AnnotationRevision,
    Assignment,
    ControlPage,
    Gold,
    ImportBatch,
    Page,
    Site,
)
from webapp.web.db import database, dispose  # noqa: E402

ANNOTATORS = ("ann", "bob", "cleo", "dan")
GOLD_SHARE = 0.6
CONTROLS = 50
WORDS = 300
TARGET_MS = 1000.0
CHUNK = 1000


def text(rng: random.Random, base: list[str]) -> str:
    """The base words with a few changed, as lines of 30 words."""
    words = [w if rng.random() > 0.05 else f"other{rng.randrange(1000)}" for w in base]
    return "\n".join(" ".join(words[i:i + 30]) for i in range(0, len(words), 30))


def build(app, pages: int) -> int:
    """Write the corpus; returns a page id with two annotations."""
    rng = random.Random(0)
    engine = database(app).engine
    upgrade(engine)
    page_rows, annotations, revisions, golds, controls, assignments = [], [], [], [], [], []
    for p in range(1, pages + 1):
        page_rows.append({"id": p, "url": f"https://site{p % 4}.example/{p}", "site_id": p % 4 + 1, "batch_id": 1,
                          "source_name": f"{p}.html", "raw": b"<p>x</p>", "sha256": f"{p:064x}",
                          "encoding": "utf-8", "encoding_source": "meta", "html": "<p>x</p>", "facts": {}})
        base = [f"w{rng.randrange(5000)}" for _ in range(WORDS)]
        control = p <= CONTROLS
        who = ANNOTATORS if control else rng.sample(ANNOTATORS, 2)
        for name in who:
            a = len(annotations) + 1
            said = text(rng, base)
            annotations.append({"id": a, "page_id": p, "author": name, "text": said, "page_type": "article",
                                "status": "done", "version": 1})
            revisions.append({"annotation_id": a, "version": 1, "text": said, "page_type": "article", "status": "done",
                              "author": name, "effort": {"active_seconds": rng.uniform(30, 600), "actions": {}}})
        if control or rng.random() < GOLD_SHARE:
            golds.append({"page_id": p, "text": " ".join(base), "page_type": "article", "status": "done",
                          "author": "rita", "version": 1})
        if control:
            controls.append({"page_id": p, "text": " ".join(base), "page_type": "article", "gold_version": 1,
                             "author": "rita"})
            assignments += [{"page_id": p, "author": name} for name in ANNOTATORS]
    with engine.begin() as conn:
        conn.execute(insert(Site), [{"id": s + 1, "host": f"site{s}.example"} for s in range(4)])
        conn.execute(insert(ImportBatch), [{"id": 1, "source": "bench", "format": "jsonl", "imported": pages}])
        for model, rows in ((Page, page_rows), (Annotation, annotations), (AnnotationRevision, revisions),
                            (Gold, golds), (ControlPage, controls), (Assignment, assignments)):
            for start in range(0, len(rows), CHUNK):
                conn.execute(insert(model), rows[start:start + CHUNK])
    return CONTROLS + 1


def timed(client, path: str, repeat: int) -> float:
    """The median milliseconds of GET path over `repeat` runs, after one warm-up."""
    assert client.get(path).status_code == 200, path
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(path)
        runs.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, path
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.pages, args.repeat = 60, 1
    load = MachineLoad()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "INSTANCE_PATH": tmp, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite",
                          "SECRET_KEY": "bench"})
        try:
            page_id = build(app, args.pages)
            client = app.test_client()
            sign_in(client, "rita")  # local mode: an admin, a lead
            console = timed(client, "/team", args.repeat)
            thread = timed(client, f"/pages/{page_id}/comments", args.repeat)
        finally:
            dispose(app)
    print(f"{args.pages:,} pages, each annotated by two of {len(ANNOTATORS)} annotators "
          f"(the {CONTROLS} control pages by all)")
    print(f"GET /team: {console:.0f} ms (median of {args.repeat}); a page's thread: {thread:.0f} ms")
    print(json.dumps({
        "console_ms": {"value": round(console, 1), "unit": "ms", "target": f"<= {TARGET_MS:g}",
                       "met": console <= TARGET_MS},
        "thread_ms": {"value": round(thread, 1), "unit": "ms", "target": "none", "met": True},
    } | load.figures()))


if __name__ == "__main__":
    main()
