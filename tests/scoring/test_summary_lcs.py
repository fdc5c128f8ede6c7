"""ROUGE-LSum's summary-level LCS is rouge-score's to the last bit: the same subsequence of each sentence pair
(ties read out as its backtrack reads them), the same union and hit counts, on random sentences over small
vocabularies (where ties abound) and on real pages."""

from __future__ import annotations

import gzip
import json

import pytest
import trafilatura
from corpora import WCXB, WCXB_SAMPLE
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from webapp.scoring import rouge_lsum
from webapp.scoring.summary_lcs import lcs_indices, summary_level_lcs

sentence = st.lists(st.sampled_from("abcde"), max_size=14)


@given(sentence, sentence)
@settings(max_examples=400, deadline=None)
def test_each_pairs_subsequence_is_the_one_rouge_score_reads_out(reference, candidate):
    assert lcs_indices(reference, candidate) == rouge_scorer.lcs_ind(reference, candidate)


@given(st.lists(sentence, max_size=5), st.lists(sentence, max_size=5))
@settings(max_examples=400, deadline=None)
def test_the_summary_level_figures_are_rouge_scores(reference, candidate):
    score = rouge_scorer._summary_level_lcs(reference, candidate)
    assert summary_level_lcs(reference, candidate) == (score.precision, score.recall, score.fmeasure)


@pytest.mark.parametrize(("reference", "candidate", "indices"), [
    ("a b c d", "c d a b", [0, 1]),  # two LCS of length 2: the walk takes the reference's first
    ("a b a", "b a b", [0, 1]),  # the walk leaves the last "a" when the cells left and above tie
    ("x y", "p q", []),
    ("", "a", []),
])
def test_by_hand(reference, candidate, indices):
    assert lcs_indices(reference.split(), candidate.split()) == indices


def test_a_token_counts_at_most_as_often_as_it_occurs_in_both_texts():
    # both reference sentences find "a" in the candidate's one sentence, which has it once: 2 hits (a, b) of the
    # reference's 3 tokens and the candidate's 2; F = 2 * 1 * 2/3 / (1 + 2/3) = 4/5
    assert summary_level_lcs([["a", "b"], ["a"]], [["a", "b"]]) == (1.0, 2 / 3, 0.8)


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_on_real_pages_the_metric_equals_rouge_scores_scorer():
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False, tokenizer=_Whitespace())
    for name in ("0001", "0018", "0021"):
        gold = json.loads((WCXB_SAMPLE / "dev" / "ground-truth" / f"{name}.json").read_text())["ground_truth"]
        page = gzip.decompress((WCXB_SAMPLE / "dev" / "html" / f"{name}.html.gz").read_bytes()).decode()
        extracted = trafilatura.extract(page) or ""
        expected = scorer.score(rouge_lsum.sentence_lines(gold["main_content"]),
                                rouge_lsum.sentence_lines(extracted))["rougeLsum"]
        counts = rouge_lsum.counts(extracted, gold["main_content"])
        assert (counts["precision"], counts["recall"], counts["f1"]) == (
            expected.precision, expected.recall, expected.fmeasure), name
        assert 0 < counts["f1"] < 1, name  # a real comparison, neither empty nor identical


class _Whitespace:
    """rouge-score's tokenizer protocol with whitespace tokens, as WCEB scores."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()
