"""The fewest workbench operations that turn a prefill into a gold (issue 24 §5), counted over lines.

The prefill's and the gold's lines (blank ones left out, whitespace collapsed) are diffed in order
(difflib, no junk heuristic). Every stretch the two share costs nothing. Each other stretch costs:

- typing only (`Count.typing`): one line deletion per prefill line to remove, one operation per word (a
  run of non-space characters) to type or delete. A replaced stretch costs the cheaper of deleting its
  lines and typing the gold's, or the word diff of the two (words deleted plus words typed);
- the workbench (`Count.workbench`): the same stretch, where three more actions may do part of it:
  - removing prefill lines: a line that is a page block (the lines aligned to the page's blocks by
    corpus/alignment.align, as the annotate view aligns them) goes with one block click; two or more
    such lines on consecutive blocks go with a click and a Shift+click (2, however many);
  - adding gold lines: a gold line that is a page block is one block click; a run of gold lines on
    consecutive page blocks is a click and a Shift+click (2); a run of gold lines that follow one another in
    a candidate's text is one candidate-run take (1) when it is a
    whole region of "Lines to take" (the candidate's lines just before and after it are in the gold, or
    it starts or ends the candidate), as "Take these N lines" takes a region's whole run; anything else
    is typed, word by word. A single candidate line is always one candidate-line take.
  The cheapest split of each added stretch into such pieces is a dynamic programme over its lines.

Not counted: container widening (a container's blocks are consecutive in the page, so widening and then
clicking, two operations or more, never beats the Shift+click range over the same blocks), moving lines,
and edits within a line that a block or candidate take would replace (a replaced stretch may also be
deleted and re-taken, which is counted). Nothing here knows Flask.
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import NamedTuple

from ..corpus.alignment import NONE, align
from ..corpus.visible_text import normalise_line

WORD = re.compile(r"\S+")


def lines_of(text: str) -> list[str]:
    """The text's non-blank lines, whitespace collapsed."""
    return [line for line in (normalise_line(raw) for raw in text.split("\n")) if line]


def words(lines: Sequence[str]) -> int:
    return sum(len(WORD.findall(line)) for line in lines)


def word_diff(a: Sequence[str], b: Sequence[str]) -> int:
    """Words deleted from `a` plus words typed to reach `b`."""
    wa, wb = WORD.findall(" ".join(a)), WORD.findall(" ".join(b))
    kept = sum(size for *_, size in SequenceMatcher(None, wa, wb, autojunk=False).get_matching_blocks())
    return len(wa) - kept + len(wb) - kept


@dataclass(frozen=True)
class Page:
    """What the operations act on: the page's blocks and the candidates' texts, as lines."""

    blocks: Sequence[str]
    candidates: Sequence[Sequence[str]] = ()


def _runs(indexes: Sequence[int]) -> list[int]:
    """Lengths of the stretches of consecutive block indexes (NONE breaks a stretch and is one of its own)."""
    runs: list[int] = []
    last = None
    for index in indexes:
        if index != NONE and last is not None and last != NONE and index == last + 1:
            runs[-1] += 1
        else:
            runs.append(1)
        last = index
    return runs


def removal_ops(indexes: Sequence[int]) -> int:
    """Removing prefill lines whose page blocks are `indexes` (NONE: not a block): a line deletion
    each, a click for a block, a click and a Shift+click for consecutive blocks."""
    total, start = 0, 0
    for length in _runs(indexes):
        first = indexes[start]
        total += (1 if length == 1 else 2) if first != NONE else length
        start += length
    return total


def addition_ops(lines: Sequence[str], indexes: Sequence[int], candidates: Sequence[Sequence[str]],
                 gold: Set[str] = frozenset()) -> int:
    """The fewest operations that add gold `lines` (on page blocks `indexes`, NONE: not a block):
    a DP over where each piece (a block or range of blocks, a candidate take, a typed line) ends.
    A candidate's run is one take only when it is a whole region of the lines the gold lacks: the
    candidate's lines just around it are in the `gold` (or it starts or ends the candidate)."""
    n = len(lines)
    best = [0] * (n + 1)
    for end in range(1, n + 1):
        cost = best[end - 1] + words([lines[end - 1]])
        if indexes[end - 1] != NONE:
            cost = min(cost, best[end - 1] + 1)
        start = end - 1
        while start > 0 and indexes[start - 1] != NONE and indexes[start] == indexes[start - 1] + 1:
            start -= 1
            cost = min(cost, best[start] + 2)
        for begin in _takes(lines, end, candidates, gold):
            cost = min(cost, best[begin] + 1)
        best[end] = cost
    return best[n]


def _takes(lines: Sequence[str], end: int, candidates: Sequence[Sequence[str]], gold: Set[str]) -> set[int]:
    """The starts of the runs of `lines` ending at `end` that one candidate take adds."""
    found: set[int] = set()
    for candidate in candidates:
        size = len(candidate)
        for last, line in enumerate(candidate):
            if line != lines[end - 1]:
                continue
            found.add(end - 1)  # each line of "Lines to take" is a button of its own
            if last + 1 < size and candidate[last + 1] not in gold:
                continue
            first, begin = last, end - 1
            while True:
                if first == 0 or candidate[first - 1] in gold:
                    found.add(begin)
                if first == 0 or begin == 0 or candidate[first - 1] != lines[begin - 1]:
                    break
                first, begin = first - 1, begin - 1
    return found


class Count(NamedTuple):
    typing: int
    workbench: int


def count(prefill: str, gold: str, page: Page) -> Count:
    """Operations from `prefill` to `gold`, typing only and with every workbench operation."""
    a, b = lines_of(prefill), lines_of(gold)
    on_a, on_b = align(a, page.blocks), align(b, page.blocks)
    candidates = [list(c) for c in page.candidates]
    typing = workbench = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        removed, added = a[i1:i2], b[j1:j2]
        typed = len(removed) + words(added)
        if tag == "replace":
            typed = min(typed, word_diff(removed, added))
        typing += typed
        taken = removal_ops(on_a[i1:i2]) + addition_ops(added, on_b[j1:j2], candidates, set(b))
        workbench += min(typed, taken)
    return Count(typing, workbench)
