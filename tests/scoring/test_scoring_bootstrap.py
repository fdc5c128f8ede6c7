"""Bootstrap over pages: seeded, shared resamples; sample standard deviation (ddof=1) of each figure."""

import math

import numpy as np
import pytest
from workbench import METRICS

from webapp.scoring import summarize
from webapp.scoring.bootstrap import BLOCK, resampled_sums, spread, weights


def rouge_rows(f1_values):
    return [{"precision": f1, "recall": f1, "f1": f1, "errored": False} for f1 in f1_values]


def test_each_resample_draws_as_many_pages_as_there_are():
    sums = resampled_sums(np.ones((7, 1)), resamples=300, seed=1)
    assert sums.shape == (300, 1)
    assert np.all(sums == 7)


def test_weights_are_page_multiplicities():
    # values = identity: the sums are the weights themselves
    weights = resampled_sums(np.eye(5), resamples=2000, seed=2)
    assert np.all(weights >= 0) and np.all(weights == np.round(weights))
    # every page is drawn once per resample on average
    assert weights.mean(axis=0) == pytest.approx(np.ones(5), abs=0.08)


def test_every_column_sees_the_same_resamples():
    values = np.arange(12, dtype=float).reshape(6, 2)
    wider = np.hstack([values, np.ones((6, 3))])
    assert np.array_equal(
        resampled_sums(values, resamples=50, seed=4),
        resampled_sums(wider, resamples=50, seed=4)[:, :2],
    )


@pytest.mark.parametrize(
    ("samples", "expected"),
    [
        # mean 2; ((1-2)^2 + (3-2)^2) / (2 - 1) = 2
        ([1.0, 3.0], math.sqrt(2)),
        # undefined resamples are left out
        ([1.0, float("nan"), 3.0], math.sqrt(2)),
        ([5.0, 5.0, 5.0], 0.0),
        ([1.0], None),
        ([float("nan"), float("nan")], None),
    ],
)
def test_spread(samples, expected):
    assert spread(np.array(samples)) == (None if expected is None else pytest.approx(expected))


def test_same_seed_same_figures():
    rows = rouge_rows([0.1, 0.5, 0.9, 0.3, 0.7])
    assert summarize(METRICS["rouge-lsum"], rows, seed=11) == summarize(METRICS["rouge-lsum"], rows, seed=11)
    assert summarize(METRICS["rouge-lsum"], rows, seed=11) != summarize(METRICS["rouge-lsum"], rows, seed=12)


def test_no_spread_when_every_page_scores_the_same():
    summary = summarize(METRICS["rouge-lsum"], rouge_rows([0.3] * 40), bootstrap=500)
    spreads = (summary.precision_std, summary.recall_std, summary.f1_std)
    assert spreads == pytest.approx((0, 0, 0), abs=1e-12)


def test_no_bootstrap_no_spread():
    summary = summarize(METRICS["rouge-lsum"], rouge_rows([0.0, 1.0]), bootstrap=0)
    spreads = (summary.precision_std, summary.recall_std, summary.f1_std)
    assert (summary.f1, spreads) == (0.5, (None, None, None))


def test_spread_of_two_pages_scoring_zero_and_one():
    # A resample of two pages holds {0, 0}, {0, 1} or {1, 1} with probabilities 1/4, 1/2, 1/4, so
    # its mean F1 is 0, 1/2 or 1: variance = (1/2 * 1/4 + 1/4 * 1) - (1/2)^2 = 1/8, std ~ 0.354.
    summary = summarize(METRICS["rouge-lsum"], rouge_rows([0.0, 1.0]), bootstrap=20000, seed=5)
    assert summary.f1_std == pytest.approx(math.sqrt(1 / 8), rel=0.03)
    # the point estimate is not resampled
    assert summary.f1 == 0.5


def test_a_negative_number_of_resamples_is_an_error():
    with pytest.raises(ValueError, match="must be positive"):
        summarize(METRICS["rouge-lsum"], rouge_rows([0.5]), bootstrap=-1)


@pytest.mark.parametrize(("pages", "resamples", "seed"), [(1, 3, 0), (7, 300, 11), (2_000, BLOCK + 5, 3)])
def test_a_seed_draws_the_resamples_it_always_drew(pages, resamples, seed):
    """The resamples of a seed are numpy's 64-bit uniform draws of page indices, block by block, so a
    figure's spread printed with --seed N is the one an earlier version printed."""
    rng = np.random.default_rng(seed)
    drawn = np.vstack([rng.integers(0, pages, size=(min(BLOCK, resamples - start), pages))
                       for start in range(0, resamples, BLOCK)])
    expected = np.stack([np.bincount(row, minlength=pages) for row in drawn])
    assert np.array_equal(weights(pages, resamples, seed), expected)
