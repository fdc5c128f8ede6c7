"""The adjudication editor's starting point, leaning on no annotator: the lines every annotator has, in
their order, and the disputed lines (those some annotators have and others not), each with its origin
(who has it) and its place among the agreed ones; the page type when all agree, else none (the reviewer
chooses) with each annotator's type.

Lines are matched in order, never by first text match: each text is merged into one sequence with the
monotone alignment of webapp/corpus/alignment.py (a line matched to one already in the sequence is that
line; a new one comes right after the line before it in its own text), as static/js/adjudicate.js merges
them for the block buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..corpus.alignment import NONE, align
from ..corpus.visible_text import normalise_line


@dataclass(frozen=True)
class Said:
    """One annotator's finished annotation: who, the text, the page type."""

    author: str
    text: str
    page_type: str


@dataclass
class Line:
    """A line of the merged sequence: its text (normalised) and the annotators who have it, in the order
    they were given, each with the line's index among that annotator's non-blank lines."""

    text: str
    at: dict[str, int] = field(default_factory=dict)

    @property
    def origin(self) -> list[str]:
        return list(self.at)


@dataclass(frozen=True)
class Consensus:
    """`lines`: every annotator's lines merged in order; `agreed` (those all have) and `disputed` (the
    others) are views of it. `page_type`: the type all agree on, or None; `page_types`: each annotator's."""

    annotators: list[str]
    lines: list[Line]
    page_type: str | None
    page_types: dict[str, str]

    @property
    def agreed(self) -> list[str]:
        return [line.text for line in self.lines if len(line.origin) == len(self.annotators)]

    @property
    def disputed(self) -> list[dict[str, object]]:
        """Each disputed line with its origin and its place: `after`, how many agreed lines precede it
        (0: before the first); `line`, its index among the first origin annotator's non-blank lines."""
        out: list[dict[str, object]] = []
        after = 0
        for line in self.lines:
            if len(line.origin) == len(self.annotators):
                after += 1
            else:
                out.append({"text": line.text, "origin": line.origin, "after": after,
                            "line": line.at[line.origin[0]]})
        return out

    @property
    def text(self) -> str:
        return "\n".join(self.agreed)


def consensus(annotations: Sequence[Said]) -> Consensus:
    """The merged lines of `annotations` (each annotator once; blank lines left out)."""
    sequence: list[Line] = []
    for said in annotations:
        lines = [text for text in (normalise_line(line) for line in said.text.split("\n")) if text]
        sequence = _merge(sequence, lines, said.author)
    page_types = {said.author: said.page_type for said in annotations}
    agreed_page_types = set(page_types.values())
    return Consensus(annotators=[said.author for said in annotations], lines=sequence,
                     page_type=agreed_page_types.pop() if len(agreed_page_types) == 1 else None, page_types=page_types)


def _merge(base: list[Line], extra: list[str], author: str) -> list[Line]:
    alignment = align(extra, [line.text for line in base])
    after: dict[int, list[Line]] = {}
    anchor = NONE
    for k, text in enumerate(extra):
        if alignment[k] != NONE:
            anchor = alignment[k]
            base[anchor].at[author] = k
        else:
            after.setdefault(anchor, []).append(Line(text, {author: k}))
    merged = after.get(NONE, [])
    for index, line in enumerate(base):
        merged.append(line)
        merged.extend(after.get(index, []))
    return merged
