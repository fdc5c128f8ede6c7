"""Token overlap: lower-cased \\w+ tokens compared as multisets; micro and macro averages."""

from fractions import Fraction

import pytest
from workbench import METRICS

from webapp.scoring import summarize

tokens = METRICS["tokens"]


@pytest.mark.parametrize(
    ("candidate", "gold", "expected"),
    [
        # identical after lower-casing; punctuation is not a token
        ("The cat sat.", "the cat sat", {"hit": 3, "extracted": 3, "gold": 3, "exact": True}),
        # case does not matter
        ("The CAT", "the cat", {"hit": 2, "extracted": 2, "gold": 2, "exact": True}),
        # multiset: {a:3, b:1} & {a:1, b:2} = {a:1, b:1}
        ("a a a b", "a b b", {"hit": 2, "extracted": 4, "gold": 3, "exact": False}),
        # same tokens, other order: full overlap but not exact
        ("b a", "a b", {"hit": 2, "extracted": 2, "gold": 2, "exact": False}),
        # \w+ splits on apostrophes and keeps underscores
        ("don't stop_me", "don t stop_me", {"hit": 3, "extracted": 3, "gold": 3, "exact": True}),
        ("", "one two", {"hit": 0, "extracted": 0, "gold": 2, "exact": False}),
        ("one two", "", {"hit": 0, "extracted": 2, "gold": 0, "exact": False}),
        ("", "", {"hit": 0, "extracted": 0, "gold": 0, "exact": True}),
    ],
)
def test_counts(candidate, gold, expected):
    assert tokens.counts(candidate, gold) == {**expected, "errored": False}


def test_errored_extraction_is_scored_as_empty():
    assert tokens.counts("the cat", "the cat", errored=True) == {
        "hit": 0,
        "extracted": 0,
        "gold": 2,
        "exact": False,
        "errored": True,
    }


@pytest.mark.parametrize(
    ("candidate", "gold", "precision", "recall", "f1"),
    [
        ("The cat sat.", "the cat sat", 1, 1, 1),
        # p = 2/4, r = 2/3, F1 = 2 * 1/2 * 2/3 / (1/2 + 2/3) = (2/3) / (7/6) = 4/7
        ("a a a b", "a b b", Fraction(1, 2), Fraction(2, 3), Fraction(4, 7)),
        # empty extraction: 0 / max(0, 1) = 0
        ("", "one two", 0, 0, 0),
        # empty gold: recall 0 / max(0, 1) = 0, precision 0 / 2
        ("one two", "", 0, 0, 0),
        # both empty: no hit, so 0 everywhere (though the page is exact)
        ("", "", 0, 0, 0),
    ],
)
def test_one_page_scores(candidate, gold, precision, recall, f1):
    scores = METRICS["tokens"].of_page(tokens.counts(candidate, gold))
    assert scores == pytest.approx((float(precision), float(recall), float(f1)))


PAGES = [
    ("a a a b", "a b b"),  # hit 2, extracted 4, gold 3; p 1/2, r 2/3, F1 4/7
    ("x y z", "X Y Z"),  # hit 3, extracted 3, gold 3; exact
    ("", "one two three four five"),  # hit 0, extracted 0, gold 5; all 0
]


@pytest.mark.parametrize(
    ("average", "precision", "recall", "f1"),
    [
        # pooled: hit 5, extracted 7, gold 11 -> p 5/7, r 5/11, F1 = 2*5 / (7 + 11) = 5/9
        ("micro", Fraction(5, 7), Fraction(5, 11), Fraction(5, 9)),
        # means of per-page figures: (1/2 + 1 + 0)/3, (2/3 + 1 + 0)/3, (4/7 + 1 + 0)/3
        ("macro", Fraction(1, 2), Fraction(5, 9), Fraction(11, 21)),
    ],
)
def test_corpus_averages(average, precision, recall, f1):
    rows = [tokens.counts(candidate, gold) for candidate, gold in PAGES]
    summary = summarize(METRICS["tokens"], rows, average=average, bootstrap=0)
    assert (summary.precision, summary.recall, summary.f1) == pytest.approx(
        (float(precision), float(recall), float(f1))
    )
    # one exact page out of three
    assert summary.accuracy == pytest.approx(1 / 3)
    assert summary.average == average


def test_default_average_is_macro():
    assert tokens.averages == ("macro", "micro")
    rows = [tokens.counts(candidate, gold) for candidate, gold in PAGES]
    assert summarize(METRICS["tokens"], rows, bootstrap=0).f1 == pytest.approx(11 / 21)


def test_errored_pages_count_as_errors_and_empty_extractions():
    rows = [tokens.counts("a b", "a b"), tokens.counts("a b", "a b", errored=True)]
    summary = summarize(METRICS["tokens"], rows, average="micro", bootstrap=0)
    # pooled: hit 2, extracted 2, gold 4
    assert (summary.precision, summary.recall, summary.errors, summary.pages) == (1.0, 0.5, 1, 2)
