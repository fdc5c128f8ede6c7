"""Benchmark of the alignment of gold lines to a page's blocks (static/js/align.js, run by Node, whose V8 is
the engine of Chromium), which the annotate view runs on every block click and, debounced, after every
edit.

For every page of the shared WCXB sample: its gold's lines aligned to the page's blocks (as the highlight
does), and a block click (align, then place). Printed: the median and the slowest page; target: the
slowest page's click <= 100 ms. The Python alignment (webapp/corpus/alignment.py) is timed on the same
pages for reference (it serves tests and server-side checks, not clicks).

Run: python benchmarks/bench_alignment.py. The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import QUICK_PAGES, add_quick  # noqa: E402

from webapp.corpus.alignment import align  # noqa: E402
from webapp.corpus.decoding import decode  # noqa: E402
from webapp.corpus.document import RawDocument  # noqa: E402
from webapp.corpus.readers import iter_documents  # noqa: E402
from webapp.corpus.visible_text import block_lines, parse_html  # noqa: E402

WCXB = ROOT.parent / "shared" / "corpora" / "wcxb-dev-sample"
TARGET_MS = 100
RUNS = 3

SCRIPT = """
const [cases, runs, module] = process.argv.slice(1);
const m = await import(module);
const pages = JSON.parse((await import("node:fs")).readFileSync(cases, "utf-8"));
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
console.log(JSON.stringify(times));
"""


def pages(most: int | None) -> list[tuple[list[str], list[str]]]:
    found: list[tuple[list[str], list[str]]] = []
    for doc in iter_documents([WCXB], "wcxb"):
        if most is not None and len(found) == most:
            break
        if isinstance(doc, RawDocument) and doc.gold:
            html = decode(doc.data, doc.charset).text
            found.append((doc.gold.split("\n"), block_lines(parse_html(html))))
    return found


def node_ms(cases) -> list[tuple[float, float]]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as file:
        json.dump(cases, file)
        file.flush()
        module = (ROOT / "static" / "js" / "align.js").as_uri()
        out = subprocess.run(["node", "--input-type=module", "-e", SCRIPT, file.name, str(RUNS), module],
                             capture_output=True, text=True, check=True).stdout
    return [tuple(t) for t in json.loads(out)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_quick(parser)
    args = parser.parse_args()
    load = MachineLoad()
    cases = pages(QUICK_PAGES if args.quick else None)
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
    times = node_ms(cases)
    highlight = [h for h, _ in times]
    click = [c for _, c in times]
    slowest = max(range(len(cases)), key=lambda i: click[i])
    print(f"Node: highlight median {statistics.median(highlight):.2f} ms, slowest {max(highlight):.1f} ms; "
          f"click median {statistics.median(click):.2f} ms, slowest {click[slowest]:.1f} ms "
          f"({len(cases[slowest][0])} lines, {len(cases[slowest][1])} blocks)")
    worst = click[slowest]
    figures = {"alignment_click_slowest_page": {"value": round(worst, 1), "unit": "ms", "target": f"<= {TARGET_MS}",
                                                "met": worst <= TARGET_MS}}
    print(json.dumps(figures | load.figures()))


if __name__ == "__main__":
    main()
