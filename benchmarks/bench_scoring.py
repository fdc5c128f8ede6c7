"""Scoring at scale: 10,000 gold pages x 16 extractions of about 600 words, in SQLite.

Prints (a) the time to aggregate the full leaderboard (tokens, 1,000 bootstrap resamples) from the
cached counts, (b) the time to save one gold text and get the refreshed leaderboard, (c) the time to
recompute everything from the texts the naive way (read every text, count, aggregate), and (c)/(b).
Usage: python benchmarks/bench_scoring.py [--pages 10000] [--extractors 16] [--saves 20]
The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from machine_load import MachineLoad
from model_rows import checked
from quick import add_quick
from sqlalchemy import insert, select

from webapp import create_app
from webapp.annotation.gold import add_revision
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY, FLAT
from webapp.models import Extraction, Gold, ImportBatch, Page, Score, Site
from webapp.results.cache import ScoreCache
from webapp.results.leaderboard_figures import leaderboard
from webapp.results.store import gold_changed
from webapp.scoring import build_metrics, eager, summarize_many
from webapp.scoring.markdown_text import markdown_of_text
from webapp.web.db import sessions

METRICS = build_metrics()
EAGER = eager(METRICS)
WORDS = [f"w{i}" for i in range(4000)] + ["the", "a", "of", "and", "to", "in", "train", "garden"]


def article(rng: random.Random, words: int = 600) -> str:
    lines, line = [], []
    for _ in range(words):
        line.append(rng.choice(WORDS))
        if len(line) >= rng.randint(40, 90):
            lines.append(" ".join(line) + ".")
            line = []
    return "\n".join(lines + [" ".join(line)])


def variant(rng: random.Random, gold: str, k: int) -> str:
    """Extractor k's take on the gold: some lines dropped, some boilerplate added."""
    lines = [ln for ln in gold.splitlines() if rng.random() > 0.04 * (k % 4)]
    noise = [" ".join(rng.choices(WORDS, k=12)) for _ in range(k % 5)]
    return "\n".join(noise + lines)


def populate(app, pages: int, extractors: int, rng: random.Random) -> list[str]:
    names = [f"extractor-{k}" for k in range(extractors)]
    with sessions(app)() as session:
        session.execute(insert(Site), [{"host": f"site{i}.example"} for i in range(20)])
        session.add(ImportBatch(source="bench", format="jsonl", report=[]))
        session.flush()
        for start in range(0, pages, 1000):
            ids = range(start + 1, min(start + 1000, pages) + 1)
            golds = {i: article(rng) for i in ids}
            session.execute(insert(Page), checked(Page, [
                {"id": i, "url": f"https://site{i % 20}.example/{i}", "site_id": i % 20 + 1, "batch_id": 1,
                 "source_name": f"p{i}", "raw": b"<p></p>", "sha256": f"{i:064x}", "encoding": "utf-8",
                 "encoding_source": "bom", "html": "<p></p>", "facts": {}} for i in ids
            ]))
            session.execute(insert(Gold), checked(Gold, [
                {"page_id": i, "text": golds[i], "markdown": markdown_of_text(golds[i]), "text_source": FLAT,
                 "page_type": "article", "status": "done", "author": "bench", "version": 1} for i in ids
            ]))
            session.execute(insert(Extraction), checked(Extraction, [
                {"page_id": i, "extractor": n, "fingerprint": f"{n}|1|{{}}",
                 "text": variant(rng, golds[i], k), "meta": {}} for i in ids for k, n in enumerate(names)
            ]))
        session.commit()
    return names


