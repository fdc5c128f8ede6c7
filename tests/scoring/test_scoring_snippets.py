"""Gold snippets, trafilatura's way: substring tests on whitespace-collapsed text, pooled counts."""

from fractions import Fraction

import pytest
from workbench import METRICS

from webapp.scoring import summarize

metric = METRICS["snippets"]

GOLD = {"with": ["first  paragraph", "Second\nline"], "without": ["Share this", "Cookie policy"]}


@pytest.mark.parametrize(
    ("candidate", "expected"),
    [
        # whitespace collapsed on both sides: both `with` found, "Share this" kept, "Cookie policy" not
        ("first paragraph here.\n\nSecond   line of text.\tShare\nthis", (2, 0, 1, 1)),
        # substring tests are case-sensitive
        ("First paragraph. Second line.", (1, 1, 0, 2)),
        ("", (0, 2, 0, 2)),
        (None, (0, 2, 0, 2)),
    ],
)
def test_counts(candidate, expected):
    counts = metric.counts(candidate, GOLD)
    assert (counts["tp"], counts["fn"], counts["fp"], counts["tn"]) == expected
    assert counts["errored"] is False


def test_errored_extraction_misses_every_with_and_keeps_no_without():
    text = "first paragraph Second line Share this Cookie policy"
    assert metric.counts(text, GOLD, errored=True) == {
        "tp": 0,
        "fn": 2,
        "fp": 0,
        "tn": 2,
        "errored": True,
    }


def test_metric_scores_snippets():
    assert metric.needs == "snippets"
    assert metric.averages == ("micro", "macro")


@pytest.mark.parametrize(
    ("counts", "scores"),
    [
        # p = 2/3, r = 2/2, F1 = 2*2 / (2*2 + 1 + 0) = 4/5
        ({"tp": 2, "fn": 0, "fp": 1, "tn": 1}, (Fraction(2, 3), 1, Fraction(4, 5))),
        # nothing found, nothing kept: every denominator with tp alone is 0 -> 0
        ({"tp": 0, "fn": 2, "fp": 0, "tn": 2}, (0, 0, 0)),
        # no snippets at all
        ({"tp": 0, "fn": 0, "fp": 0, "tn": 0}, (0, 0, 0)),
    ],
)
def test_one_page_scores(counts, scores):
    assert METRICS["snippets"].of_page(counts) == pytest.approx(tuple(map(float, scores)))


def _corpus_rows():
    return [
        metric.counts("first paragraph here. Second line. Share this", GOLD),  # (2, 0, 1, 1)
        metric.counts("whatever", GOLD, errored=True),  # (0, 2, 0, 2)
        metric.counts(
            "alpha beta", {"with": ["alpha", "gamma"], "without": ["beta", "delta"]}
        ),  # (1, 1, 1, 1)
    ]


@pytest.mark.parametrize(
    ("average", "precision", "recall", "f1", "accuracy"),
    [
        # pooled TP 3, FN 3, FP 2, TN 4: p 3/5, r 3/6, F1 2*3 / (6 + 2 + 3) = 6/11, acc (3 + 4) / 12
        ("micro", Fraction(3, 5), Fraction(1, 2), Fraction(6, 11), Fraction(7, 12)),
        # per page (p, r, F1, acc): (2/3, 1, 4/5, 3/4), (0, 0, 0, 2/4), (1/2, 1/2, 2/4, 2/4)
        ("macro", Fraction(7, 18), Fraction(1, 2), Fraction(13, 30), Fraction(7, 12)),
    ],
)
def test_corpus_averages(average, precision, recall, f1, accuracy):
    summary = summarize(METRICS["snippets"], _corpus_rows(), average=average, bootstrap=0)
    assert (summary.precision, summary.recall, summary.f1, summary.accuracy) == pytest.approx(
        tuple(map(float, (precision, recall, f1, accuracy)))
    )
    assert (summary.pages, summary.errors) == (3, 1)


def test_default_average_is_pooled():
    assert summarize(METRICS["snippets"], _corpus_rows(), bootstrap=0).f1 == pytest.approx(6 / 11)
