"""Benchmark of the annotation queue and of gold saves and history at scale, on SQLite and PostgreSQL.

On each backend a fresh database gets 100,000 pages (bulk Core INSERTs: a few sites, one import batch,
tiny raw/html, a disagreement value and a predicted quality on most pages and NULL on some, gold with mixed
statuses on ~30%),
then the Flask test client measures (median of several runs after one warm-up):

1. GET / (the queue's first 100 rows; target <= 200 ms), GET /?offset=50000, a filtered queue
   (?status=done&site=...) and GET /queue/step/<id>?dir=next from a page in the middle of the queue; the same
   first rows and step in the "least confident first" order (?order=quality; the same target).
2. One more gold save (POST /api/pages/<id>/gold) on a page with 10,000 revisions (a few of them stale
   saves) against the same save on a page with 4 revisions, measured in this run: their ratio should stay
   <= 2 (a save reads and writes O(1) revisions).
3. GET /pages/<id>/history of the 10,000-revision page: its size (target <= 1 MB: the history is paged)
   and its time; also the annotate view of that page (reported).

SQLite runs on a temporary instance folder; PostgreSQL on a database of its own, `bench_queue` on
127.0.0.1 (created, and dropped at the end), ANALYZEd after the load as autovacuum would. --explain prints,
for each measured request, its slowest SQL statements with their time and plan (EXPLAIN QUERY PLAN on
SQLite, EXPLAIN ANALYZE on PostgreSQL).

Run: python benchmarks/bench_queue.py [--pages N] [--backend sqlite|postgresql|both] [--explain].
The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

from sqlalchemy import event, insert, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from machine_load import MachineLoad  # noqa: E402
from model_rows import Like, checked  # noqa: E402
from quick import add_quick  # noqa: E402
from workbench import sign_in  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.annotation.gold import add_revision  # noqa: E402
from webapp.annotation.page_queue import queue_rows  # noqa: E402
from webapp.models import Gold, GoldRevision, ImportBatch, Page, Site  # noqa: E402
from webapp.web.db import database, dispose, sessions  # noqa: E402

PG_HOST, PG_USER, PG_DB = "127.0.0.1", "postgres", "bench_queue"
PG_URL = f"postgresql+psycopg://{PG_USER}@{PG_HOST}:5432/{PG_DB}"

SITES = 8
GOLD_SHARE = 0.30
NULL_SHARE = 0.10  # pages without a disagreement value (fewer than two candidates)
STATUSES = ("done",) * 6 + ("draft",) * 3 + ("skipped",)
PAGE_TYPES = ("article",) * 8 + ("listing", "wall")
AUTHORS = ("ann", "bob", "cid", "dee")
BIG_REVISIONS = 10_000
SMALL_REVISIONS = 4
STALE_EVERY = 1_999  # one stale save in that many revisions of the big page (5 of 10,000)
CHUNK = 10_000
RUNS = 7
SAVE_RUNS = 9


# --- the corpus ---------------------------------------------------------------------------------------

def chunked(rows, size: int = CHUNK):
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def revisions_of(like: Like, gold_id: int, count: int, stale_every: int | None) -> tuple[list[dict], int]:
    """``count`` revisions of one gold, versions increasing, every ``stale_every``-th a stale save (it
    edited a version 3 behind); returns the rows and the gold's version."""
    rows, version = [], 0
    for n in range(count):
        if stale_every and n % stale_every == stale_every - 1 and version > 3:
            edited = version - 3
        else:
            version += 1
            edited = version
        rows.append(like.row(gold_id=gold_id, version=edited, text=f"gold text revision {n}", page_type="article",
                             status="done", author=AUTHORS[n % len(AUTHORS)], client_save_id=f"seed-{n}"))
    return rows, version


