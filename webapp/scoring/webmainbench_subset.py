"""``webmainbench-subset``: WebMainBench's fine-grained metrics of its structured subset, as its
``MetricCalculator`` and ``Evaluator`` compute them, without the optional language-model step.

Both Markdown texts are split (``webmainbench_parts``) into text (the whole Markdown), code, formula and table
parts. Per page, each part is scored by edit similarity, ``1 - Levenshtein(predicted, gold) / max(lengths)``
(rapidfuzz), and is **not computed** when both sides are empty: ``text_edit`` on the whole texts,
``code_edit`` and ``formula_edit`` on those parts, ``table_edit`` on the tables' text (normalised to HTML, one
line per row, cells joined by spaces). ``table_TEDS`` (``webmainbench_teds``) is computed exactly when
``table_edit`` is. The page's ``overall`` is the mean of its computed parts. An extraction that failed is
scored on no part, as WebMainBench's evaluator gives a failed extraction no metrics.

Corpus figures (fixed average): each part's mean over the pages where it was computed (0 over none), and
``overall``, the mean of the five part means. ``overall`` is the metric's F1 (its precision and recall show the
same figure: an edit similarity has neither); the five part means are its further figures.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

from .metric import Average, Fields, Figures, Metric
from .optional_packages import FindSpec, optional_metric
from .webmainbench_parts import split, table_html, table_text
from .webmainbench_teds import teds

PARTS = ("text_edit", "code_edit", "formula_edit", "table_edit", "table_TEDS")
PAGE_ORDER = ("code_edit", "formula_edit", "text_edit", "table_edit", "table_TEDS")
"""The order in which MetricCalculator adds a page's parts up for its overall."""
FIELDS = (*PARTS, *(f"has_{part}" for part in PARTS), "overall")
INSTALL_HINT = "pip install 'goldtext[structure]'"
NEEDED = {"rapidfuzz": "rapidfuzz", "apted": "apted", "bs4": "beautifulsoup4"}


def edit_similarity(predicted: str, gold: str) -> float | None:
    """1 - Levenshtein distance / the longer length; None (not computed) when both are empty."""
    from rapidfuzz.distance import Levenshtein

    longer = max(len(predicted), len(gold))
    return None if longer == 0 else 1.0 - Levenshtein.distance(predicted, gold) / longer


def page_parts(predicted: str, gold: str) -> dict[str, float | None]:
    """The five parts' scores of one page (None: not computed)."""
    mine, theirs = split(predicted), split(gold)
    table_edit = edit_similarity(table_text(table_html(mine.table)), table_text(table_html(theirs.table)))
    return {
        "text_edit": edit_similarity(mine.text, theirs.text),
        "code_edit": edit_similarity(mine.code, theirs.code),
        "formula_edit": edit_similarity(mine.formula, theirs.formula),
        "table_edit": table_edit,
        "table_TEDS": None if table_edit is None else teds(mine.table, theirs.table),
    }


def overall(parts: dict[str, float | None]) -> float | None:
    """The mean of the computed parts (None when none was)."""
    computed = [score for name in PAGE_ORDER if (score := parts[name]) is not None]
    return sum(computed) / len(computed) if computed else None


def counts(candidate: str | None, gold: str, *, errored: bool = False) -> dict[str, Any]:
    """Each part's score (0 when not computed) and whether it was (``has_PART``), and the page's overall
    (0 when no part was); a failed extraction computes none."""
    parts = dict.fromkeys(PARTS) if errored or candidate is None else page_parts(candidate, gold)
    page = overall(parts)
    return {
        **{name: score or 0.0 for name, score in parts.items()},
        **{f"has_{name}": score is not None for name, score in parts.items()},
        "overall": page or 0.0,
        "errored": errored,
    }


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The page's overall as precision, recall and F1."""
    return fields["overall"], fields["overall"], fields["overall"]


def _values(fields: Fields) -> np.ndarray:
    columns = []
    for part in PARTS:
        computed = fields[f"has_{part}"]
        columns += [fields[part] * computed, computed]
    return np.column_stack(columns)


def _figures(sums: np.ndarray, pages: int) -> Figures:
    means = {part: np.divide(sums[:, 2 * i], sums[:, 2 * i + 1], out=np.zeros(len(sums)),
                             where=sums[:, 2 * i + 1] > 0) for i, part in enumerate(PARTS)}
    whole = sum(means[part] for part in PARTS) / len(PARTS)
    return Figures(whole, whole, whole, None, means)


def build_metric(find_spec: FindSpec = importlib.util.find_spec) -> Metric:
    """The metric, marked unavailable when rapidfuzz, apted or beautifulsoup4 cannot be found."""
    return optional_metric(
        NEEDED, INSTALL_HINT, find_spec,
        name="webmainbench-subset",
        version=1,
        needs="markdown",
        description="WebMainBench's structured subset: edit similarity of text, code, formulas, tables; TEDS",
        fields=FIELDS,
        counts=counts,
        page_scores=page_scores,
        aggregations={"macro": Average(_values, _figures, PARTS)},
        eager=False,
    )


METRIC = build_metric()
