"""Gold lines matched to a page's blocks by their order: a monotone alignment, never the first text match.

A gold's lines and a page's blocks (visible_text.block_lines) are two sequences; a line stands for a
block only where the two can be matched in order. Of all the order-keeping matchings of equal
(normalised) texts, the alignment takes one with the most matched lines, then the most pinned blocks
matched (the blocks an annotator clicked into the gold: the copy they chose), then the fewest runs (a run
is a stretch of matched lines whose blocks follow one another on the page, with only unmatched gold
lines between them), so a repeated text ("Accessibility" in a sidebar and as a card's title, a heading in
the breadcrumb and as the h1, two "Read more" links) is matched to the copy that sits among the gold's
other lines. Where that still leaves a choice, later copies win.

static/js/align.js computes the same alignment in the annotate view (tests/test_visible_text.py checks
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
    n, m = len(lines), len(blocks)
    if not n or not m:
        return [NONE] * n
    # Scores: a match is worth more than any number of pins, a pin more than any number of runs cost.
    pin = n + 2
    weight = pin * (n + 2)
    low = -(10**15)
    width = m + 1
    # best[i][j]: gold[:i] against blocks[:j], any way; ends[i][j]: the last match is line (<i) on block j-1,
    # the lines after it unmatched; here[i][j]: line i-1 on block j-1.
    best = [0] * ((n + 1) * width)
    ends = [low] * ((n + 1) * width)
    here = [low] * ((n + 1) * width)
    for i in range(1, n + 1):
        line = lines[i - 1]
        row, up = i * width, (i - 1) * width
        for j in range(1, m + 1):
            if blocks[j - 1] == line:
                gain = weight + pin if pinned[j - 1] else weight
                here[row + j] = gain + max(ends[up + j - 1], best[up + j - 1] - 1)
            ends[row + j] = max(here[row + j], ends[up + j])
            best[row + j] = max(here[row + j], best[up + j], best[row + j - 1])
    result = [NONE] * n
    i, j, state = n, m, "best"
    while i > 0 and j > 0:
        at, up = i * width + j, (i - 1) * width + j
        if state == "best":
            if here[at] == best[at] and here[at] > low:
                state = "here"
            elif best[up] == best[at]:
                i -= 1
            else:
                j -= 1
        elif state == "ends":
            if here[at] >= ends[up] and here[at] > low:
                state = "here"
            else:
                i -= 1
        else:
            result[i - 1] = j - 1
            before = (i - 1) * width + j - 1
            state = "ends" if ends[before] >= best[before] - 1 and ends[before] > low else "best"
            i, j = i - 1, j - 1
    return result