def build(app, pages: int) -> dict:
    """Write the corpus; returns the ids the measurements use."""
    rng = random.Random(0)
    engine = database(app).engine
    page_rows, gold_pages = [], []
    for p in range(1, pages + 1):
        disagreement = None if rng.random() < NULL_SHARE else round(rng.random(), 4)
        quality = None if rng.random() < NULL_SHARE else round(rng.random(), 4)
        page_rows.append({
            "id": p, "url": f"https://site{p % SITES}.example/a/{p}", "site_id": p % SITES + 1, "batch_id": 1,
            "source_name": f"{p}.html", "raw": b"<p>x</p>", "sha256": f"{p:064x}", "encoding": "utf-8",
            "encoding_source": "meta", "html": "<p>x</p>", "facts": {}, "disagreement": disagreement,
            "predicted_quality": quality,
        })
        if rng.random() < GOLD_SHARE:
            gold_pages.append(p)
    with engine.begin() as conn:
        conn.execute(insert(Site), checked(Site, [{"id": s + 1, "host": f"site{s}.example"} for s in range(SITES)]))
        conn.execute(insert(ImportBatch),
                     checked(ImportBatch, [{"id": 1, "source": "bench", "format": "jsonl", "imported": pages}]))
        for rows in chunked(checked(Page, page_rows)):
            conn.execute(insert(Page), rows)
    # the first gold page's gold saved by the app's code (gold 1); every other gold and revision copied from it
    with sessions(app)() as session:
        revision = add_revision(session, session.get_one(Page, gold_pages[0]), text="gold", page_type="article",
                                status="done", author=AUTHORS[0], client_save_id="seed-1")
        gold_like, revision_like = Like(revision.gold), Like(revision)
        session.commit()
    # the two pages whose saves are compared: gold done, article, many or few revisions
    big_page, small_page = gold_pages[len(gold_pages) // 2], gold_pages[len(gold_pages) // 2 + 1]
    big_gold = small_gold = 0
    gold_rows, revision_rows = [], []
    for g, p in enumerate(gold_pages[1:], start=2):
        status, page_type, author = rng.choice(STATUSES), rng.choice(PAGE_TYPES), rng.choice(AUTHORS)
        if p in (big_page, small_page):
            if p == big_page:
                big_gold = g
            else:
                small_gold = g
            continue
        gold_rows.append(gold_like.row(id=g, page_id=p, text="gold", page_type=page_type, status=status,
                                       author=author, version=1))
        revision_rows.append(revision_like.row(gold_id=g, version=1, text="gold", page_type=page_type, status=status,
                                               author=author, client_save_id=f"seed-{g}"))
    big_revisions, big_version = revisions_of(revision_like, big_gold, BIG_REVISIONS, STALE_EVERY)
    small_revisions, small_version = revisions_of(revision_like, small_gold, SMALL_REVISIONS, None)
    for g, p, version, rows in ((big_gold, big_page, big_version, big_revisions),
                                (small_gold, small_page, small_version, small_revisions)):
        gold_rows.append(gold_like.row(id=g, page_id=p, text=rows[-1]["text"], page_type="article", status="done",
                                       author="ann", version=version))
        revision_rows += rows
    with engine.begin() as conn:
        for rows in chunked(gold_rows):
            conn.execute(insert(Gold), rows)
        for rows in chunked(revision_rows):
            conn.execute(insert(GoldRevision), rows)
        if engine.dialect.name == "postgresql":  # explicit ids: move the sequences past them
            for table in ("site", "import_batch", "page", "gold", "gold_revision"):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                  f"(SELECT max(id) FROM {table}))"))
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("ANALYZE"))
    with sessions(app)() as session:
        middle = queue_rows(session, offset=int(pages * (1 - GOLD_SHARE)) // 2, limit=1)[0].page_id
    return {"big_page": big_page, "big_version": big_version, "small_page": small_page,
            "small_version": small_version, "middle_page": middle, "gold": len(gold_rows) + 1,
            "revisions": len(revision_rows) + 1, "busy_site": "site2.example"}  # site id 3


# --- measuring ----------------------------------------------------------------------------------------

class StatementLog:
    """The SQL statements the engine runs while ``recording``, with their times."""

    def __init__(self, engine) -> None:
        self.engine, self.on, self.found = engine, False, []
        event.listen(engine, "before_cursor_execute", self.before)
        event.listen(engine, "after_cursor_execute", self.after)

    def before(self, conn, cursor, statement, parameters, context, executemany) -> None:
        conn.info["bench_started"] = time.perf_counter()

    def after(self, conn, cursor, statement, parameters, context, executemany) -> None:
        if self.on and not executemany:
            elapsed = 1000 * (time.perf_counter() - conn.info.pop("bench_started"))
            self.found.append((elapsed, statement, parameters))

    @contextmanager
    def recording(self):
        self.found, self.on = [], True
        try:
            yield self.found
        finally:
            self.on = False

    def plan(self, statement: str, parameters) -> str:
        with self.engine.connect() as conn:
            if self.engine.dialect.name == "postgresql":
                rows = conn.exec_driver_sql("EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters).all()
                found = "\n".join(r[0] for r in rows)
            else:
                rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
                found = "\n".join(f"{r[0]:>3} {r[1]:>3} {r[3]}" for r in rows)
            conn.rollback()
        return found


def timed(call, runs: int = RUNS, expect: int = 200, log: StatementLog | None = None):
    """Median ms of ``runs`` calls after one warm-up, the last response, and (with ``log``) the median
    time of each SQL statement the call runs, in the order it runs them."""
    response = call()
    assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:300])
    times, statements = [], []
    for _ in range(runs):
        with log.recording() if log else nullcontext([]) as found:
            start = time.perf_counter()
            response = call()
            times.append(1000 * (time.perf_counter() - start))
        assert response.status_code == expect, response.status_code
        statements.append(list(found))
    per_statement = []
    if log and statements and all(len(run) == len(statements[0]) for run in statements):
        per_statement = [(statistics.median(run[i][0] for run in statements), statements[0][i][1])
                         for i in range(len(statements[0]))]
    return statistics.median(times), response, per_statement


