"""Head-to-head: per-page wins, losses and ties on F1, paired bootstrap of the corpus F1 difference."""

from fractions import Fraction

import pytest
from workbench import METRICS

from webapp.scoring import PageChange, compare


def tokens_row(hit, extracted, gold):
    return {"hit": hit, "extracted": extracted, "gold": gold, "exact": False, "errored": False}


def rouge_row(f1):
    return {"precision": f1, "recall": f1, "f1": f1, "errored": False}


PAGES = ["p1", "p2", "p3"]
# per-page F1 (tokens): p1 1 vs 1 (tie), p2 4/7 vs 0 (A wins), p3 0 vs 1 (B wins)
ROWS_A = [tokens_row(3, 3, 3), tokens_row(2, 4, 3), tokens_row(0, 0, 5)]
ROWS_B = [tokens_row(3, 3, 3), tokens_row(0, 2, 3), tokens_row(5, 5, 5)]


def test_wins_losses_ties_and_corpus_difference():
    result = compare(METRICS["tokens"], ROWS_A, ROWS_B, PAGES, bootstrap=0)
    assert (result.wins, result.losses, result.ties, result.pages) == (1, 1, 1, 3)
    # macro F1: A = (1 + 4/7 + 0) / 3 = 11/21, B = (1 + 0 + 1) / 3 = 14/21; A - B = -1/7
    assert (result.f1_a, result.f1_b, result.difference) == pytest.approx(
        (float(Fraction(11, 21)), float(Fraction(2, 3)), -1 / 7)
    )
    assert (result.difference_mean, result.difference_std, result.share_a_better) == (None, None, None)


def test_pages_that_changed_most_come_first_and_ties_are_left_out():
    result = compare(METRICS["tokens"], ROWS_A, ROWS_B, PAGES, bootstrap=0)
    assert result.changed == (PageChange("p3", 0.0, 1.0), PageChange("p2", pytest.approx(4 / 7), 0.0))
    assert result.changed[0].difference == -1.0
    assert compare(METRICS["tokens"], ROWS_A, ROWS_B, PAGES, bootstrap=0, top=1).changed == (
        PageChange("p3", 0.0, 1.0),
    )


def test_the_average_can_be_chosen():
    result = compare(METRICS["tokens"], ROWS_A, ROWS_B, PAGES, bootstrap=0, average="micro")
    # pooled A: hit 5, extracted 7, gold 11 -> F1 = 2*5 / 18; B: hit 8, extracted 10, gold 11 -> 16/21
    assert result.average == "micro"
    assert (result.f1_a, result.f1_b) == pytest.approx((5 / 9, 16 / 21))


def test_differences_below_the_tolerance_are_ties():
    result = compare(METRICS["rouge-lsum"], [rouge_row(0.5)], [rouge_row(0.5 + 1e-12)], ["p"], bootstrap=0)
    assert (result.wins, result.losses, result.ties, result.changed) == (0, 0, 1, ())


def test_identical_extractors_never_differ():
    rows = [rouge_row(f1) for f1 in (0.2, 0.9, 0.4, 0.6)]
    result = compare(METRICS["rouge-lsum"], rows, list(rows), list("abcd"), bootstrap=300)
    assert (result.wins, result.losses, result.ties, result.changed) == (0, 0, 4, ())
    assert (result.difference, result.difference_mean, result.difference_std) == (0.0, 0.0, 0.0)
    assert result.share_a_better == 0.0


def test_paired_resamples_a_better_on_every_page_wins_every_resample():
    # A beats B by 0.1 on every page: the page sets of a resample are the same for both, so A's mean F1 beats
    # B's by exactly 0.1 in every resample, however spread the pages' own scores are
    a = [rouge_row(f1) for f1 in (0.2, 0.95, 0.5, 0.7, 0.35)]
    b = [rouge_row(row["f1"] - 0.1) for row in a]
    result = compare(METRICS["rouge-lsum"], a, b, list(range(5)), bootstrap=400, seed=9)
    assert result.wins == 5
    assert result.share_a_better == 1.0
    assert result.difference_mean == pytest.approx(0.1)
    assert result.difference_std == pytest.approx(0.0, abs=1e-12)


def test_same_seed_same_comparison():
    first = compare(METRICS["tokens"], ROWS_A, ROWS_B, PAGES, bootstrap=200, seed=1)
    assert first == compare(METRICS["tokens"], ROWS_A, ROWS_B, PAGES, bootstrap=200, seed=1)
    assert 0.0 <= first.share_a_better <= 1.0 and first.difference_std > 0


def test_rows_must_be_aligned_with_the_pages():
    with pytest.raises(ValueError, match="not aligned by page"):
        compare(METRICS["tokens"], ROWS_A, ROWS_B[:2], PAGES)
