"""Gold lines matched to a page's blocks by their order: a monotone alignment, never the first text match.

A gold's lines and a page's blocks (visible_text.block_lines) are two sequences; a line stands for a
block only where the two can be matched in order. Of all the order-keeping matchings of equal
(normalised) texts, the alignment takes one with the most matched lines, then the most pinned blocks
matched (the blocks an annotator clicked into the gold: the copy they chose), then the fewest runs (a run
is a stretch of matched lines whose blocks follow one another on the page, with only unmatched gold
lines between them), so a repeated text ("Accessibility" in a sidebar and as a card's title, a heading in
the breadcrumb and as the h1, two "Read more" links) is matched to the copy that sits among the gold's
other lines. Where that still leaves a choice, later copies win.

static/js/align.js computes the same alignment in the annotate view (tests/corpus/test_visible_text.py checks
that the two agree in Chromium).
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from webapp.corpus.visible_text import normalise_line

NONE = -1


def align(lines: Sequence[str], blocks: Sequence[str], pinned: Set[int] = frozenset()) -> list[int]:
    """For each line, the index of the block it is matched to, or -1 (blank, typed, edited lines).

    `pinned`: indexes of blocks to prefer among copies of a text (the ones the annotator clicked).
    """
    wanted = [normalise_line(line) for line in lines]
    present = set(blocks)
    rows = [i for i, text in enumerate(wanted) if text and text in present]
    texts = set(wanted[i] for i in rows)
    # Blocks no line has are kept only as gaps: a run of them is one placeholder (None), which keeps
    # "these two blocks follow one another" true or false exactly as on the page.
    columns: list[int] = []
    compact: list[str | None] = []
    for index, text in enumerate(blocks):
        if text in texts:
            columns.append(index)
            compact.append(text)
        elif not compact or compact[-1] is not None:
            columns.append(NONE)
            compact.append(None)
    bonus = [column != NONE and column in pinned for column in columns]
    matched = _align_compact([wanted[i] for i in rows], compact, bonus)
    result = [NONE] * len(lines)
    for row, column in zip(rows, matched, strict=True):
        if column != NONE:
            result[row] = columns[column]
    return result


def _align_compact(lines: list[str], blocks: list[str | None], pinned: list[bool]) -> list[int]:
    """The dynamic programme over three tables: best (the first i lines against the first j blocks, any
    way), ends (the last match on block j-1, the lines after it unmatched) and here (line i-1 on block
    j-1), kept as two rows each; each cell's choice is kept for the way back as bits: 1 and 2, which of
    up and left gave `best` (neither: here); 4, `ends` came from up; 8, `here` followed a break."""
    n, m = len(lines), len(blocks)
    if not n or not m:
        return [NONE] * n
    # Scores: a match is worth more than any number of pins, a pin more than any number of runs cost.
    pin = n + 2
    weight = pin * (n + 2)
    gain = [weight + pin if on else weight for on in pinned]
    low = -(2**60)
    width = m + 1
    best, ends = [0] * width, [low] * width
    choice = bytearray((n + 1) * width)
    for i in range(1, n + 1):
        line, row = lines[i - 1], i * width
        next_best, next_ends = [0] * width, [low] * width
        for j in range(1, m + 1):
            here, bits = low, 0
            if blocks[j - 1] == line:
                run, fresh = ends[j - 1], best[j - 1] - 1
                if run >= fresh and run > low:
                    here = gain[j - 1] + run
                else:
                    here, bits = gain[j - 1] + fresh, 8
            up = ends[j]
            if here >= up and here > low:
                next_ends[j] = here
            else:
                next_ends[j] = up
                bits |= 4
            above, left = best[j], next_best[j - 1]
            if here > low and here >= above and here >= left:
                next_best[j] = here
            elif above >= left:
                next_best[j] = above
                bits |= 1
            else:
                next_best[j] = left
                bits |= 2
            choice[row + j] = bits
        best, ends = next_best, next_ends
    result = [NONE] * n
    i, j, state = n, m, "best"
    while i > 0 and j > 0:
        bits = choice[i * width + j]
        if state == "best":
            if bits & 1:
                i -= 1
            elif bits & 2:
                j -= 1
            else:
                state = "here"
        elif state == "ends":
            if bits & 4:
                i -= 1
            else:
                state = "here"
        else:
            result[i - 1] = j - 1
            state = "best" if bits & 8 else "ends"
            i, j = i - 1, j - 1
    return result
