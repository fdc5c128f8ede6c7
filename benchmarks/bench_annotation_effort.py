"""Benchmark of the annotator's effort: how much editing the prefill needs to become the gold.

The shared corpus's gold is known (../shared/corpora: the Readability test pages, read by the
readability reader, and the WCXB dev sample, read by the wcxb reader with its main_content as the gold
and its page type). Both are imported and extracted as `goldtext import` and `goldtext extract`
do, in a temporary SQLite instance, which caches every extraction's scores. Then, for each page with
gold, the annotation is replayed: the edit distance in characters from the prefill to the gold, with

- the fixed prefill: the DEFAULT_EXTRACTOR's text, as before issue 12;
- the smarter prefill (annotation/prefill.py and boilerplate.py): the best extractor on the page's
  site once the site has LEADERBOARD_MIN_SITE_PAGES gold pages, else the default, without the site's
  repeated boilerplate lines. It is computed leave-one-out: the site's ranking is built from the
  other pages' cached counts, never the page's own (its gold is what is being typed). The boilerplate
  lines come from the site's HTML alone, this page's included, as in the app. The Readability pages
  have no URL: their site is unknown, so they get the default, as in the app (their gold is
  Readability.js's own output: learning from the other pages of that corpus would only rediscover
  readability-js).

The edit distance is not a true Levenshtein distance (a character-level one is far too slow in Python
on pages of 100,000 characters): it is the number of characters inserted plus deleted in a two-level
difflib diff, first by lines, then by words within the lines that differ. Each line is compared with
its whitespace collapsed, and blank lines are ignored. A replaced word counts its old and new lengths.

The operations replay (issue 24 §5, annotation/operations.py says exactly what it counts): for each
page of the two WCXB corpora (wcxb-dev-sample and wcxb-dev-sites), the fewest operations that turn the
smarter prefill into the gold, with typing and line deletion only and with every operation the
workbench offers (block clicks, Shift+click ranges, candidate-line and candidate-run takes from every
extractor's text on the page), per page type, and their ratio; target <= OPERATIONS_TARGET per corpus.

Run: python benchmarks/bench_annotation_effort.py [--keep DIR] (DIR keeps the imported, extracted
instance: a second run reuses it). The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import islice
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine_load import MachineLoad  # noqa: E402
from quick import QUICK_PAGES, add_quick  # noqa: E402
from sqlalchemy import select  # noqa: E402

from webapp import create_app  # noqa: E402
from webapp.annotation import operations  # noqa: E402
from webapp.annotation.boilerplate import drop_lines, page_boilerplate, page_lines, site_boilerplate  # noqa: E402
from webapp.annotation.gold import add_revision  # noqa: E402
from webapp.annotation.page_filter import PageFilter  # noqa: E402
from webapp.annotation.prefill import METRIC, Prefill, choose, ranking  # noqa: E402
from webapp.cli.extract_commands import run_extraction  # noqa: E402
from webapp.corpus.document import RawDocument  # noqa: E402
from webapp.corpus.importer import import_documents, start_batch  # noqa: E402
from webapp.corpus.readers import iter_documents  # noqa: E402
from webapp.corpus.site_names import known_site  # noqa: E402
from webapp.extractors.registry import build_registry  # noqa: E402
from webapp.foundation.settings import settings_of  # noqa: E402
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY  # noqa: E402
from webapp.models import Extraction, Gold, ImportBatch, Page, Site  # noqa: E402
from webapp.results.cache import ScoreCache  # noqa: E402
from webapp.results.extractions import current_named  # noqa: E402
from webapp.scoring import Metric  # noqa: E402
from webapp.web.db import dispose, sessions  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
READABILITY = CORPORA / "readability-test-pages"
WCXB = CORPORA / "wcxb-dev-sample"
SITES = CORPORA / "wcxb-dev-sites"
TARGET = 0.7
OPERATIONS_TARGET = 0.6
WORD = re.compile(r"\S+")


# ---- the edit distance (pure) ----

def lines_of(text: str) -> list[str]:
    """The text's non-blank lines, whitespace collapsed."""
    return [line for line in (" ".join(raw.split()) for raw in text.split("\n")) if line]


