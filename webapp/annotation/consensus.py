"""The adjudication editor's starting point, leaning on no annotator: the lines every annotator has, in
their order, and the disputed lines (those some annotators have and others not), each with its origin
(who has it) and its place among the agreed ones; the page type when all agree, else none (the reviewer
chooses) with each annotator's type.

Lines are matched in order, never by first text match: each text is merged into one sequence with the
monotone alignment of webapp/corpus/alignment.py (a line matched to one already in the sequence is that
line; a new one comes right after the line before it in its own text), as static/js/adjudicate.js merges
them for the block buttons. Lines are matched by content, not form (scoring/content_tokens.py: list markers,
spacing around punctuation and case left out), and a matched line reads as its shortest form, whoever wrote
it. A line some annotators lack whose content the others have in another form (split into several lines,
joined with its neighbour) differs in form only: it is listed with the disputed lines, marked so, and not
counted as disputed.

Annotations given as Markdown are merged as Markdown: their lines are the units the annotate and
adjudicate views take (static/js/markdown_lines.js `markdownUnits`: a fenced block whole, a table kept as
HTML whole, a table's header row with its delimiter row, every other non-blank line), matched by the
content of their plain text; a matched line keeps the Markdown all annotators wrote when they wrote it
alike (the structure they agree on: a heading's level, a list item, a table row), else its shortest form;
the agreed Markdown keeps a blank line where its writer had one (a table stays apart from a paragraph).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..corpus.alignment import NONE, align
from ..corpus.visible_text import normalise_line
from ..scoring.content_tokens import contains, content_key, line_tokens, tokens
from ..scoring.markdown_text import plain_text


@dataclass(frozen=True)
class Said:
    """One annotator's finished annotation: who, the text, the page type, and its Markdown (None: merged as
    plain lines)."""

    author: str
    text: str
    page_type: str
    markdown: str | None = None


@dataclass
class Line:
    """A line of the merged sequence: its text (normalised) and the annotators who have it, in the order
    they were given, each with the line's index among that annotator's non-blank lines."""

    text: str
    at: dict[str, int] = field(default_factory=dict)
    form_only: bool = False  # not every annotator has it, but the others have its content in another form
    plain: str = ""  # its plain text (as the page's block holds it); the text itself for a plain line
    apart: bool = False  # a blank line before it in the Markdown it came from
    forms: set[str] = field(default_factory=set)  # every annotator's form of it

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
        """Each line not every annotator has, with its origin and its place: `after`, how many agreed lines
        precede it (0: before the first); `line`, its index among the first origin annotator's non-blank
        lines; `form_only`, whether the others have its content in another form."""
        out: list[dict[str, object]] = []
        after = 0
        for line in self.lines:
            if len(line.origin) == len(self.annotators):
                after += 1
            else:
                out.append({"text": line.text, "origin": line.origin, "after": after,
                            "line": line.at[line.origin[0]], "form_only": line.form_only})
        return out

    @property
    def disputed_count(self) -> int:
        """How many lines are disputed for their content (those differing in form only left out)."""
        return sum(1 for line in self.disputed if not line["form_only"])

    @property
    def text(self) -> str:
        """The agreed lines: as Markdown when the annotations were (a blank line kept where its writer had
        one), else one a line."""
        out: list[str] = []
        for line in self.lines:
            if len(line.origin) == len(self.annotators):
                out.extend(["", line.text] if line.apart and out else [line.text])
        return "\n".join(out)


def consensus(annotations: Sequence[Said]) -> Consensus:
    """The merged lines of `annotations` (each annotator once; blank lines left out)."""
    sequence: list[Line] = []
    for said in annotations:
        if said.markdown is None:
            texts = (normalise_line(line) for line in said.text.split("\n"))
            lines = [Line(text, plain=text) for text in texts if text]
        else:
            lines = markdown_lines(said.markdown)
        sequence = _merge(sequence, lines, said.author)
    names = [said.author for said in annotations]
    for at, line in enumerate(sequence):
        others = [name for name in names if name not in line.at]
        line.form_only = bool(others) and all(
            contains(tokens("\n".join(_facing(sequence, at, name))), line_tokens(line.plain)) for name in others)
    page_types = {said.author: said.page_type for said in annotations}
    agreed_page_types = set(page_types.values())
    return Consensus(annotators=[said.author for said in annotations], lines=sequence,
                     page_type=agreed_page_types.pop() if len(agreed_page_types) == 1 else None, page_types=page_types)


def _facing(sequence: list[Line], at: int, other: str) -> list[str]:
    """The lines `other` has in the gap around sequence[at]: between the nearest lines before and after it
    that `other` and the line's first annotator both have."""
    owner = sequence[at].origin[0]
    shared = [k for k, line in enumerate(sequence) if owner in line.at and other in line.at]
    start = max((k for k in shared if k < at), default=-1)
    end = min((k for k in shared if k > at), default=len(sequence))
    return [line.plain for line in sequence[start + 1:end] if other in line.at]


def _key(text: str) -> str:
    """What lines are matched by: their content, or the text itself when it has none (a rule)."""
    return content_key(text) or text


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_HTML_LINE = re.compile(r"^\s*</?(?:table|thead|tbody|tfoot|tr|caption)\b", re.IGNORECASE)


def markdown_lines(markdown: str) -> list[Line]:
    """The Markdown's units as lines to merge (see the module's docstring), those without text left out."""
    rows = markdown.split("\n")
    found: list[Line] = []
    at, blank = 0, False
    while at < len(rows):
        if not rows[at].strip():
            at, blank = at + 1, True
            continue
        size = _unit_size(rows, at)
        unit = "\n".join(rows[at:at + size])
        plain = normalise_line(" ".join(plain_text(unit).split("\n")))
        if plain:
            found.append(Line(unit, plain=plain, apart=blank))
        at, blank = at + size, False
    return found


def _unit_size(rows: list[str], at: int) -> int:
    """How many rows the unit starting at `at` spans (as markdown_lines.js's markdownUnits)."""
    opening = _FENCE.match(rows[at])
    if opening:
        marker = opening.group(1)
        for k in range(at + 1, len(rows)):
            closing = rows[k].strip()
            if closing.startswith(marker[0]) and len(closing) >= len(marker) and re.fullmatch(r"`+|~+", closing):
                return k - at + 1
        return len(rows) - at
    if rows[at].strip().lower().startswith("<table"):
        end = at + 1
        while end < len(rows) and _HTML_LINE.match(rows[end]):
            end += 1
        return end - at
    if _TABLE_ROW.match(rows[at]) and at + 1 < len(rows) and _DELIMITER_ROW.match(rows[at + 1]):
        return 2
    return 1


def _merge(base: list[Line], extra: list[Line], author: str) -> list[Line]:
    alignment = align([_key(line.plain) for line in extra], [_key(line.plain) for line in base])
    after: dict[int, list[Line]] = {}
    anchor = NONE
    for k, line in enumerate(extra):
        if alignment[k] != NONE:
            anchor = alignment[k]
            matched = base[anchor]
            matched.at[author] = k
            matched.forms.add(line.text)
            if len(matched.forms) > 1 and line.text != matched.text:  # written otherwise: the shortest form
                shortest = min(matched.text, line.text, key=lambda form: (len(form), form))
                if shortest == line.text:
                    matched.text, matched.plain, matched.apart = line.text, line.plain, line.apart
        else:
            line.at[author] = k
            line.forms.add(line.text)
            after.setdefault(anchor, []).append(line)
    merged = after.get(NONE, [])
    for index, line in enumerate(base):
        merged.append(line)
        merged.extend(after.get(index, []))
    return merged
