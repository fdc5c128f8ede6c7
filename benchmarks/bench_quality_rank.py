"""How well rs-trafilatura's predicted extraction quality ranks pages by their true word F1.

    python benchmarks/bench_quality_rank.py [CORPORA]

rs-trafilatura (0.2.2, through the Rust program) predicts for each page how good its own extraction is
(`extraction_quality`, 0 to 1; the crate suggests a fallback below 0.80). For each WCXB folder of the shared corpora
(wcxb-dev-sample, wcxb-dev-sites) this runs the registered `rs-trafilatura` on every page, scores its text with the
WCXB word F1 against the page's gold (`main_content`), and prints the Spearman rank correlation between the
prediction and the F1 (Pearson's correlation of the ranks, ties given their mean rank), and the mean F1 of the
pages predicted below 0.80 and of the others. The readability test pages are ranked the same way against
Readability.js's own text (reference gold, not human gold). The last line is one JSON object of figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path

from machine_load import MachineLoad
from quick import add_quick

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.registry import build_registry
from webapp.scoring.wcxb_metric import word_scores

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
FALLBACK_BELOW = 0.80
"""The quality below which rs-trafilatura's README suggests a fallback extractor."""


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank from 1, tied values sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    found = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            found[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return found


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    return statistics.correlation(ranks(xs), ranks(ys))


def wcxb_pages(folder: Path) -> Iterator[tuple[str, str, str]]:
    """(file id, HTML, gold text) of each page of a WCXB folder with a gold."""
    for truth in sorted((folder / "dev" / "ground-truth").glob("*.json")):
        gold = json.loads(truth.read_text())["ground_truth"].get("main_content") or ""
        html_file = folder / "dev" / "html" / f"{truth.stem}.html.gz"
        if gold and html_file.is_file():
            yield truth.stem, gzip.decompress(html_file.read_bytes()).decode("utf-8", errors="replace"), gold


def readability_pages(folder: Path) -> Iterator[tuple[str, str, str]]:
    """(slug, HTML, Readability.js's text) of each test page."""
    for page in sorted(p for p in folder.iterdir() if (p / "expected.html").is_file()):
        reference = block_text(parse_html((page / "expected.html").read_text(encoding="utf-8")))
        yield page.name, (page / "source.html").read_text(encoding="utf-8", errors="replace"), reference


def measure(pages: Iterator[tuple[str, str, str]]) -> dict[str, float]:
    extractor = build_registry()["rs-trafilatura"]
    qualities, f1s = [], []
    for _, html, gold in pages:
        extracted = extractor(html, None)
        qualities.append(extracted.metadata["extraction_quality"])
        f1s.append(word_scores(extracted.text, gold)[2])
    low = [f1 for quality, f1 in zip(qualities, f1s) if quality < FALLBACK_BELOW]
    high = [f1 for quality, f1 in zip(qualities, f1s) if quality >= FALLBACK_BELOW]
    return {"pages": len(f1s), "spearman": spearman(qualities, f1s), "distinct_predictions": len(set(qualities)),
            "below": len(low), "f1_below": statistics.fmean(low) if low else float("nan"),
            "f1_above": statistics.fmean(high) if high else float("nan"), "f1": statistics.fmean(f1s)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="?", type=Path, default=CORPORA)
    add_quick(parser)
    args = parser.parse_args()
    load = MachineLoad()
    extractor = build_registry()["rs-trafilatura"]
    if not extractor.available:
        sys.exit(f"rs-trafilatura is unavailable: {extractor.unavailable_reason}")
    print(f"rs-trafilatura: {extractor.version}")
    figures = {}
    for name, pages in (("wcxb-dev-sample", wcxb_pages(args.corpora / "wcxb-dev-sample")),
                        ("wcxb-dev-sites", wcxb_pages(args.corpora / "wcxb-dev-sites")),
                        ("readability-test-pages", readability_pages(args.corpora / "readability-test-pages"))):
        found = measure(islice(pages, 12) if args.quick else pages)
        print(f"{name}: {found['pages']} pages, mean F1 {found['f1']:.3f}, Spearman {found['spearman']:.3f} "
              f"({found['distinct_predictions']} distinct predictions); predicted below {FALLBACK_BELOW}: "
              f"{found['below']} pages, mean F1 {found['f1_below']:.3f}; the others {found['f1_above']:.3f}")
        figures[f"{name}_spearman"] = {"value": round(found["spearman"], 3), "unit": "rho", "target": "> 0",
                                       "met": found["spearman"] > 0}
    print(json.dumps(figures | load.figures()))


if __name__ == "__main__":
    main()
