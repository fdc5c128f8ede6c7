"""The page-type suggestion (webapp/annotation/type_signals.py) measured against a benchmark's own page
types: on each page of the WCXB sample in ../shared/corpora (its page types are in metadata.json), the
page's facts are read as an import reads them (corpus/page_facts.py) and the suggestion compared with the
benchmark's type. Prints the accuracy per type, which signal decided how often and how often it was right,
and overall; no candidates' verdicts are given (the guard's signal, for JavaScript shells, plays no part).

Run: python benchmarks/bench_type_suggestion.py. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import add_quick  # noqa: E402

from webapp.annotation.type_signals import suggest_type  # noqa: E402
from webapp.corpus.page_facts import page_facts  # noqa: E402
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY  # noqa: E402

WCXB = ROOT.parent / "shared" / "corpora" / "wcxb-dev-sample"
TARGET = 0.6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_quick(parser)
    quick = parser.parse_args().quick
    load = MachineLoad()
    files = json.loads((WCXB / "metadata.json").read_text())["files"]
    if quick:  # a few pages of each type
        files = {k: v for k, v in sorted(files.items()) if int(k) % 20 == 0}
    taxonomy = DEFAULT_TAXONOMY
    right, seen, signals, signals_right = Counter(), Counter(), Counter(), Counter()
    for file_id, meta in sorted(files.items()):
        truth = json.loads((WCXB / "dev" / "ground-truth" / f"{file_id}.json").read_text())
        html = gzip.decompress((WCXB / "dev" / "html" / f"{file_id}.html.gz").read_bytes()).decode("utf-8", "replace")
        suggestion = suggest_type(page_facts(html, truth.get("url")), truth.get("url"), taxonomy)
        signal = suggestion.signal.split(" ")[0] if suggestion.signal != "default" else "default"
        seen[meta["page_type"]] += 1
        signals[signal] += 1
        if suggestion.page_type == meta["page_type"]:
            right[meta["page_type"]] += 1
            signals_right[signal] += 1
    for page_type in sorted(seen):
        print(f"{page_type:14} {right[page_type]:3} of {seen[page_type]:3}  {right[page_type] / seen[page_type]:.3f}")
    for signal, count in signals.most_common():
        print(f"  decided by {signal:16} {count:3} pages, right on {signals_right[signal]}")
    accuracy = sum(right.values()) / sum(seen.values())
    print(f"overall {sum(right.values())} of {sum(seen.values())}: {accuracy:.3f}")
    print(json.dumps({"type_suggestion_accuracy": {"value": round(accuracy, 3), "unit": "share",
                                                   "target": f">= {TARGET}", "met": accuracy >= TARGET}}
                     | load.figures()))


if __name__ == "__main__":
    main()
