"""``structure-tests``: the share of a gold's structure tests (``structure_tests``) that an extraction's
Markdown passes.

Per page, for each kind of test (heading, list, table, code, order) the tests passed and the tests generated,
the totals, and the failing tests (id, kind, description; the first ``LISTED``) for the drill-down. A failed
extraction fails every test. The page's precision, recall and F1 are its pass rate (1 for a gold with nothing
to test, whose page adds nothing to the corpus figures).

Averages: ``micro`` (the default) pools the tests over the pages: the pass rate is passed / generated over all
pages, and each kind's rate (``heading_rate`` ...) likewise over its own tests; ``macro`` averages the pages'
pass rates over the pages that have tests, and each kind's rate over the pages that have tests of that kind.
A rate over no test is undefined. Reading Markdown costs tens of milliseconds a page, so the metric is
scored by a refresh job when a leaderboard asks for it, not on every save.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .metric import Average, Fields, Figures, Metric
from .ratios import ratio_or_nan
from .structure_tests import KINDS, StructureTest, generate, run

LISTED = 100
"""The failing tests a page's counts list (the counts say how many failed in all)."""
RATES = tuple(f"{kind}_rate" for kind in KINDS)
FIELDS = ("passed", "tests", *(f"{kind}_{what}" for kind in KINDS for what in ("passed", "tests")))


@lru_cache(maxsize=64)
def tests_of(gold: str) -> tuple[StructureTest, ...]:
    """The gold's tests, generated once for the many extractions scored against it."""
    return tuple(generate(gold))


def counts(candidate: str | None, gold: str, *, errored: bool = False) -> dict[str, Any]:
    """Tests passed and generated, in all and per kind, and the failing tests (the first LISTED)."""
    results = run(tests_of(gold), None if errored else candidate or "")
    found: dict[str, Any] = {"passed": 0, "tests": len(results)}
    for kind in KINDS:
        mine = [passed for test, passed in results if test.kind == kind]
        found[f"{kind}_passed"], found[f"{kind}_tests"] = sum(mine), len(mine)
        found["passed"] += sum(mine)
    failed = [{"id": test.id, "kind": test.kind, "description": test.description}
              for test, passed in results if not passed]
    return {**found, "failed": failed[:LISTED], "errored": errored}


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The page's pass rate (1 without tests) as precision, recall and F1."""
    rate = np.divide(fields["passed"], fields["tests"], out=np.ones(len(fields["tests"])), where=fields["tests"] > 0)
    return rate, rate, rate


def _pooled_values(fields: Fields) -> np.ndarray:
    return np.column_stack([fields[name] for name in FIELDS])


def _pooled_figures(sums: np.ndarray, pages: int) -> Figures:
    column = {name: sums[:, i] for i, name in enumerate(FIELDS)}
    rate = ratio_or_nan(column["passed"], column["tests"])
    extra = {f"{kind}_rate": ratio_or_nan(column[f"{kind}_passed"], column[f"{kind}_tests"]) for kind in KINDS}
    return Figures(rate, rate, rate, None, extra)


def _page_rate_values(fields: Fields) -> np.ndarray:
    columns = []
    for prefix in ("", *(f"{kind}_" for kind in KINDS)):
        tested = (fields[f"{prefix}tests"] > 0).astype(float)
        share = np.divide(fields[f"{prefix}passed"], fields[f"{prefix}tests"], out=np.zeros(len(tested)),
                          where=tested > 0)
        columns += [share, tested]
    return np.column_stack(columns)


def _page_rate_figures(sums: np.ndarray, pages: int) -> Figures:
    rates = [ratio_or_nan(sums[:, 2 * i], sums[:, 2 * i + 1]) for i in range(len(KINDS) + 1)]
    return Figures(rates[0], rates[0], rates[0], None, dict(zip(RATES, rates[1:])))


METRIC = Metric(
    name="structure-tests",
    version=1,
    needs="markdown",
    description="Structure tests of the Markdown gold passed: headings, lists, table cells, code, order",
    fields=FIELDS,
    counts=counts,
    page_scores=page_scores,
    aggregations={
        "micro": Average(_pooled_values, _pooled_figures, RATES),
        "macro": Average(_page_rate_values, _page_rate_figures, RATES),
    },
    eager=False,
)
