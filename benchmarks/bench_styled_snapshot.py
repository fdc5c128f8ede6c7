"""The styled snapshot's cost per request: a captured page rewritten to name only its captured requisites
(capture/styled_html.py `styled_document`: every stylesheet link, `<style>`, `style` attribute and image
of the page), which the raw route does on each request for `?styled=1`. The pages are real: the WCXB sample
in ../shared/corpora; every stylesheet and image each page names is taken as captured, so that every URL
is rewritten (the most work a page can ask).

Run: python benchmarks/bench_styled_snapshot.py [--quick]. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import QUICK_PAGES, add_quick  # noqa: E402

from webapp.capture.styled_html import page_references, styled_document  # noqa: E402

WCXB = ROOT.parent / "shared" / "corpora" / "wcxb-dev-sample" / "dev"
TARGET_MS = 100.0
"""The 95th percentile of one page's rewriting, in CPU time (the figure a loaded machine changes least): well
under the frame's own load. The first request of a page pays it; the next are served from the styled
documents kept (web/page_variants.py)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_quick(parser)
    quick = parser.parse_args().quick
    if not WCXB.is_dir():
        sys.exit(f"{WCXB} is missing: the benchmark reads the shared corpora")
    load = MachineLoad()
    files = sorted((WCXB / "html").glob("*.html.gz"))[:QUICK_PAGES if quick else None]
    times, walls, named = [], [], 0
    for path in files:
        html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        url = f"https://{path.stem}.example/page"
        sheets, others = page_references(html, url)
        kept = {ref: f"/pages/1/requisites/{n}" for n, ref in enumerate(sheets + others)}
        named += len(kept)
        started, wall = time.process_time(), time.perf_counter()
        styled_document(html, url, kept.get)
        times.append((time.process_time() - started) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
    print(f"{len(files)} pages, {named} URLs rewritten; CPU time per page: median {statistics.median(times):.1f} ms, "
          f"95th percentile {p95:.1f} ms, most {max(times):.1f} ms (wall time: median "
          f"{statistics.median(walls):.1f} ms, most {max(walls):.1f} ms)")
    print(json.dumps({"styled_snapshot_p95_ms": {"value": round(p95, 1), "unit": "ms", "target": f"<= {TARGET_MS:g}",
                                                 "met": p95 <= TARGET_MS}} | load.figures()))


if __name__ == "__main__":
    main()
