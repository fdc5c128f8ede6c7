"""The dataset card (README.md of every export): what it holds, how many pages per site, type and
annotator, the agreement between annotators on its double-annotated pages, the extractor fingerprints,
when and by which Goldtext version and command it was made."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .selection import ExportedPage

FILE = "README.md"

LAYOUTS = {
    "jsonl": "`pages.jsonl`: one JSON object per page (Goldtext's canonical layout).",
    "folder": "`ID.html` (raw bytes as imported), `ID.gold.txt` (gold text, UTF-8), `ID.gold.md` (the gold as "
              "Markdown) and `ID.json` (metadata) per page.",
    "scrapinghub": "`ground-truth.json` and `html/ID.html.gz` (the article-extraction-benchmark layout; "
                   "`output/EXTRACTOR.json` with predictions; `goldtext.json` keeps types, statuses and snippets).",
    "trafilatura-eval": "`evaldata.json` and the HTML files of the pages with snippet gold "
                        "(trafilatura's evaluation layout).",
    "wcxb": "`SPLIT/ground-truth/ID.json` (`main_content` and `main_content_markdown`), `SPLIT/html/ID.html.gz` "
            "and `metadata.json` (WCXB's layout; "
            "`results/EXTRACTOR.json` with predictions, for WCXB's `evaluate.py --split dev --results`).",
    "wceb": "`datasets/combined/ground-truth/DATASET.jsonl` and `datasets/combined/html/DATASET/ID.html` (WCEB's "
            "layout; `outputs/model-outputs/DATASET/EXTRACTOR.jsonl` with predictions).",
    "webmainbench": "`webmainbench.jsonl`: one JSON object per page, the gold as Markdown in `groundtruth_content` "
                    "(WebMainBench's layout).",
    "csv": "`scores.csv`: per-page precision, recall and F1 per extraction and metric.",
}


@dataclass
class Tally:
    """Counts gathered while the pages stream past."""

    pages: int = 0
    sites: Counter[str] = field(default_factory=Counter)
    page_types: Counter[str] = field(default_factory=Counter)
    annotators: Counter[str] = field(default_factory=Counter)
    fingerprints: dict[str, str] = field(default_factory=dict)  # fingerprint -> extractor
    page_ids: list[int] = field(default_factory=list)

    def count(self, page: ExportedPage) -> None:
        self.pages += 1
        self.page_ids.append(page.id)
        self.sites[page.site] += 1
        self.page_types[page.gold.page_type if page.gold else "(no gold)"] += 1
        for name in page.gold.annotators if page.gold else ("(no gold)",):
            self.annotators[name] += 1
        for extraction in page.extractions:
            self.fingerprints[extraction.fingerprint] = extraction.extractor


def _table(title: str, counts: Counter[str]) -> list[str]:
    rows = [f"| {name} | {n} |" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return [f"### Pages per {title}", "", f"| {title} | pages |", "| --- | --- |", *rows, ""]


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _agreement(figures: dict[str, Any]) -> list[str]:
    """The agreement section: corpus figures and each annotator against the gold (scoring/agreement_maths.py)."""
    if not figures["pages"]:
        return ["### Agreement between annotators", "", "No page of this export is double-annotated.", ""]
    rows = [f"| {name.replace('|', '/')} | {a['pages']} | {a['adjudicated']} | {_figure(a['f1_vs_gold'])} |"
            for name, a in figures["annotators"].items()]
    return [
        "### Agreement between annotators",
        "",
        f"On the {figures['pages']} double-annotated pages ({figures['pairs']} pairs of annotators):",
        "",
        f"- text F1 between annotators (`tokens`, mean per page): {_figure(figures['text_f1'])}",
        f"- pairs agreeing on the page type: {_figure(figures['type_agreement'])}",
        f"- Krippendorff's alpha on the page type (nominal): {_figure(figures['type_alpha'])}",
        f"- snippet agreement (Jaccard, {figures['snippet_pairs']} pairs): {_figure(figures['snippet_agreement'])}",
        "",
        "| annotator | pages | adjudicated | text F1 against the gold |",
        "| --- | --- | --- | --- |",
        *rows,
        "",
    ]


def dataset_card(fmt: str, tally: Tally, command: str, version: str, made: datetime,
                 agreement: dict[str, Any]) -> str:
    """The card's Markdown."""
    by_name = sorted(tally.fingerprints.items(), key=lambda kv: (kv[1], kv[0]))
    fingerprints = [f"- `{fp}` ({name})" for fp, name in by_name]
    lines = [
        "# Goldtext gold dataset",
        "",
        f"Format `{fmt}`: {LAYOUTS[fmt]}",
        "",
        f"- pages: {tally.pages}",
        f"- exported: {made.isoformat(timespec='seconds')}",
        f"- Goldtext version: {version}",
        f"- command: `{command}`",
        "- checksums: `SHA256SUMS` (check with `sha256sum -c SHA256SUMS`)",
        "",
        f"Import it again with `goldtext import {'pages.jsonl' if fmt == 'jsonl' else 'FOLDER'}` "
        "(the layout is detected)."
        if fmt != "csv" else "Scores only: this layout is not imported.",
        "",
        *_table("site", tally.sites),
        *_table("type", tally.page_types),
        *_table("annotator", tally.annotators),
        *_agreement(agreement),
        "### Extractor fingerprints",
        "",
        *(fingerprints or ["None: this export holds no extraction."]),
        "",
    ]
    return "\n".join(lines)