def _chars(lines: Sequence[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _word_edits(a: Sequence[str], b: Sequence[str]) -> int:
    wa, wb = WORD.findall("\n".join(a)), WORD.findall("\n".join(b))
    total = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if tag != "equal":
            total += sum(len(w) + 1 for w in wa[i1:i2]) + sum(len(w) + 1 for w in wb[j1:j2])
    return total


def edit_chars(prefill: str, gold: str) -> int:
    """Characters deleted from the prefill plus characters inserted to reach the gold: a line diff,
    then a word diff of each run of differing lines (see the module docstring)."""
    a, b = lines_of(prefill), lines_of(gold)
    total = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "delete":
            total += _chars(a[i1:i2])
        elif tag == "insert":
            total += _chars(b[j1:j2])
        elif tag == "replace":
            total += _word_edits(a[i1:i2], b[j1:j2])
    return total


# ---- leave-one-out (pure) ----

Aligned = Sequence[tuple[int, Mapping[str, Mapping[str, Any]]]]
"""A site's scored pages: (page id, {extractor: that page's counts}), every extractor on every page."""


def leave_one_out(metric: Metric, aligned: Aligned, names: Sequence[str], page_id: int) -> tuple[int, list]:
    """(pages, ranking) of a site as the app would see it had `page_id` no gold yet: every page's
    counts but its own."""
    others = [counts for page, counts in aligned if page != page_id]
    table = {name: [counts[name] for counts in others] for name in names}
    return len(others), ranking(metric, table)


def smarter_prefill(metric: Metric, aligned: Aligned, names: Sequence[str], page_id: int, site: str | None,
                    min_pages: int, default: str, usable: set[str]) -> Prefill:
    pages, ranked = leave_one_out(metric, aligned, names, page_id) if site is not None else (0, [])
    return choose(ranked, pages, site, min_pages, default, usable)


# ---- the corpus ----

QUICK_EXTRACTORS = ("trafilatura", "justext", "whole-page")  # the default prefill and two others


def build(app, quick: bool) -> None:
    """The three corpora imported and extracted by every extractor; quick: the first pages of each, by a few."""
    with sessions(app)() as session:
        for corpus, layout in ((READABILITY, "readability"), (WCXB, "wcxb"), (SITES, "wcxb")):
            batch = start_batch(session, str(corpus), layout, "benchmark")
            documents = iter_documents([corpus], layout)
            list(import_documents(session, batch, islice(documents, QUICK_PAGES) if quick else documents, "url",
                                  taxonomy=DEFAULT_TAXONOMY, add_gold=add_revision))
        session.commit()
    with app.app_context():
        run_extraction(QUICK_EXTRACTORS if quick else ())


def holdings() -> dict[str, set[str]]:
    """corpus -> the SHA-256 of its pages' bytes: a page of two corpora (wcxb-dev-sites repeats pages of
    wcxb-dev-sample) is imported once, under the first, and counted in both."""
    return {folder.name: {hashlib.sha256(doc.data).hexdigest() for doc in iter_documents([folder], "wcxb")
                          if isinstance(doc, RawDocument)}
            for folder in (WCXB, SITES)}


@dataclass
class Replayed:
    page_id: int
    corpora: frozenset[str]  # the corpora that hold the page
    site: str
    gold_chars: int
    fixed: int
    smarter: int
    basis: str
    best_only: int
    boilerplate_only: int
    oracle: int  # the fewest edits of any one extractor's text on this page (peeking at its gold)
    page_type: str
    ops: operations.Count | None  # None: not a WCXB page (the replay of operations is over those)


def replay(app) -> list[Replayed]:
    metrics = settings_of(app).metrics
    metric = metrics[METRIC]
    default = app.config["DEFAULT_EXTRACTOR"]
    min_pages = app.config["LEADERBOARD_MIN_SITE_PAGES"]
    results = []
    held = holdings()
    with sessions(app)() as session:
        named = current_named(session, build_registry())
        by_fp = {fp: name for name, fp in named.items()}
        cache = ScoreCache(metrics)
        cache.sync(session)
        texts: dict[int, dict[str, tuple[str, str | None]]] = defaultdict(dict)
        for page, fp, text, error in session.execute(
            select(Extraction.page_id, Extraction.fingerprint, Extraction.text, Extraction.error)
            .where(Extraction.fingerprint.in_(list(named.values())))
        ):
            texts[page][by_fp[fp]] = (text, error)
        golds = session.execute(
            select(Page.id, ImportBatch.source, Page.site_id, Site.host, Gold.text, Page.facts, Gold.page_type,
                   Page.sha256)
            .join(Site, Site.id == Page.site_id).join(ImportBatch, ImportBatch.id == Page.batch_id)
            .join(Gold, Gold.page_id == Page.id).where(Gold.text != "").order_by(Page.id)
        ).all()
        aligned_of: dict[str, Aligned] = {}
        boilerplate_of: dict[int, frozenset[str]] = {}
        for page_id, source, site_id, host, gold, facts, page_type, digest in golds:
            corpora = frozenset(name for name, digests in held.items() if digest in digests) or {Path(source).name}
            if host not in aligned_of:
                rows = cache.aligned(METRIC, list(named.values()), PageFilter(sites=(host,)))
                counts = {name: rows.counts(fp) for name, fp in named.items()}
                aligned_of[host] = [(p, {name: counts[name][i] for name in named}) for i, p in enumerate(rows.page_ids)]
                boilerplate_of[site_id] = site_boilerplate(session, site_id) if known_site(host) else frozenset()
            candidates = texts.get(page_id, {})
            usable = {name for name, (_, error) in candidates.items() if error is None}
            chosen = smarter_prefill(metric, aligned_of[host], list(named), page_id, known_site(host), min_pages,
                                     default, usable)
            boilerplate = page_boilerplate(boilerplate_of[site_id], facts)
            fixed_text = candidates[default][0] if default in usable else ""
            best_text = candidates[chosen.extractor][0] if chosen.extractor else ""
            prefill = drop_lines(best_text, boilerplate)[0]
            ops = None
            if corpora & {WCXB.name, SITES.name}:
                html = session.scalar(select(Page.html).where(Page.id == page_id)) or ""
                shown = operations.Page(page_lines(html), [operations.lines_of(text) for text, error
                                                          in candidates.values() if error is None])
                ops = operations.count(prefill, gold, shown)
            results.append(Replayed(
                page_id, frozenset(corpora), host, len(gold),
                fixed=edit_chars(fixed_text, gold),
                smarter=edit_chars(prefill, gold),
                basis=chosen.basis,
                best_only=edit_chars(best_text, gold),
                boilerplate_only=edit_chars(drop_lines(fixed_text, boilerplate)[0], gold),
                oracle=min((edit_chars(text if error is None else "", gold)
                            for text, error in candidates.values()), default=len(gold)),
                page_type=page_type, ops=ops,
            ))
        session.rollback()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", help="a folder that keeps the instance between runs")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick and args.keep:
        parser.error("--quick builds its own small instance: leave out --keep")
    load = MachineLoad()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        built = folder / "built"  # written once import and extraction have finished
        if not built.exists() and (folder / "bench.sqlite").exists():
            sys.exit(f"{folder} holds an instance whose build did not finish: remove it first")
        app = create_app({"INSTANCE_PATH": str(folder), "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
                          "SECRET_KEY": "bench"})
        try:
            if not built.exists():
                build(app, args.quick)
                built.touch()
            results = replay(app)
        finally:
            dispose(app)
    fixed = sum(r.fixed for r in results)
    smarter = sum(r.smarter for r in results)
    best = sum(r.best_only for r in results)
    boiler = sum(r.boilerplate_only for r in results)
    by_basis: dict[str, int] = defaultdict(int)
    for r in results:
        by_basis[r.basis] += 1
    print(f"{len(results)} gold pages on {len({r.site for r in results})} sites; "
          f"prefill basis: {dict(sorted(by_basis.items()))}")
    print(f"fixed prefill ({app.config['DEFAULT_EXTRACTOR']}): {fixed:,} characters of edits")
    print(f"best per site only: {best:,}; boilerplate removal only: {boiler:,}; "
          f"bound: the best extractor of each page, chosen knowing its gold: {sum(r.oracle for r in results):,}")
    print(f"smarter prefill (best per site, leave-one-out, + boilerplate removed): {smarter:,}")
    for corpus in sorted(set().union(*(r.corpora for r in results))):
        part = [r for r in results if corpus in r.corpora]
        best_pages = sum(r.basis == "best" for r in part)
        print(f"  {corpus}: {len(part)} pages, {best_pages} prefilled from their site's best; "
              f"fixed {sum(r.fixed for r in part):,}, smarter {sum(r.smarter for r in part):,}")
    chosen = [r for r in results if r.basis == "best"]
    print(f"  the {len(chosen)} pages prefilled from their site's best: fixed {sum(r.fixed for r in chosen):,}, "
          f"smarter {sum(r.smarter for r in chosen):,}")
    ratio = smarter / fixed if fixed else None
    print(f"ratio: {ratio:.3f}" if ratio is not None else "ratio: undefined (no edits)")
    figures = {"prefill_edit_ratio": _figure(ratio, TARGET)}
    for corpus in (WCXB.name, SITES.name):
        figures[f"operations_ratio_{corpus.replace('-', '_')}"] = _figure(
            report_operations(corpus, [r for r in results if corpus in r.corpora]), OPERATIONS_TARGET)
    print(json.dumps(figures | load.figures()))


def _figure(ratio: float | None, target: float) -> dict[str, Any]:
    return {"value": None if ratio is None else round(ratio, 3), "unit": "ratio", "target": f"<= {target:g}",
            "met": ratio is not None and ratio <= target}


def report_operations(corpus: str, part: Sequence[Replayed]) -> float | None:
    """Prints the operations per page type of one corpus; returns workbench / typing-only over it."""
    counted = [r for r in part if r.ops is not None]
    print(f"operations, {corpus} ({len(counted)} pages): typing and line deletion only / every workbench operation")
    for page_type in sorted({r.page_type for r in counted}) + [None]:
        rows = [r.ops for r in counted if page_type is None or r.page_type == page_type if r.ops is not None]
        typing, workbench = sum(o.typing for o in rows), sum(o.workbench for o in rows)
        ratio = workbench / typing if typing else None
        shown = f"{ratio:.3f}" if ratio is not None else "undefined"
        print(f"  {page_type or 'all'}: {len(rows)} pages, {typing:,} / {workbench:,}, ratio {shown}")
        if page_type is None:
            return ratio
    return None


if __name__ == "__main__":
    main()
