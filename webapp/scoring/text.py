"""Word tokens shared by the token-overlap, WCXB and shingle metrics.

A save rescores one page for every extraction and eager metric in one pass: the gold's tokens are the
same for all of them, and an extraction's lower-cased tokens are the same for tokens and WCXB. So the
tokens, the lower-cased word multiset and the shingle multiset of the last texts seen are kept (a small
least-recently-used memo of a pure function): the gold is tokenised once per save, not once per
extraction and metric. What they return is shared: read it, never change it.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

_WORD = re.compile(r"\w+")
KEPT = 64
"""Texts whose tokens are kept: a page's gold and its extractions, with room to spare."""


def words(text: str) -> list[str]:
    """The runs of word characters (``\\w+``) of ``text``, case kept."""
    return _WORD.findall(text)


@lru_cache(maxsize=KEPT)
def tokens_of(text: str) -> tuple[str, ...]:
    """``words(text)`` as a tuple, kept for the next metric that asks."""
    return tuple(_WORD.findall(text))


@lru_cache(maxsize=KEPT)
def bag_of(text: str) -> Counter[str]:
    """The multiset of ``words(text)``."""
    return Counter(tokens_of(text))
