"""Benchmark of the learned site rules (issue 24 §6) on the shared corpus wcxb-dev-sites.

Each page of ../shared/corpora/wcxb-dev-sites is read by the wcxb reader (its main_content is the gold),
decoded as the import decodes it and run through every extractor that can run here (site-rules
excepted), in this process. Pages are grouped by site as the import groups them (corpus/site_names.host_of).
For each site with 3 gold pages or more, results/rule_proof.prove gives, leave-one-out, the word F1
(the `tokens` metric of the registry, as the prefill ranks extractors) of

- the learned rule: the rule learned from the other pages, refining the text of the extractor that was
  best on them;
- the site best: that extractor's own text;
- trafilatura, on the same held-out pages.

It prints one line per site, then the totals over every held-out page (F1 of the pooled counts, as the
leaderboard's default), and the sites where the learned rule beats the site best (where the rules
editor offers it). The last line is one JSON object; its target is the site best's pooled F1.

Run: python benchmarks/bench_site_rules.py [--keep FILE] (FILE keeps the extractors' texts as JSON
between runs: extracting the 149 pages takes about three minutes on one core).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from machine_load import MachineLoad
from quick import add_quick

from webapp.annotation.prefill import METRIC, ranking
from webapp.corpus.decoding import decode
from webapp.corpus.readers import iter_documents
from webapp.corpus.site_names import host_of
from webapp.extractors.registry import build_registry, runnable
from webapp.extractors.site_rules import SITE_RULES_NAME
from webapp.results.rule_proof import BEST, LEARNED, SitePage, counts_of, prove
from webapp.scoring import build_metrics

SITES = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "wcxb-dev-sites"
TRAFILATURA = "trafilatura"
QUICK_EXTRACTORS = (TRAFILATURA, "justext", "whole-page")
QUICK_SITES, QUICK_SITE_PAGES = 2, 4


def quick_sample(documents: list[Any]) -> list[Any]:
    """The first pages of the first sites (by name) with 3 gold pages or more: a quick run's pages."""
    by_host: dict[str, list[Any]] = defaultdict(list)
    for document in documents:
        by_host[host_of(document.url) or "unknown"].append(document)
    sites = [pages for _, pages in sorted(by_host.items()) if len(pages) >= 3][:QUICK_SITES]
    return [document for pages in sites for document in pages[:QUICK_SITE_PAGES]]


def extracted(keep: Path | None, quick: bool) -> list[dict[str, Any]]:
    """Every gold page: url, html, gold, each extractor's text (None: it raised); quick: a few pages, by a few
    extractors."""
    if keep is not None and keep.exists():
        return json.loads(keep.read_text())
    extractors = [e for e in runnable(build_registry()) if e.name != SITE_RULES_NAME
                  and (not quick or e.name in QUICK_EXTRACTORS)]
    documents = [document for document in iter_documents([SITES], "wcxb") if document.gold]
    pages = []
    for document in quick_sample(documents) if quick else documents:
        html = decode(document.data, document.charset).text
        texts: dict[str, str | None] = {}
        for extractor in extractors:
            try:
                texts[extractor.name] = extractor(html, document.url).text
            except Exception:  # an extractor that fails on a page scores as empty, as in the app
                texts[extractor.name] = None
        pages.append({"url": document.url, "html": html, "gold": document.gold, "texts": texts})
    if keep is not None:
        keep.write_text(json.dumps(pages))
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", type=Path, help="a JSON file that keeps the extractors' texts between runs")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick and args.keep:
        parser.error("--quick extracts a few pages of its own: leave out --keep")
    load = MachineLoad()
    metric = build_metrics()[METRIC]
    pages = extracted(args.keep, args.quick)
    names = sorted({name for page in pages for name in page["texts"]})
    by_site: dict[str, list[SitePage]] = defaultdict(list)
    for n, page in enumerate(pages):
        by_site[host_of(page["url"]) or "unknown"].append(SitePage(n, page["html"], page["gold"], page["texts"]))
    totals: dict[str, list[dict[str, Any]]] = {LEARNED: [], BEST: [], TRAFILATURA: []}
    offered = []
    print(f"{'site':28} {'pages':>5} {'learned':>8} {'best':>8} {'trafila.':>8}  base / verdict")
    for site, site_pages in sorted(by_site.items()):
        proof = prove(metric, site, site_pages, names)
        if not proof.held_out:
            print(f"{site:28} {len(site_pages):5}  skipped: {proof.reason}")
            continue
        held = {row["page"] for row in proof.held_out}
        table = {TRAFILATURA: [counts_of(metric, p.texts.get(TRAFILATURA), p.gold) for p in site_pages
                               if p.page_id in held]}
        trafilatura = dict(ranking(metric, table)).get(TRAFILATURA)
        for row in proof.held_out:
            totals[LEARNED].append(row["counts"][LEARNED])
            totals[BEST].append(row["counts"][BEST])
        totals[TRAFILATURA].extend(table[TRAFILATURA])
        if proof.beats:
            offered.append(site)
        print(f"{site:28} {proof.pages:5} {proof.learned_f1:8.3f} {proof.best_f1:8.3f} {trafilatura or 0:8.3f}  "
              f"{proof.base}; {'offered' if proof.beats else 'not offered'}")
    pooled = dict(ranking(metric, totals))
    print(f"all held-out pages ({len(totals[LEARNED])}): learned {pooled[LEARNED]:.3f}, "
          f"site best {pooled[BEST]:.3f}, trafilatura {pooled[TRAFILATURA]:.3f}")
    print(f"offered on {len(offered)} of {len(by_site)} sites: {', '.join(offered)}")
    figures = {"site_rules_learned_f1_wcxb_dev_sites": {
        "value": round(pooled[LEARNED], 4), "unit": "word F1",
        "target": f"> {pooled[BEST]:.4f} (site best, leave-one-out)", "met": pooled[LEARNED] > pooled[BEST]}}
    print(json.dumps(figures | load.figures()))


if __name__ == "__main__":
    main()
