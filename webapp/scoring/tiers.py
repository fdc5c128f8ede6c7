"""Which extractors the data cannot tell from the best: a paired bootstrap of each one's corpus F1 against
the best's, Holm-corrected over the extractors.

The resamples are those of the board (scoring/leaderboard_maths.py), the same page weights for every extractor, so a
resample's difference best - other is paired. For each other extractor the one-sided bootstrap p-value of
"the best is no better" is (1 + resamples where best - other <= 0) / (1 + resamples); Holm's step-down
correction over the m others gives adjusted p-values
p'(i) = max over j <= i of min(1, (m - j + 1) * p(j)), the p(j) in increasing order. An extractor whose
adjusted p-value is at least ALPHA is "not distinguishable from the best" (tier 1), and so is the best. The
best is "separable from the second" (a ★ is earned) when every other extractor is separated from it.

Pure: no database, no Flask.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

ALPHA = 0.05


def holm(p_values: Mapping[str, float]) -> dict[str, float]:
    """Holm's step-down adjusted p-values, by name."""
    order = sorted(p_values, key=lambda name: (p_values[name], name))
    m = len(order)
    adjusted: dict[str, float] = {}
    running = 0.0
    for rank, name in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[name]))
        adjusted[name] = running
    return adjusted


def bootstrap_p(best: np.ndarray, other: np.ndarray) -> float:
    """The one-sided paired bootstrap p-value that `best`'s F1 is no better than `other`'s (NaN resamples,
    where a figure is undefined, left out; 1.0 when none is left)."""
    difference = best - other
    defined = difference[~np.isnan(difference)]
    return float((1 + np.sum(defined <= 0)) / (1 + defined.size))


def tiers(f1: Mapping[str, float | None], resampled: Mapping[str, np.ndarray] | None,
          alpha: float = ALPHA) -> dict[str, object] | None:
    """{"best", "alpha", "separable" (the best from every other), "extractors": {name: {"p_holm", "tied"}}}
    for the extractors with an F1 (`resampled`: each one's F1 on every resample); None without a bootstrap
    or without two extractors to compare."""
    scored = sorted((-value, name) for name, value in f1.items() if value is not None)
    if resampled is None or len(scored) < 2:
        return None
    best = scored[0][1]  # the highest F1; among equals, the first name
    raw = {name: bootstrap_p(resampled[best], resampled[name]) for _, name in scored[1:]}
    adjusted = holm(raw)
    extractors: dict[str, dict[str, object]] = {best: {"p_holm": None, "tied": True}}
    extractors |= {name: {"p_holm": p, "tied": p >= alpha} for name, p in adjusted.items()}
    return {"best": best, "alpha": alpha, "separable": all(p < alpha for p in adjusted.values()),
            "extractors": extractors}
