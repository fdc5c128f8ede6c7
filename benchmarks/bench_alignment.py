"""Benchmark of the alignment of gold lines to a page's blocks (static/js/align.js, run in Debian's Chromium),
which the annotate view runs on every block click and, debounced, after every edit.

For every page of the shared WCXB sample: its gold's lines aligned to the page's blocks (as the highlight
does), and a block click (align, then place). Printed: the median and the slowest page; target: the
slowest page's click <= 100 ms. The Python alignment (webapp/corpus/alignment.py) is timed on the same
pages for reference (it serves tests and server-side checks, not clicks).

Run: python benchmarks/bench_alignment.py. The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from webapp.corpus.alignment import align  # noqa: E402
from webapp.corpus.decoding import decode  # noqa: E402
from webapp.corpus.document import RawDocument  # noqa: E402
from webapp.corpus.readers import iter_documents  # noqa: E402
from webapp.corpus.visible_text import block_lines, parse_html  # noqa: E402

WCXB = ROOT.parent / "shared" / "corpora" / "wcxb-dev-sample"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ORIGIN = "http://goldtext.bench"
TARGET_MS = 100
RUNS = 3

SCRIPT = """async ([pages, runs]) => {
  const m = await import('/static/js/align.js');
  const times = [];
  for (const [lines, blocks] of pages) {
    const highlight = [], click = [];
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      m.align(lines, blocks);
      highlight.push(performance.now() - t);
      t = performance.now();
      m.toggleBlock(lines, blocks, Math.floor(blocks.length / 2));
      click.push(performance.now() - t);
    }
    highlight.sort((a, b) => a - b);
    click.sort((a, b) => a - b);
    times.push([highlight[runs >> 1], click[runs >> 1]]);
  }
  return times;
}"""


def pages() -> list[tuple[list[str], list[str]]]:
    found = []
    for doc in iter_documents([WCXB], "wcxb"):
        if isinstance(doc, RawDocument) and doc.gold:
            html = decode(doc.data, doc.charset).text
            found.append((doc.gold.split("\n"), block_lines(parse_html(html))))
    return found


def browser_ms(cases) -> list[tuple[float, float]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tab = browser.new_page()

        def serve(route):
            path = route.request.url.removeprefix(ORIGIN)
            if path == "/":
                route.fulfill(body="<!doctype html><title>bench</title>", content_type="text/html")
            elif path.startswith("/static/js/") and ".." not in path:
                route.fulfill(path=str(ROOT / path.lstrip("/")), content_type="text/javascript")
            else:
                route.abort()

        tab.route(f"{ORIGIN}/**", serve)
        tab.goto(f"{ORIGIN}/")
        times = tab.evaluate(SCRIPT, [cases, RUNS])
        browser.close()
    return [tuple(t) for t in times]


def main() -> None:
    cases = pages()
    start = time.perf_counter()
    python = []
    for lines, blocks in cases:
        t = time.perf_counter()
        align(lines, blocks)
        python.append((time.perf_counter() - t) * 1000)
    lines = sum(len(c[0]) for c in cases)
    blocks = sum(len(c[1]) for c in cases)
    print(f"{len(cases)} WCXB pages, {lines:,} gold lines, {blocks:,} blocks; "
          f"Python: {time.perf_counter() - start:.1f} s in all, slowest page {max(python):.0f} ms")
    times = browser_ms(cases)
    highlight = [h for h, _ in times]
    click = [c for _, c in times]
    slowest = max(range(len(cases)), key=lambda i: click[i])
    print(f"Chromium: highlight median {statistics.median(highlight):.2f} ms, slowest {max(highlight):.1f} ms; "
          f"click median {statistics.median(click):.2f} ms, slowest {click[slowest]:.1f} ms "
          f"({len(cases[slowest][0])} lines, {len(cases[slowest][1])} blocks)")
    worst = click[slowest]
    print(json.dumps({"alignment_click_slowest_page": {"value": round(worst, 1), "unit": "ms",
                                                       "target": f"<= {TARGET_MS}", "met": worst <= TARGET_MS}}))


if __name__ == "__main__":
    main()
