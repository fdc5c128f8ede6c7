"""The comparison of titles and of authors' names: what the `title` and `authors` metrics count per page.

A title is compared as written, its whitespace collapsed (exact match), and as a multiset of lower-cased word
tokens (``\\w+``, the `tokens` metric's) for its token F1. Names are compared after normalisation: lower-cased
(casefold), whitespace collapsed, a leading "By " and the punctuation around a name dropped, and the names of a
page compared as a multiset (their order ignored). "None on the page" on both sides is a match (F1 1); on one
side only, a miss (F1 0).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .metric import Fields
from .ratios import harmonic_mean, ratio_or_zero
from .text import words

BY = re.compile(r"^by\s+")
EDGES = " \t,;:.|-–—"

OVERLAP_FIELDS = ("hit", "extracted", "gold", "exact")


def collapsed(text: str | None) -> str:
    return " ".join((text or "").split())


def name_key(name: str) -> str:
    """A name as compared: casefolded, whitespace collapsed, a leading "by " and the punctuation around it gone."""
    return BY.sub("", collapsed(name).casefold()).strip(EDGES)


def names_key(names: Iterable[str] | None) -> Counter[str]:
    """The multiset of a page's names as compared (empty ones dropped)."""
    return Counter(key for key in map(name_key, names or ()) if key)


def overlap(found: Counter[str], expected: Counter[str], exact: bool, *, errored: bool) -> dict[str, Any]:
    """The counts of two multisets: {"hit", "extracted", "gold", "exact", "errored"}."""
    return {"hit": sum((found & expected).values()), "extracted": sum(found.values()),
            "gold": sum(expected.values()), "exact": exact, "errored": errored}


def title_counts(candidate: str | None, gold: str | None, *, errored: bool = False) -> dict[str, Any]:
    """A title against the gold's: exact after whitespace collapsed, and its lower-cased word tokens."""
    found = None if errored else candidate
    exact = collapsed(found) == collapsed(gold)
    return overlap(Counter(words((found or "").lower())), Counter(words((gold or "").lower())), exact,
                   errored=errored)


def authors_counts(candidate: Sequence[str] | None, gold: Sequence[str] | None, *,
                   errored: bool = False) -> dict[str, Any]:
    """Authors against the gold's: exact when the normalised multisets of names are equal; per name hits."""
    found, expected = names_key(None if errored else candidate), names_key(gold)
    return overlap(found, expected, found == expected, errored=errored)


def page_scores(fields: Fields) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 of the hits (of a page, or pooled); both sides empty is a match (1)."""
    both_empty = (fields["extracted"] == 0) & (fields["gold"] == 0)
    precision = np.where(both_empty, 1.0, ratio_or_zero(fields["hit"], fields["extracted"]))
    recall = np.where(both_empty, 1.0, ratio_or_zero(fields["hit"], fields["gold"]))
    return precision, recall, harmonic_mean(precision, recall)


def exact(fields: Fields) -> np.ndarray:
    return fields["exact"]


def share_exact(pooled: Fields, pages: int) -> np.ndarray:
    return pooled["exact"] / pages
