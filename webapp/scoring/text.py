"""Word tokens shared by the token-overlap and shingle metrics."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The runs of word characters (``\\w+``) of ``text``, case kept."""
    return _WORD.findall(text)
