"""Agreement figures on a repeated request: what the Agreement page computes (agreement and the spread
of the per-page text F1, overall and by site and by annotator), first on texts never seen by the
process (cold), then again on fresh copies of the same texts, as the next request reads them from the
database (warm: the pairs' F1 are kept per process, scoring/agreement_maths.text_f1).

The texts are real: the gold of the WCXB sample in ../shared/corpora (read by the wcxb reader) is one
annotator's text; the other's drops every fifth line and rewords every ninth, and a third annotator
agrees with the first on every other page.

Run: python benchmarks/bench_agreement.py [--repeat 5]. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import QUICK_PAGES, add_quick  # noqa: E402

from webapp.corpus.document import RawDocument  # noqa: E402
from webapp.corpus.readers import iter_documents  # noqa: E402
from webapp.scoring.agreement_maths import AnnotatedPage, Said, agreement, distributions  # noqa: E402

WCXB = ROOT.parent / "shared" / "corpora" / "wcxb-dev-sample"
TARGET = 0.2


def other_hand(text: str) -> str:
    lines = text.split("\n")
    return "\n".join(f"{line} (reworded)" if n % 9 == 0 else line for n, line in enumerate(lines) if n % 5 != 4)


def corpus() -> list[AnnotatedPage]:
    pages = []
    for n, doc in enumerate(d for d in iter_documents([WCXB], "wcxb") if isinstance(d, RawDocument) and d.gold):
        gold, page_type = doc.gold or "", doc.page_type or "other"
        said = [Said("ann", gold, page_type), Said("bob", other_hand(gold), page_type)]
        if n % 2:
            said.append(Said("cy", gold, page_type))
        pages.append(AnnotatedPage(n, tuple(said), gold, doc.url or "", page_type))
    return pages


def fresh(pages: list[AnnotatedPage]) -> list[AnnotatedPage]:
    """Copies with new string objects, as a new database read gives."""
    def copy(text: str) -> str:
        return "".join([text[:1], text[1:]])
    return [AnnotatedPage(p.page_id, tuple(Said(s.author, copy(s.text), s.page_type) for s in p.said),
                          copy(p.gold or ""), p.site, p.gold_page_type) for p in pages]


def request(pages: list[AnnotatedPage]) -> float:
    started = time.perf_counter()
    for by in (None, "site", "annotator"):
        agreement(pages, by)
        distributions(pages, by)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    add_quick(parser)
    args = parser.parse_args()
    load = MachineLoad()
    pages = corpus()  # a new process: no pair is kept yet
    if args.quick:
        pages, args.repeat = pages[:QUICK_PAGES], 1
    cold = request(fresh(pages))
    warm = statistics.median(request(fresh(pages)) for _ in range(args.repeat))
    chars = sum(len(s.text) for p in pages for s in p.said)
    print(f"{len(pages)} double-annotated pages, {chars:,} characters of annotations")
    print(f"cold: {cold * 1000:.0f} ms; warm (median of {args.repeat}): {warm * 1000:.0f} ms; "
          f"warm/cold {warm / cold:.3f}")
    print(json.dumps({
        "agreement_cold_ms": {"value": round(cold * 1000, 1), "unit": "ms", "target": "none", "met": True},
        "agreement_warm_ratio": {"value": round(warm / cold, 3), "unit": "ratio", "target": f"<= {TARGET:g}",
                                 "met": warm / cold <= TARGET},
    } | load.figures()))


if __name__ == "__main__":
    main()
