"""The report of a crawl run, from its documents' metadata and datatrove's per-task counters: documents per
extractor and page type, timeouts and errors, the agreement with the challenger, and throughput per task.
`crawl_report` gathers it; `render` writes it as Markdown (the card beside the output, and what the command
prints)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..corpus.datatrove_output import iter_records
from .output import counter, stats_file, task_stats

AGREEMENT_BINS = (0.2, 0.4, 0.6, 0.8, 0.95, 1.0)
MARKDOWN_ACTIVE = frozenset("\\`*_[]<>|~&")  # what starts markup inside a line (a cell never starts one)
ERROR_COUNTERS = ("timeout", "broken_process", "clean_error")


@dataclass
class CrawlReport:
    documents: int = 0
    per_extractor: Counter[str] = field(default_factory=Counter)
    per_type: Counter[str] = field(default_factory=Counter)
    per_route: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    accepted: int = 0
    agreements: list[float] = field(default_factory=list)
    challenger: str | None = None
    tasks: dict[int, dict[str, float]] = field(default_factory=dict)
    counters: Counter[str] = field(default_factory=Counter)

    def agreement_bins(self) -> list[tuple[str, int]]:
        rows, low = [], 0.0
        for high in AGREEMENT_BINS:
            top = high if high < 1.0 else 1.0 + 1e-9
            count = sum(1 for a in self.agreements if low <= a < top)
            rows.append((f"[{low:.2f}, {high:.2f}{']' if high == 1.0 else ')'}", count))
            low = high
        return rows


def crawl_report(out: Path) -> CrawlReport:
    """The report of the run whose output folder is out; ValueError when it is not one."""
    report = CrawlReport()
    for _, record in iter_records(out):
        meta = record["metadata"]
        report.documents += 1
        report.per_extractor[str(meta.get("extractor"))] += 1
        report.per_type[str(meta.get("page_type"))] += 1
        report.per_route[str(meta.get("routed"))] += 1
        report.accepted += bool(meta.get("accepted"))
        if meta.get("error"):
            report.errors[f"{meta.get('extractor')}: {str(meta['error']).splitlines()[0][:80]}"] += 1
        if isinstance(meta.get("agreement"), (int, float)):
            report.agreements.append(float(meta["agreement"]))
        report.challenger = report.challenger or meta.get("challenger")
    for rank, stats in sorted(task_stats(out).items()):
        try:
            seconds = counter(stats, "seconds")
            docs = counter(stats, "forwarded")
            report.tasks[rank] = {"documents": docs, "seconds": seconds,
                                  "per_second": docs / seconds if seconds else 0.0}
            for name in ("total", "extracted", *ERROR_COUNTERS):
                report.counters[name] += int(counter(stats, name))
        except ValueError as error:
            raise ValueError(f"{stats_file(out, rank)}: {error}") from error
    return report


def quoted(value: Any) -> str:
    """A value from the documents (an extractor's name, a page type, an error) as literal Markdown text on
    one line: every character Markdown reads as markup backslash-escaped, every character that is not
    printable (a newline) as its escape."""
    return "".join("\\" + char if char in MARKDOWN_ACTIVE else char if char.isprintable()
                   else char.encode("unicode_escape").decode("ascii") for char in str(value))


def table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(quoted(cell) for cell in row) + " |" for row in rows]


def render(report: CrawlReport, out: Path) -> str:
    """The report as Markdown."""
    lines = [f"# Crawl report: {quoted(out.name)}", "",
             f"{report.documents} documents; {report.accepted} accepted by the guard.", ""]
    lines += ["## Documents per extractor", ""]
    lines += table(("extractor", "documents"), sorted(report.per_extractor.items())) + [""]
    lines += ["## Documents per page type (read from the page facts)", ""]
    lines += table(("page type", "documents"), sorted(report.per_type.items())) + [""]
    lines += table(("routed", "documents"), sorted(report.per_route.items())) + [""]
    lines += ["## Timeouts and errors", "", "datatrove's counters of the Goldtext step, over every task:", ""]
    lines += table(("counter", "documents"), [(name, report.counters[name]) for name in
                                               ("total", "extracted", *ERROR_COUNTERS)]) + [""]
    if report.errors:
        lines += table(("error", "documents"), report.errors.most_common()) + [""]
    lines += ["## Agreement with the challenger", ""]
    if report.agreements:
        values = report.agreements
        quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
        lines += [f"Token F1 between the chosen text and {quoted(report.challenger)}'s, on {len(values)} documents: "
                  f"mean {statistics.fmean(report.agreements):.3f}, quartiles "
                  + ", ".join(f"{q:.3f}" for q in quartiles) + ".", ""]
        lines += table(("agreement", "documents"), report.agreement_bins()) + [""]
    else:
        lines += ["No challenger ran (or every challenged call failed).", ""]
    lines += ["## Throughput per task", ""]
    lines += table(("task", "documents", "seconds", "documents/s"),
                   [(rank, int(t["documents"]), f"{t['seconds']:.1f}", f"{t['per_second']:.1f}")
                    for rank, t in report.tasks.items()]) + [""]
    return "\n".join(lines)
