"""The `wcxb` metric, hand-computed: WCXB's evaluate.py word multisets and empty-text rules, its snippet
rates, and corpus figures that are means of the per-page figures."""

from fractions import Fraction

import pytest
from workbench import METRICS

from webapp.scoring import summarize

WCXB = METRICS["wcxb"]


def gold(text: str, with_: tuple[str, ...] = (), without: tuple[str, ...] = ()) -> dict:
    return {"text": text, "with": list(with_), "without": list(without)}


@pytest.mark.parametrize(
    ("candidate", "reference", "scores"),
    [
        # both empty: a perfect page
        ("", "", (1, 1, 1)),
        # "empty" means no \w+ token: punctuation alone is empty on both sides
        ("!!", "...", (1, 1, 1)),
        # empty reference, something extracted: 0, not the extraction's precision
        ("Menu", "", (0, 0, 0)),
        # empty extraction of a page with text: 0
        ("", "the cat sat", (0, 0, 0)),
        # case is ignored: the, cat, sat all found; 3 of 3 extracted, 3 of 6 expected, F1 = 2 * 1 * 1/2 / (3/2)
        ("The CAT sat", "the cat SAT on the mat", (1, Fraction(1, 2), Fraction(2, 3))),
        # multisets: "the" three times extracted, once expected: overlap 1; P 1/3, R 1/2, F1 (1/3) / (5/6) = 2/5
        ("the the the", "the cat", (Fraction(1, 3), Fraction(1, 2), Fraction(2, 5))),
        # \w+ keeps letters beyond ASCII and digits together, and splits at punctuation
        ("Rødgrød, 2026!", "rødgrød 2026", (1, 1, 1)),
    ],
)
def test_word_scores(candidate, reference, scores):
    counts = WCXB.counts(candidate, gold(reference))
    assert WCXB.of_page(counts) == pytest.approx(tuple(float(s) for s in scores))


def test_snippet_rates_are_case_insensitive_shares_and_one_without_snippets():
    counts = WCXB.counts("Tickets cost TWO crowns", gold("x", ("two crowns", "ferry"), ("Cookie", "tickets")))
    assert (counts["with_rate"], counts["without_rate"]) == (0.5, 0.5)
    assert {k: WCXB.counts("anything", gold("x"))[k] for k in ("with_rate", "without_rate")} == {
        "with_rate": 1.0, "without_rate": 1.0}


def test_an_errored_extraction_is_scored_as_empty():
    counts = WCXB.counts("the cat", gold("the cat", ("cat",)), errored=True)
    assert (counts["f1"], counts["with_rate"], counts["errored"]) == (0.0, 0.0, True)


def test_corpus_figures_are_means_of_page_figures_with_the_snippet_rates():
    rows = [
        WCXB.counts("", gold("")),  # 1, 1, 1; rates 1, 1
        WCXB.counts("the the the", gold("the cat", ("cat",), ("the",))),  # 1/3, 1/2, 2/5; rates 0, 1
        WCXB.counts("", gold("the cat", ("cat",), ("dog", "the"))),  # 0, 0, 0; rates 0, 0
    ]
    summary = summarize(WCXB, rows, bootstrap=0)
    assert (summary.precision, summary.recall, summary.f1) == pytest.approx(
        ((1 + 1 / 3) / 3, (1 + 1 / 2) / 3, (1 + 2 / 5) / 3))
    assert summary.extra == pytest.approx({"with_rate": 1 / 3, "without_rate": 2 / 3})
    with pytest.raises(ValueError, match="wcxb has a fixed average"):
        summarize(WCXB, rows, average="micro")
