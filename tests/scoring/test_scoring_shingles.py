"""Shingles of four \\w+ tokens (case kept), per the article-extraction-benchmark's evaluate.py."""

from fractions import Fraction

import pytest
from workbench import METRICS

from webapp.scoring import summarize
from webapp.scoring.shingles import shingles

metric = METRICS["shingles"]
THIRD = Fraction(1, 3)


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [
        ([], {}),
        (["a"], {("a",): 1}),
        (["a", "b", "c"], {("a", "b", "c"): 1}),
        (["a", "b", "c", "d"], {("a", "b", "c", "d"): 1}),
        (["a", "b", "c", "d", "e"], {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}),
        (list("abcdabcd"), {tuple("abcd"): 2, tuple("bcda"): 1, tuple("cdab"): 1, tuple("dabc"): 1}),
    ],
)
def test_shingles(tokens, expected):
    assert shingles(tokens) == expected


@pytest.mark.parametrize(
    ("candidate", "gold", "tp_fp_fn", "exact", "scores"),
    [
        # one short shingle each, equal
        ("Hello, world", "Hello world", (1, 0, 0), True, (1, 1, 1)),
        # case is kept: (Hello, world) != (hello, world) -> tp 0, fp 1, fn 1, over 2
        ("Hello world", "hello world", (0, Fraction(1, 2), Fraction(1, 2)), False, (0, 0, 0)),
        # {abcd, bcde} vs {abcd, bcdf}: tp 1, fp 1, fn 1 over 3; p = r = (1/3) / (2/3) = 1/2
        ("a b c d e", "a b c d f", (THIRD, THIRD, THIRD), False, (0.5, 0.5, 0.5)),
        # short shingle (a, b) against {abcd, bcde}: tp 0, fp 1, fn 2 over 3
        ("a b", "a b c d e", (0, THIRD, 2 * THIRD), False, (0, 0, 0)),
        # multiset: {abcd x2, bcda, cdab, dabc} vs {abcd}: tp 1, fp 4, fn 0 over 5;
        # p = (1/5) / 1, r = (1/5) / (1/5) = 1, F1 = 2 * 1/5 * 1 / (6/5) = 1/3
        ("a b c d a b c d", "a b c d", (Fraction(1, 5), Fraction(4, 5), 0), False,
         (Fraction(1, 5), 1, THIRD)),
        # empty extraction: tp 0, fp 0, fn 2 over 2 -> p 0 (tp == fp == 0), r 0 / 1
        ("", "a b c d e", (0, 0, 1), False, (0, 0, 0)),
        # empty gold: fp 1 over 1 -> p 0 / 1, r 0 (tp == fn == 0)
        ("a b", "", (0, 1, 0), False, (0, 0, 0)),
        # both empty: nothing to normalise; fp == fn == 0 -> p = r = 1
        ("", "", (0, 0, 0), True, (1, 1, 1)),
    ],
)
def test_page_counts_and_scores(candidate, gold, tp_fp_fn, exact, scores):
    counts = metric.counts(candidate, gold)
    assert (counts["tp"], counts["fp"], counts["fn"]) == pytest.approx(tuple(map(float, tp_fp_fn)))
    assert counts["exact"] is exact
    assert METRICS["shingles"].of_page(counts) == pytest.approx(tuple(map(float, scores)))


def test_errored_extraction_is_scored_as_empty():
    assert metric.counts("a b c d e", "a b c d e", errored=True) == {
        "tp": 0.0,
        "fp": 0.0,
        "fn": 1.0,
        "exact": False,
        "errored": True,
    }


def test_counts_are_normalised_to_one():
    counts = metric.counts("one two three four five six seven", "two three four five six eight")
    assert counts["tp"] + counts["fp"] + counts["fn"] == pytest.approx(1)


CORPUS = [
    ("a b c d e", "a b c d f"),  # (1/3, 1/3, 1/3): p 1/2, r 1/2
    ("", "a b c d e"),  # (0, 0, 1): tp + fp == 0 -> left out of the precision mean; r 0
    ("a b c d a b c d", "a b c d"),  # (1/5, 4/5, 0): p 1/5, r 1
    ("", ""),  # (0, 0, 0): left out of both means; exact
]


def test_corpus_figures_are_means_over_defined_pages_and_f1_of_the_means():
    rows = [metric.counts(candidate, gold) for candidate, gold in CORPUS]
    summary = summarize(METRICS["shingles"], rows, bootstrap=0)
    precision = (Fraction(1, 2) + Fraction(1, 5)) / 2  # pages 1 and 3: 7/20
    recall = (Fraction(1, 2) + 0 + 1) / 3  # pages 1, 2 and 3: 1/2
    f1 = 2 * precision * recall / (precision + recall)  # (7/20) / (17/20) = 7/17
    assert f1 == Fraction(7, 17)
    assert (summary.precision, summary.recall, summary.f1) == pytest.approx(
        (float(precision), float(recall), float(f1))
    )
    # the mean of per-page F1 would be (1/2 + 0 + 1/3 + 1) / 4 = 11/24, not 7/17
    assert summary.f1 != pytest.approx(11 / 24)
    assert summary.accuracy == pytest.approx(1 / 4)
    assert summary.average == "macro"


def test_precision_is_undefined_when_no_page_has_a_prediction():
    rows = [metric.counts("", "a b c d e"), metric.counts("", "")]
    summary = summarize(METRICS["shingles"], rows, bootstrap=50)
    assert (summary.precision, summary.f1, summary.precision_std, summary.f1_std) == (None,) * 4
    assert summary.recall == 0.0


@pytest.mark.parametrize("average", ["micro", "weighted"])
def test_average_is_fixed(average):
    rows = [metric.counts("a b", "a b")]
    with pytest.raises(ValueError, match="shingles has a fixed average"):
        summarize(METRICS["shingles"], rows, average=average)