def naive(app) -> tuple[float, list[dict]]:
    """Read every text, compute the tokens counts, aggregate: what a cache-less tool does on each change."""
    metric = METRICS["tokens"]
    started = time.perf_counter()
    with sessions(app)() as session:
        rows = session.execute(
            select(Extraction.id, Extraction.page_id, Extraction.fingerprint, Extraction.text, Gold.text)
            .join(Gold, Gold.page_id == Extraction.page_id).order_by(Extraction.page_id, Extraction.id)
        ).all()
    counted = [(eid, pid, fp, metric.counts(text, gold)) for eid, pid, fp, text, gold in rows]
    table: dict[str, list[dict]] = {}
    for _, _, fp, counts in counted:
        table.setdefault(fp, []).append(counts)
    summarize_many(METRICS["tokens"], table, bootstrap=1000)
    elapsed = time.perf_counter() - started
    score_rows = [
        {"extraction_id": eid, "page_id": pid, "metric": "tokens", "metric_version": metric.version,
         "gold_version": 1, "counts": counts} for eid, pid, _, counts in counted
    ]
    return elapsed, score_rows


def store_counts(app, score_rows: list[dict]) -> None:
    with sessions(app)() as session:
        for start in range(0, len(score_rows), 5000):
            session.execute(insert(Score), checked(Score, score_rows[start:start + 5000]))
        session.commit()


def figure(value: float, unit: str, target: str | None) -> dict:
    met = None
    if target is not None:
        op, bound = target.split()
        met = value <= float(bound) if op == "<=" else value >= float(bound)
    return {"value": round(value, 3), "unit": unit, "target": target, "met": met}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--extractors", type=int, default=16)
    parser.add_argument("--saves", type=int, default=20)
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.pages, args.extractors, args.saves = 300, 4, 3
    load = MachineLoad()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE_PATH": tmp, "DATABASE_URL": f"sqlite:///{Path(tmp) / 'bench.sqlite'}",
                          "SECRET_KEY": "bench"})
        started = time.perf_counter()
        names = populate(app, args.pages, args.extractors, rng)
        print(f"populated {args.pages} pages x {args.extractors} extractions in {time.perf_counter() - started:.1f} s")
        naive_s, score_rows = naive(app)
        print(f"(c) naive recompute from texts: {naive_s * 1000:.0f} ms")
        store_counts(app, score_rows)
        named = {n: f"{n}|1|{{}}" for n in names}

        cache = ScoreCache(METRICS)
        with sessions(app)() as session:
            started = time.perf_counter()
            cache.sync(session)
            load_ms = (time.perf_counter() - started) * 1000
        print(f"cold load of the cached counts: {load_ms:.0f} ms")
        full = []
        for _ in range(5):
            cache.boards.clear()
            started = time.perf_counter()
            board = leaderboard(cache, "tokens", named, bootstrap=1000)
            full.append((time.perf_counter() - started) * 1000)
        aggregate_ms = statistics.median(full)
        print(f"(a) full leaderboard from cache: median {aggregate_ms:.0f} ms over 5, {board['pages']} pages")

        saves = []
        for _ in range(args.saves):
            page_id = rng.randint(1, args.pages)
            started = time.perf_counter()
            with sessions(app)() as session:
                page = session.get(Page, page_id)
                add_revision(session, page, text=article(rng), page_type="article", status="done", author="bench")
                gold_changed(session, EAGER, page.id, no_content=DEFAULT_TAXONOMY.no_content)
                session.commit()
                cache.sync(session)
            board = leaderboard(cache, "tokens", named, bootstrap=1000)
            saves.append((time.perf_counter() - started) * 1000)
        save_ms = statistics.median(saves)
        print(f"(b) save one gold text + refreshed leaderboard: median {save_ms:.1f} ms over {args.saves}")
        ratio = naive_s * 1000 / save_ms
        print(f"(c)/(b) = {ratio:.0f}")
        print(json.dumps({
            "leaderboard_from_cache_ms": figure(aggregate_ms, "ms", "<= 250"),
            "save_and_refresh_ms": figure(save_ms, "ms", "<= 30"),
            "naive_recompute_ms": figure(naive_s * 1000, "ms", None),
            "naive_over_save_ratio": figure(ratio, "x", ">= 100"),
            "cold_cache_load_ms": figure(load_ms, "ms", None),
        } | load.figures()))


if __name__ == "__main__":
    main()
