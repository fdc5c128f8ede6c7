"""The incremental board gives the same figures as aggregating the corpus afresh."""

import math

import pytest
from workbench import METRICS

from webapp.scoring import summarize_many
from webapp.scoring.leaderboard_maths import Leaderboard

GOLDS = [
    "the night train leaves at ten",
    "a short note",
    "compost heats up in a week, then cools",
    "",
    "rhubarb forcing in the dark shed",
]
CANDIDATES = {
    "a": ["the night train leaves at ten", "a short note here", "compost heats", "x", "rhubarb"],
    "b": ["night train", "", "compost heats up in a week then cools", "", "forcing rhubarb in the dark"],
}


def table(metric, golds, candidates):
    return {
        name: [metric.counts(text, gold) for text, gold in zip(texts, golds)]
        for name, texts in candidates.items()
    }


def assert_same(left, right):
    for name in right:
        for field in ("precision", "recall", "f1", "accuracy", "precision_std", "recall_std", "f1_std"):
            a, b = getattr(left[name], field), getattr(right[name], field)
            assert (a is None and b is None) or math.isclose(a, b, abs_tol=1e-12), (name, field)
        assert left[name].errors == right[name].errors and left[name].pages == right[name].pages


@pytest.mark.parametrize("metric_name", ["tokens", "shingles"])
@pytest.mark.parametrize("bootstrap", [0, 200])
def test_leaderboard_equals_fresh_aggregation_before_and_after_an_update(metric_name, bootstrap):
    metric = METRICS[metric_name]
    pages = list(range(len(GOLDS)))
    board = Leaderboard(METRICS[metric_name], table(metric, GOLDS, CANDIDATES), pages, bootstrap=bootstrap, seed=7)
    expected = summarize_many(METRICS[metric_name], table(metric, GOLDS, CANDIDATES), bootstrap=bootstrap, seed=7)
    assert_same(board.summaries(), expected)

    edited = list(GOLDS)
    edited[2] = "compost heats"
    errored = {"a": metric.counts(None, edited[2], errored=True), "b": metric.counts(CANDIDATES["b"][2], edited[2])}
    board.update(2, errored)
    fresh = table(metric, edited, CANDIDATES)
    fresh["a"][2] = errored["a"]
    assert_same(board.summaries(), summarize_many(METRICS[metric_name], fresh, bootstrap=bootstrap, seed=7))
    assert board.summaries()["a"].errors == 1
