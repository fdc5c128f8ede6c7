"""Content compared as content, whatever its form: a text's tokens with list markers (`- `, `* `, `1.`),
Markdown's decoration (`|`, `*`, `_`, `#`, `` ` ``, `>`), the spacing around punctuation, case and the way
the text is split into lines (with the full stops, commas, colons and semicolons that come and go with it)
left out. Two texts that say the same thing split or formatted differently
have the same tokens: taking lines and adjudication compare lines this way (static/js/content.js is the
same definition for the browser, tested on the same cases), and the `repeated-text` check finds a gold that
holds the same content twice.

Pure: no database, no Flask.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

MARKER = re.compile(r"^\s*(?:[-*+•‣◦▪–—]|\(?\d{1,3}[.)])\s+")
"""A list item's marker at the start of a line: a bullet, or a number with a full stop or a bracket."""
TOKEN = re.compile(r"[^\W_]+|[^\w\s|*#`>.,;:]")
"""A run of letters and digits, or one punctuation mark that is neither Markdown's decoration (nor `_`) nor
a full stop, comma, colon or semicolon: those come and go where a text is split or joined otherwise
("works," then "and"; "Saturday:" then "10 to 14"), so they separate tokens and are not tokens."""


def line_tokens(line: str) -> list[str]:
    """The content tokens of one line (none for a line without a letter or digit: a rule, a table's
    separator row)."""
    found = TOKEN.findall(MARKER.sub("", unicodedata.normalize("NFKC", line).lower()))
    return found if any(token[0].isalnum() for token in found) else []


def tokens(text: str) -> list[str]:
    """The content tokens of a text, its lines one after the other (line splits and joins do not count)."""
    return [token for line in text.split("\n") for token in line_tokens(line)]


def content_key(line: str) -> str:
    """A line's content as one string, for matching lines whatever their form ("" when it has none)."""
    return " ".join(line_tokens(line))


def contains(text: Sequence[str], part: Sequence[str]) -> bool:
    """Whether the tokens `part` (not empty) come one after the other somewhere in the tokens `text`."""
    if not part:
        return False
    return f" {' '.join(part)} " in f" {' '.join(text)} "


def repeated_runs(found: Sequence[str], size: int) -> list[tuple[int, int, int]]:
    """The runs of at least `size` tokens that come twice (not overlapping), each once, as (where it comes
    first, where it comes again, its length), in the order they come again."""
    first: dict[tuple[str, ...], int] = {}
    runs: list[tuple[int, int, int]] = []
    at = 0
    while at + size <= len(found):
        shingle = tuple(found[at:at + size])
        earlier = first.setdefault(shingle, at)
        if earlier != at and at - earlier >= size:
            length = size
            while at + length < len(found) and earlier + length < at and found[earlier + length] == found[at + length]:
                length += 1
            runs.append((earlier, at, length))
            at += length
            continue
        at += 1
    return runs