def explain(log: StatementLog, label: str, call, top: int = 3, at_least_ms: float = 2.0) -> None:
    """Print the slowest statements of one call, with their plans."""
    with log.recording() as found:
        call()
    print(f"\n--- {label}: {len(found)} statements, {sum(t for t, _, _ in found):.1f} ms in SQL")
    for elapsed, statement, parameters in sorted(found, key=lambda f: -f[0])[:top]:
        if elapsed < at_least_ms:
            break
        if not statement.lstrip().upper().startswith(("SELECT", "WITH", "INSERT", "UPDATE", "DELETE")):
            continue
        print(f"[{elapsed:.1f} ms] {' '.join(statement.split())}\n  params: {parameters}")
        print("  " + log.plan(statement, parameters).replace("\n", "\n  "))


def save_call(client, token: str, page_id: int, state: dict):
    """A save of the current version, as the workbench sends it; the next call saves the next one."""
    def call():
        state["n"] += 1
        response = client.post(
            f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
            json={"text": f"bench save {state['n']}", "type": "article", "status": "done",
                  "version": state["version"], "client_save_id": f"bench-{page_id}-{state['n']}"},
        )
        if response.status_code == 200:
            state["version"] = response.get_json()["version"]
        return response
    return call


def figure(value: float, unit: str, at_most: float | None = None) -> dict:
    bound = None if at_most is None else int(at_most) if float(at_most).is_integer() else at_most
    return {"value": round(value, 2 if unit == "x" else 1), "unit": unit,
            "target": None if bound is None else f"<= {bound}",
            "met": None if at_most is None else value <= at_most}


