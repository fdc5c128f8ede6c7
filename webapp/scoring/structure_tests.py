"""Structure tests: pass/fail facts generated from a structured (Markdown) gold, each checked against a
candidate's Markdown, as olmOCR-bench scores documents with unit tests rather than one edit distance (so that no
Markdown dialect is penalised: a fact holds or not whatever the spelling).

From the gold's structure (``markdown_structure``), in reading order:

- ``heading``: one test per heading: the candidate has a heading of the same level with the same text;
- ``list``: one test per list with a non-empty item: the candidate has one list whose items include the gold
  list's non-empty items in the same order (other items may come between; bullets and numbers alike);
- ``table``: one test per non-empty table cell: a table of the candidate holds the same text at the same row
  and column;
- ``code``: one test per code block with a non-blank line: one code block of the candidate holds the block's
  lines verbatim (indentation kept, trailing spaces and blank lines aside) and in the same order;
- ``order``: one test per two headings in a row (of different texts): in the candidate's text, the second
  comes after the first's first occurrence (the sections in the gold's reading order; their levels aside).

Texts are compared as ``markdown_structure.clean`` leaves them (case and punctuation kept).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .markdown_structure import Structure, parse

KINDS = ("heading", "list", "table", "code", "order")


@dataclass(frozen=True)
class StructureTest:
    """One fact of the gold. ``expected`` holds what the fact needs: a heading's ``level`` and ``text``, a
    list's ``items``, a cell's ``row``, ``column`` and ``text``, a code block's ``lines``, or the headings
    ``before`` and ``after``."""

    id: str
    kind: str
    description: str
    expected: dict[str, Any]

    def passes(self, candidate: Structure) -> bool:
        return CHECKS[self.kind](self.expected, candidate)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _quoted(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def generate(gold: str | Structure) -> list[StructureTest]:
    """The tests of a gold (its Markdown, or its parsed structure), kind by kind, each kind in reading order."""
    structure = parse(gold) if isinstance(gold, str) else gold
    tests: list[StructureTest] = []
    numbers: Counter[str] = Counter()

    def add(kind: str, description: str, **expected: Any) -> None:
        numbers[kind] += 1
        tests.append(StructureTest(f"{kind}-{numbers[kind]}", kind, description, expected))

    for level, text in structure.headings:
        add("heading", f"heading level {level} {_quoted(text)}", level=level, text=text)
    for items in structure.lists:
        kept = [item for item in items if item]
        if kept:
            add("list", f"list of {len(kept)} items from {_quoted(kept[0])}", items=kept)
    for t, cells in enumerate(structure.tables, start=1):
        for (row, column), text in cells.items():
            if text:
                add("table", f"table {t}, row {row}, column {column}: {_quoted(text)}", row=row, column=column,
                    text=text)
    for lines in structure.code:
        if lines:
            add("code", f"code block of {len(lines)} lines from {_quoted(lines[0].strip())}", lines=list(lines))
    for (_, before), (_, after) in zip(structure.headings, structure.headings[1:]):
        if before and after and before != after:
            add("order", f"{_quoted(after)} after {_quoted(before)}", before=before, after=after)
    return tests


def _in_order(wanted: Sequence[str], found: Iterable[str]) -> bool:
    """Whether ``wanted`` is a subsequence of ``found``."""
    remaining = iter(found)
    return all(any(item == have for have in remaining) for item in wanted)


def _heading(expected: dict[str, Any], candidate: Structure) -> bool:
    return (expected["level"], expected["text"]) in candidate.headings


def _list(expected: dict[str, Any], candidate: Structure) -> bool:
    return any(_in_order(expected["items"], items) for items in candidate.lists)


def _table(expected: dict[str, Any], candidate: Structure) -> bool:
    place = (expected["row"], expected["column"])
    return any(cells.get(place) == expected["text"] for cells in candidate.tables)


def _code(expected: dict[str, Any], candidate: Structure) -> bool:
    return any(_in_order(expected["lines"], lines) for lines in candidate.code)


def _order(expected: dict[str, Any], candidate: Structure) -> bool:
    text = candidate.text
    first = text.find(expected["before"])
    return first >= 0 and text.find(expected["after"], first + len(expected["before"])) >= 0


CHECKS = {"heading": _heading, "list": _list, "table": _table, "code": _code, "order": _order}


def run(tests: Sequence[StructureTest], candidate: str | None) -> list[tuple[StructureTest, bool]]:
    """Each test with whether the candidate's Markdown passes it (no candidate: every test fails)."""
    if candidate is None:
        return [(test, False) for test in tests]
    structure = parse(candidate)
    return [(test, test.passes(structure)) for test in tests]
