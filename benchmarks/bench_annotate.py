"""Benchmark of the annotate view and of the browser's word diff.

1. Median server time of the annotate view for the largest page of the shared corpus, with every
   registered extractor's output stored (target <= 100 ms).
2. Median time of the word diff (static/js/worddiff.js, run in Debian's Chromium) between a 20,000-word
   text and an edited copy of it (target <= 50 ms).

Run: python benchmarks/bench_annotate.py. The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import add_quick  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.annotation.gold import add_revision  # noqa: E402
from webapp.cli.extract_commands import run_extraction  # noqa: E402
from webapp.corpus.importer import import_documents, start_batch  # noqa: E402
from webapp.corpus.readers import iter_documents  # noqa: E402
from webapp.extractors.extraction_service import current_extractors  # noqa: E402
from webapp.extractors.registry import build_registry  # noqa: E402
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY  # noqa: E402
from webapp.web.db import dispose, sessions  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "readability-test-pages"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
VIEW_RUNS = 30
DIFF_RUNS = 15
DIFF_WORDS = 20_000


def figure(value: float | None, target: float) -> dict:
    return {"value": None if value is None else round(value, 2), "unit": "ms", "target": f"<= {target:g}",
            "met": value is not None and value <= target}


def page_by_size(largest: bool) -> Path:
    return (max if largest else min)(CORPUS.glob("*/source.html"), key=lambda path: path.stat().st_size)


def annotate_view_ms(app, source: Path, runs: int) -> float:
    """Import the page, store every extractor's output, then time GET /pages/<id>."""
    with sessions(app)() as session:
        batch = start_batch(session, str(source), "folder", "benchmark")
        (outcome,) = list(import_documents(session, batch, iter_documents([source], "folder"), "url",
                                          taxonomy=DEFAULT_TAXONOMY, add_gold=add_revision))
        extractors = current_extractors(session, build_registry())
        session.commit()
    with app.app_context():
        run_extraction()
    client = app.test_client()
    with client.session_transaction() as flask_session:
        flask_session["annotator"] = "bench"
    url = f"/pages/{outcome.page_id}"
    assert client.get(url).status_code == 200  # warm-up: templates compiled, engine made
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    print(f"annotate view: {source.parent.name} ({source.stat().st_size:,} bytes), "
          f"{len(extractors)} extractions, median of {runs}")
    return statistics.median(times)


def texts(count: int) -> tuple[str, str]:
    """A text of `count` words in paragraphs and a copy with about 3% of its words changed, dropped or added."""
    rng = random.Random(0)
    vocabulary = [f"w{n}" for n in range(3000)] + ["the", "of", "and", "a", "to", "in"] * 200
    words = [rng.choice(vocabulary) for _ in range(count)]
    edited = []
    for word in words:
        roll = rng.random()
        if roll < 0.01:
            continue
        edited.append("changed" if roll < 0.02 else word)
        if roll > 0.99:
            edited.append("added")
    para = lambda ws: "\n".join(" ".join(ws[i : i + 80]) for i in range(0, len(ws), 80))  # noqa: E731
    return para(words), para(edited)


DIFF_SCRIPT = """async ([a, b, runs]) => {
  const m = await import('/static/js/worddiff.js');
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    m.diff(m.words(a), m.words(b));
    times.push(performance.now() - t);
  }
  return times;
}"""


def word_diff_ms(app, words: int, runs: int) -> float | None:
    if not Path(CHROMIUM).exists():
        print(f"word diff: {CHROMIUM} missing, not measured")
        return None
    from playwright.sync_api import sync_playwright

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    a, b = texts(words)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_port}/upload")
            times = page.evaluate(DIFF_SCRIPT, [a, b, runs])
            browser.close()
    finally:
        server.shutdown()
    print(f"word diff: {words:,} words against an edited copy in Chromium, median of {runs}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_quick(parser)
    quick = parser.parse_args().quick
    load = MachineLoad()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE_PATH": tmp, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite",
                          "SECRET_KEY": "bench"})
        try:
            view = annotate_view_ms(app, page_by_size(largest=not quick), 3 if quick else VIEW_RUNS)
            diff = word_diff_ms(app, DIFF_WORDS // 10 if quick else DIFF_WORDS, 2 if quick else DIFF_RUNS)
        finally:
            dispose(app)
    figures = {"annotate_view_median": figure(view, 100), "word_diff_20k_words": figure(diff, 50)}
    print(json.dumps(figures | load.figures()))


if __name__ == "__main__":
    main()
