"""Benchmark of the anchoring figures (results/anchoring.py) on a synthetic board of 10,000 gold pages x
16 extractors (tokens counts, a third of the pages started from one extractor each), from the leaderboard's
own board (its values and bootstrap weights, 1,000 resamples), which the leaderboard has built already:

- the split (every leaderboard request after a change of the data): target <= 200 ms;
- the unanchored board and its tiers (the Unanchored option, once per version of the data): target
  <= 5,000 ms.

Run: python benchmarks/bench_anchoring.py [--pages N]. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import add_quick  # noqa: E402

from webapp.results.anchoring import Anchored  # noqa: E402
from webapp.scoring import build_metrics  # noqa: E402
from webapp.scoring.leaderboard_maths import Leaderboard  # noqa: E402
from webapp.scoring.subsets import Subsets  # noqa: E402

EXTRACTORS = 16
SPLIT_TARGET_MS = 200
UNANCHORED_TARGET_MS = 5000


def board(pages: int) -> tuple[Leaderboard, dict[int, frozenset[str]]]:
    rng = random.Random(0)
    names = [f"extractor-{i}" for i in range(EXTRACTORS)]
    table: dict[str, list[dict]] = {name: [] for name in names}
    for _ in range(pages):
        for name in names:
            gold = rng.randint(50, 500)
            hit = rng.randint(0, gold)
            table[name].append({"hit": hit, "extracted": hit + rng.randint(0, 100), "gold": gold, "exact": False,
                                "errored": False})
    started = {page: frozenset({rng.choice(names)}) for page in range(0, pages, 3)}
    return Leaderboard(build_metrics()["tokens"], table, list(range(pages)), None, 1000, 0), started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.pages = 300
    load = MachineLoad()
    built, started = board(args.pages)
    names = list(built.values)
    t = time.perf_counter()
    anchored = Anchored(Subsets.of_leaderboard(built), built.page_ids, names, started)
    anchored.split()
    split_ms = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    figures = anchored.unanchored(1000, 0)
    anchored.tiers({name: f["f1"] for name, f in figures.items()}, 1000, 0)
    unanchored_ms = (time.perf_counter() - t) * 1000
    print(f"{args.pages} pages x {EXTRACTORS} extractors: split {split_ms:.0f} ms, unanchored with tiers "
          f"{unanchored_ms:.0f} ms")
    print(json.dumps({
        "anchoring_split_ms": {"value": round(split_ms, 1), "unit": "ms", "target": f"<= {SPLIT_TARGET_MS}",
                               "met": split_ms <= SPLIT_TARGET_MS},
        "anchoring_unanchored_ms": {"value": round(unanchored_ms, 1), "unit": "ms",
                                    "target": f"<= {UNANCHORED_TARGET_MS}",
                                    "met": unanchored_ms <= UNANCHORED_TARGET_MS},
    } | load.figures()))


if __name__ == "__main__":
    main()
