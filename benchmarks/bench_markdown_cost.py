"""What keeping Markdown costs: extraction with Markdown candidates against text only, and a save's refresh with
the structure metrics against without them, in one run.

    python benchmarks/bench_markdown_cost.py [CORPUS] [--rounds N] [--saves N]

Extraction: every runnable extractor that gives Markdown is called on the corpus's decoded pages in this
process, as `benchmarks/bench_extract.py` calls them, while the steps that write its Markdown are timed apart:
html-to-markdown's conversion of the kept HTML (`html_markdown`), trafilatura's Markdown rendering of its tree
(`xmltotxt` with formatting) and the tidying (`tidy`). Text only is the same call without those steps (its
time less theirs): that is what the extractor cost before it kept Markdown, as its text is computed the same way
either way. Where the Markdown is written inside a helper program (rs-trafilatura's Rust, the Node and Go
helpers return HTML that is converted here), what the helper spends on it is counted as extraction.

Refresh: a temporary instance imports the corpus and extracts it with trafilatura and readability; a save
recomputes the saved page's counts of every eager metric (`gold_changed`). Each sampled page's counts are
dropped and recomputed, once with the registry as it is (its eager metrics: what a save runs) and once with the
structure metrics (those that read the Markdown) taken out, each first in turn; the medians are compared. A structure
metric is scored by a refresh job, not at a save (metric.eager is False), so the two should agree; the line
after says what a save would cost if they were computed with it (eager plus structure metrics).

The targets (issue 37): at most 1.2 times each. The last line is one JSON object of figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from figures import figure
from machine_load import MachineLoad
from quick import add_quick, sample_corpus
from sqlalchemy import delete, select

from webapp import create_app
from webapp.cli.corpus import run_import
from webapp.cli.extract_commands import run_extraction
from webapp.corpus.decoding import decode
from webapp.corpus.document import RawDocument
from webapp.corpus.readers import iter_documents
from webapp.extractors import (
    density,
    whole_page,
    with_defuddle,
    with_go,
    with_magic_html,
    with_readability,
    with_readability_js,
    with_rust,
    with_trafilatura,
)
from webapp.extractors.registry import build_registry, runnable
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY
from webapp.models import Gold, Score
from webapp.results.store import gold_changed
from webapp.scoring import Metric, build_metrics, eager
from webapp.web.db import sessions

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
CORPUS = CORPORA / "wcxb-dev-sample"
QUICK_CORPUS = CORPORA / "readability-test-pages"
TARGET = 1.2
STORED_EXTRACTORS = ("trafilatura", "readability")
MARKDOWN_STEPS: tuple[tuple[ModuleType, str], ...] = (
    *((module, "html_markdown") for module in (density, whole_page, with_defuddle, with_go, with_magic_html,
                                                with_readability, with_readability_js, with_rust)),
    (with_rust, "tidy"), (with_trafilatura, "tidy"), (with_trafilatura, "xmltotxt"),
)
"""Where each extractor module calls the steps that write its Markdown (the names it imported them under)."""


class MarkdownClock:
    """Seconds spent in the Markdown steps since the last `take()`."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def timed(self, step: Callable[..., Any], always: bool) -> Callable[..., Any]:
        """The step, timed (trafilatura's `xmltotxt` only when it renders formatting: its text is the same call
        without)."""
        def run(*args: Any, **kwargs: Any) -> Any:
            if not always and not (args[1:2] == (True,) or kwargs.get("include_formatting")):
                return step(*args, **kwargs)
            started = time.perf_counter()
            try:
                return step(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started
        return run

    def take(self) -> float:
        seconds, self.seconds = self.seconds, 0.0
        return seconds


@contextmanager
def clocked_markdown(clock: MarkdownClock) -> Iterator[None]:
    """Within: every Markdown step of the extractor modules timed by clock."""
    originals = [(module, name, getattr(module, name)) for module, name in MARKDOWN_STEPS]
    for module, name, step in originals:
        setattr(module, name, clock.timed(step, always=name != "xmltotxt"))
    try:
        yield
    finally:
        for module, name, step in originals:
            setattr(module, name, step)


def extraction_costs(corpus: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """name -> (median seconds of its calls on every page, median seconds of its Markdown steps among them)."""
    pages = [(decode(doc.data, doc.charset).text, doc.url)
             for doc in iter_documents([corpus]) if isinstance(doc, RawDocument)]
    clock = MarkdownClock()
    runs: dict[str, list[tuple[float, float]]] = defaultdict(list)
    extractors = [extractor for extractor in runnable(build_registry()) if extractor.structure]
    with clocked_markdown(clock):
        for _ in range(rounds):
            for extractor in extractors:
                extractor("<html><body><p>warm up</p></body></html>", None)
                clock.take()
                started = time.perf_counter()
                for html, url in pages:
                    try:
                        extractor(html, url)
                    except Exception:  # an extractor's own failure is no cost of Markdown
                        continue
                runs[extractor.name].append((time.perf_counter() - started, clock.take()))
    return {name: (statistics.median(whole for whole, _ in found), statistics.median(md for _, md in found))
            for name, found in runs.items()}


def without_structure(metrics: Mapping[str, Metric]) -> dict[str, Metric]:
    return {name: metric for name, metric in metrics.items() if metric.needs != "markdown"}


def refresh_ms(app: Any, page_id: int, metrics: Mapping[str, Metric]) -> float:
    """Milliseconds of a save's refresh of the page's counts of these metrics, its counts dropped first."""
    with sessions(app)() as session:
        session.execute(delete(Score).where(Score.page_id == page_id))
        session.commit()
        started = time.perf_counter()
        gold_changed(session, metrics, page_id, no_content=DEFAULT_TAXONOMY.no_content)
        session.commit()
        return (time.perf_counter() - started) * 1000


def refresh_costs(folder: Path, corpus: Path, saves: int) -> tuple[float, float, float]:
    """Median milliseconds of a save's refresh: as the app runs it, without the structure metrics, and with the
    structure metrics computed at the save too."""
    app = create_app({"INSTANCE_PATH": str(folder), "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
                      "SECRET_KEY": "benchmark"})
    metrics = {name: metric for name, metric in build_metrics().items() if metric.available}
    sets = (eager(metrics), eager(without_structure(metrics)),
            eager(metrics) | {n: m for n, m in metrics.items() if m.needs == "markdown"})
    with app.app_context():
        run_import([str(corpus)], "auto", "url", "importing")
        run_extraction(STORED_EXTRACTORS)
        with sessions(app)() as session:
            page_ids = sorted(session.scalars(select(Gold.page_id)))
    sample = random.Random(1).sample(page_ids, min(saves, len(page_ids)))
    times: list[list[float]] = [[], [], []]
    refresh_ms(app, sample[0], sets[2])  # the first refresh reads the tables from disk: not timed
    for number, page_id in enumerate(sample):
        for which in (number % 3, (number + 1) % 3, (number + 2) % 3):  # each set first in turn
            times[which].append(refresh_ms(app, page_id, sets[which]))
    print(f"eager metrics (what a save refreshes): {', '.join(sets[0])}")
    return statistics.median(times[0]), statistics.median(times[1]), statistics.median(times[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the extraction; the median counts")
    parser.add_argument("--saves", type=int, default=30, help="pages whose save's refresh is timed")
    add_quick(parser)
    args = parser.parse_args()
    load = MachineLoad()
    with tempfile.TemporaryDirectory() as tmp:
        if args.quick:  # the first Readability pages, one round, three saves
            args.corpus = sample_corpus(QUICK_CORPUS, Path(tmp) / "corpus")
            args.rounds, args.saves = 1, 3
        costs = extraction_costs(args.corpus, args.rounds)
        as_app, without, at_save = refresh_costs(Path(tmp), args.corpus, args.saves)
    print("extractor                 with Markdown   text only   ratio")
    for name, (whole, markdown) in sorted(costs.items(), key=lambda item: -item[1][1]):
        print(f"  {name:24} {whole:8.2f} s  {whole - markdown:8.2f} s  {whole / (whole - markdown):6.3f}")
    whole = sum(seconds for seconds, _ in costs.values())
    markdown = sum(seconds for _, seconds in costs.values())
    extraction = whole / (whole - markdown)
    refresh = as_app / without
    print(f"extraction with Markdown / text only, all of them: {extraction:.3f} (target <= {TARGET})")
    print(f"a save's refresh: {as_app:.1f} ms, without the structure metrics {without:.1f} ms: {refresh:.3f} "
          f"(target <= {TARGET}); with them computed at the save: {at_save:.1f} ms ({at_save / without:.2f} x)")
    print(json.dumps({
        "extraction_markdown_over_text": figure(extraction, "ratio", f"<= {TARGET}", extraction <= TARGET),
        "save_refresh_structure_over_without": figure(refresh, "ratio", f"<= {TARGET}", refresh <= TARGET),
        "save_refresh_ms": figure(as_app, "ms"),
        "save_refresh_without_structure_ms": figure(without, "ms"),
        "save_refresh_structure_at_save_ms": figure(at_save, "ms"),
        **{f"{name}_markdown_over_text": figure(seconds / (seconds - md), "ratio")
           for name, (seconds, md) in costs.items()},
    } | load.figures()))


if __name__ == "__main__":
    sys.exit(main())