def measure(app, backend: str, pages: int, show_plans: bool) -> dict:
    start = time.perf_counter()
    ids = build(app, pages)
    print(f"\n== {backend}: {pages:,} pages, {ids['gold']:,} gold, {ids['revisions']:,} revisions written in "
          f"{time.perf_counter() - start:.1f} s")
    client = app.test_client()
    token = sign_in(client, "bench")
    log = StatementLog(database(app).engine)
    big, small, middle, site = ids["big_page"], ids["small_page"], ids["middle_page"], ids["busy_site"]
    gets = {
        "queue_ms": ("/", 200, 200),
        "queue_offset_50000_ms": ("/?offset=50000", 200, None),
        "queue_filtered_ms": (f"/?status=done&site={site}", 200, None),
        "step_next_ms": (f"/queue/step/{middle}?dir=next", 302, None),
        "queue_quality_ms": ("/?order=quality", 200, 200),
        "step_next_quality_ms": (f"/queue/step/{middle}?dir=next&order=quality", 302, None),
        "history_10k_ms": (f"/pages/{big}/history", 200, None),
        "annotate_10k_ms": (f"/pages/{big}", 200, None),
    }
    found, responses, sql = {}, {}, {}
    for key, (url, expect, target) in gets.items():
        ms, responses[key], sql[key] = timed(lambda url=url: client.get(url), expect=expect, log=log)
        found[key] = figure(ms, "ms", target)
    first = responses["queue_ms"].get_data(as_text=True)
    assert first.count("<tr data-href=") == 100, "the queue's first page should list 100 rows"
    assert responses["step_next_ms"].location.startswith("/pages/")
    assert responses["queue_quality_ms"].get_data(as_text=True).count("<tr data-href=") == 100
    assert responses["step_next_quality_ms"].location.endswith("?order=quality")
    history = responses["history_10k_ms"].get_data()
    assert history.count(b"<td>stale save</td>") <= 50 and b"Older revisions" in history
    found["history_10k_bytes"] = figure(len(history), "bytes", 1_000_000)
    link = re.search(rb'<a rel="next" href="([^"]+)">Older revisions</a>', history).group(1)
    gets["history_10k_older_ms"] = (html.unescape(link.decode()), 200, None)  # the second page of 50
    ms, _, sql["history_10k_older_ms"] = timed(lambda: client.get(gets["history_10k_older_ms"][0]), log=log)
    found["history_10k_older_ms"] = figure(ms, "ms")

    save_big, save_small = (save_call(client, token, big, {"n": 0, "version": ids["big_version"]}),
                            save_call(client, token, small, {"n": 0, "version": ids["small_version"]}))
    big_ms, _, sql["save_10k_ms"] = timed(save_big, SAVE_RUNS, log=log)
    small_ms, _, sql["save_4_ms"] = timed(save_small, SAVE_RUNS, log=log)
    found["save_10k_ms"] = figure(big_ms, "ms")
    found["save_4_ms"] = figure(small_ms, "ms")
    found["save_ratio"] = figure(big_ms / small_ms, "x", 2)

    print(f"{'figure':24} {'value':>15}  {'target':12} met  {'in SQL':>9}   ({backend}, median of {RUNS}; "
          f"saves of {SAVE_RUNS}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    for key, value in found.items():
        met = "" if value["met"] is None else ("yes" if value["met"] else "NO")
        in_sql = f"{sum(t for t, _ in sql[key]):.1f} ms" if sql.get(key) else ""
        print(f"{key:24} {value['value']:>9} {value['unit']:<5}  {value['target'] or '':12} {met:4} {in_sql:>9}")
    print(f"\nwhere GET / spends its SQL time ({backend}, median per statement):")
    for ms, statement in sorted(sql["queue_ms"], key=lambda f: -f[0])[:4]:
        print(f"  {ms:7.1f} ms  {' '.join(statement.split())[:110]}")
    if show_plans:
        for url, _, _ in gets.values():
            explain(log, f"{backend} GET {url}", lambda url=url: client.get(url))
        explain(log, f"{backend} save on the 10,000-revision page", save_big)
    return {f"{backend}_{key}": value for key, value in found.items()}


def run_sqlite(pages: int, show_plans: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "INSTANCE_PATH": tmp, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite",
                          "SECRET_KEY": "bench"})
        try:
            return measure(app, "sqlite", pages, show_plans)
        finally:
            dispose(app)


def pg(command: str, *args: str) -> None:
    subprocess.run([command, "-h", PG_HOST, "-U", PG_USER, *args, PG_DB], check=True)


def run_postgresql(pages: int, show_plans: bool) -> dict:
    pg("dropdb", "--if-exists")
    pg("createdb")
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "INSTANCE_PATH": tmp, "DATABASE_URL": PG_URL, "SECRET_KEY": "bench"})
        try:
            return measure(app, "postgresql", pages, show_plans)
        finally:
            dispose(app)
            pg("dropdb", "--if-exists")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--explain", action="store_true", help="print the slowest statements and their plans")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:  # the 10,000-revision page stays: it is written in a second
        args.pages, args.backend = 2000, "sqlite"
    load = MachineLoad()
    started = time.perf_counter()
    figures: dict = {}
    if args.backend in ("sqlite", "both"):
        figures |= run_sqlite(args.pages, args.explain)
    if args.backend in ("postgresql", "both"):
        figures |= run_postgresql(args.pages, args.explain)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    print(json.dumps(figures | load.figures()))


if __name__ == "__main__":
    main()
