"""Tiers against the best (scoring/tiers.py): Holm's correction and the bootstrap p-value by hand, and a board
where chaining "within noise of the one above" calls every extractor tied while the paired bootstrap against
the best separates them."""

from __future__ import annotations

import numpy as np
import pytest

from webapp.scoring import build_metrics
from webapp.scoring.agreement_maths import within_noise
from webapp.scoring.leaderboard_maths import Leaderboard
from webapp.scoring.tiers import bootstrap_p, holm, tiers

TOKENS = build_metrics()["tokens"]


def test_holm_adjusts_in_increasing_order_and_never_decreases():
    # sorted: a 0.01, c 0.03, b 0.04; m = 3: 3 x 0.01 = 0.03; max(0.03, 2 x 0.03) = 0.06; max(0.06, 1 x 0.04) = 0.06
    assert holm({"a": 0.01, "b": 0.04, "c": 0.03}) == pytest.approx({"a": 0.03, "c": 0.06, "b": 0.06})
    assert holm({"a": 0.6, "b": 0.9}) == pytest.approx({"a": 1.0, "b": 1.0})  # capped at 1


def test_the_bootstrap_p_value_counts_the_resamples_where_the_best_is_no_better():
    best = np.array([0.8, 0.7, 0.9, 0.6])
    other = np.array([0.7, 0.7, 0.95, 0.5])
    assert bootstrap_p(best, other) == pytest.approx((1 + 2) / (1 + 4))  # 0.7 - 0.7 and 0.9 - 0.95 are <= 0
    assert bootstrap_p(np.array([1.0, np.nan]), np.array([0.0, 0.0])) == pytest.approx(1 / 2)  # NaN left out


def pages_where(words_right: dict[str, int], pages: int) -> dict[str, list]:
    """Each extractor gets `words_right[name]` of the gold's 10 words on every page (and nothing else)."""
    gold = " ".join(f"w{i}" for i in range(10))
    return {name: [TOKENS.counts(" ".join(f"w{i}" for i in range(right)), gold) for _ in range(pages)]
            for name, right in words_right.items()}


def test_chaining_calls_them_all_tied_but_the_paired_bootstrap_against_the_best_separates_them():
    table = pages_where({"a": 10, "b": 9, "c": 8, "d": 7}, pages=30)
    board = Leaderboard(TOKENS, table, list(range(30)), bootstrap=500, seed=1)
    f1 = {name: s.f1 for name, s in board.summaries().items()}
    noise = 0.07  # each step down (F1 1, 0.947, 0.889, 0.824) the table is smaller than the annotators' disagreement
    ranked = sorted(f1, key=f1.get, reverse=True)
    assert all(within_noise(f1[above] - f1[below], noise) for above, below in zip(ranked, ranked[1:]))
    assert not within_noise(f1["a"] - f1["d"], noise)  # against the best, d is well beyond the noise
    found = tiers(f1, board.resampled_f1())
    assert found["best"] == "a" and found["separable"] is True
    assert {name: t["tied"] for name, t in found["extractors"].items()} == {"a": True, "b": False, "c": False,
                                                                           "d": False}
    assert found["extractors"]["d"]["p_holm"] == pytest.approx(min(1.0, 3 / 501))  # smallest p, times m = 3


def test_an_extractor_the_pages_cannot_separate_from_the_best_is_tied():
    gold = "alpha beta gamma delta"
    rows_a = [TOKENS.counts(gold if i % 2 else "alpha beta", gold) for i in range(20)]
    rows_b = [TOKENS.counts("alpha beta" if i % 2 else gold, gold) for i in range(20)]  # the same pages swapped
    board = Leaderboard(TOKENS, {"a": rows_a, "b": rows_b, "c": [TOKENS.counts("", gold)] * 20}, list(range(20)),
                        bootstrap=500, seed=2)
    found = tiers({name: s.f1 for name, s in board.summaries().items()}, board.resampled_f1())
    assert found["best"] in ("a", "b")
    other = "b" if found["best"] == "a" else "a"
    assert found["extractors"][other]["tied"] is True and found["extractors"]["c"]["tied"] is False
    assert found["separable"] is False  # no ★: the best is not separable from the second


def test_no_verdict_without_a_bootstrap_or_a_second_extractor():
    table = pages_where({"a": 10, "b": 5}, pages=5)
    assert tiers({"a": 1.0, "b": 0.5}, Leaderboard(TOKENS, table, list(range(5)), bootstrap=0).resampled_f1()) is None
    assert tiers({"a": 1.0, "b": None}, {"a": np.ones(3), "b": np.ones(3)}) is None
