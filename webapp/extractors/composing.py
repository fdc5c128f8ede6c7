"""How a composition makes one page's output from its parts' outputs on that page: pure functions, the same for
the app (which reads the parts' stored extractions, steps/composed_extractions.py) and for an exported crawl
pipeline (which runs the parts, crawl/step.py), so that both give the same text.

- **cascade(A, B, …)**: the first part whose output the accept guard accepted (extractors/guard.py: the
  verdict stored with the part's extraction, or given by the step with the same thresholds), else the last part.
- **route(by=type|site)**: the part the route's table names for the page's key (its page type or its site's
  host), or the part of the key "*" (every other page).
- **union(A, B, …)**: the parts' lines, a line that both give once, in page order. Lines are compared as a
  block's line is written (corpus/visible_text.py `normalise_line`: whitespace runs collapsed, no control
  characters); empty lines are dropped. A line that a part gives n times (a repeated paragraph) is in the union
  as many times as the part that gives it most often. *Page order*: the k-th time of a line is placed at the
  character offset of its k-th occurrence in the page's block text (`visible_text`, one block per line); a line
  not found there takes the place of the line before it in its own part's text (the start of the page for the
  first), after the lines found at that place. Equal places keep the parts' order, then each part's own order.
  The Markdown is the same union of the parts' top-level Markdown blocks (a paragraph, a heading, a whole
  list, a table, a code block), each compared by its plain text (scoring/markdown_text.py, its lines written
  as above) and placed by the first line of it.

A part that failed (its error) has an empty output. A composition's metadata is its chosen part's (a union's:
its first part's that has any) with the parts it read under `composed_of`; its time is the time of the parts it
read (a cascade's: up to the one it took).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..corpus.visible_text import normalise_line, visible_text
from ..scoring.markdown_text import parser, plain_text

CASCADE = "cascade"
ROUTE = "route"
UNION = "union"
KINDS = (CASCADE, ROUTE, UNION)
BY_TYPE = "type"
BY_SITE = "site"
ROUTE_BY = (BY_TYPE, BY_SITE)
COMPOSED_OF = "composed_of"
EVERY_OTHER = "*"
"""A route table's key for every page whose own key it does not list."""


@dataclass(frozen=True)
class PartOutput:
    """One part's output on a page, as its stored extraction (or the step's call) gives it."""

    name: str
    text: str
    markdown: str
    accepted: bool
    error: str | None = None
    duration_ms: float = 0.0
    incomplete: bool = False
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Composed:
    """A composition's output on a page: its text, Markdown and metadata, the parts it read (`used`), its error
    (its chosen part's; a union's: the first, when every part failed), time and whether a part was incomplete."""

    text: str
    markdown: str
    used: tuple[str, ...]
    error: str | None
    duration_ms: float
    incomplete: bool
    metadata: Mapping[str, Any]


def chosen(output: PartOutput, used: Sequence[PartOutput]) -> Composed:
    """The composition that takes one part's output whole, having read `used`."""
    return Composed(output.text if not output.error else "", output.markdown if not output.error else "",
                    tuple(part.name for part in used), output.error, sum(part.duration_ms for part in used),
                    any(part.incomplete for part in used),
                    {**output.metadata, COMPOSED_OF: [part.name for part in used]})


def cascade(outputs: Sequence[PartOutput]) -> Composed:
    """The first accepted part's output, else the last part's."""
    for number, output in enumerate(outputs):
        if output.accepted and not output.error:
            return chosen(output, outputs[: number + 1])
    return chosen(outputs[-1], outputs)


def route(outputs: Mapping[str, PartOutput], table: Mapping[str, str], key: str) -> Composed:
    """The output of the part the table names for the key (else for EVERY_OTHER)."""
    output = outputs[table.get(key, table[EVERY_OTHER])]
    return chosen(output, [output])


def union(outputs: Sequence[PartOutput], html: str) -> Composed:
    """Every distinct line (and Markdown block) of the parts, once, in page order (see the module's docstring)."""
    page = visible_text(html)
    answered = [output for output in outputs if not output.error]
    text = "\n".join(in_page_order([output.text.splitlines() for output in answered], page, normalise_line))
    markdown = "\n\n".join(in_page_order([markdown_blocks(output.markdown) for output in answered], page,
                                         block_key))
    errors = [output.error for output in outputs if output.error]
    metadata = next((output.metadata for output in answered if output.metadata), {})
    return Composed(text, markdown, tuple(output.name for output in outputs),
                    errors[0] if len(errors) == len(outputs) else None,
                    sum(output.duration_ms for output in outputs), any(output.incomplete for output in outputs),
                    {**metadata, COMPOSED_OF: [output.name for output in outputs]})


def in_page_order(sources: Sequence[Sequence[str]], page: str, key: Callable[[str], str]) -> list[str]:
    """The items of the sources as a union of multisets (compared by `key`, an empty key dropped): an item a
    source holds n times is there max(n) times over the sources. Each is placed by the first line of its key in
    the page text: its k-th time at the key's k-th place there, else after the item before it in its source."""
    placed: dict[tuple[str, int], tuple[tuple[int, int, int, int], str]] = {}
    places: dict[str, list[int]] = {}
    for number, items in enumerate(sources):
        place = -1
        seen: dict[str, int] = {}
        for index, item in enumerate(items):
            compared = key(item)
            if not compared:
                continue
            nth = seen.get(compared, 0)
            seen[compared] = nth + 1
            found = nth_place(page, compared.split("\n", 1)[0], nth, places)
            order = (found, 0, number, index) if found >= 0 else (place, 1, number, index)
            place = found if found >= 0 else place
            if (compared, nth) not in placed or order < placed[compared, nth][0]:
                placed[compared, nth] = (order, item)
    return [item for _, item in sorted(placed.values(), key=lambda entry: entry[0])]


def nth_place(page: str, probe: str, nth: int, places: dict[str, list[int]]) -> int:
    """The offset of the probe's nth (from 0) occurrence in the page, or -1; `places` remembers those found."""
    found = places.setdefault(probe, [])
    while len(found) <= nth:
        start = found[-1] + 1 if found else 0
        offset = page.find(probe, start)
        if offset < 0:
            return -1
        found.append(offset)
    return found[nth]


def block_key(block: str) -> str:
    """A Markdown block as the union compares it: its plain text, each line as a block's line is written."""
    return "\n".join(line for line in map(normalise_line, plain_text(block).splitlines()) if line)


def markdown_blocks(markdown: str) -> list[str]:
    """The top-level blocks of Markdown (a paragraph, a heading, a whole list or table, a code block), each as
    its source lines."""
    lines = markdown.splitlines()
    return ["\n".join(lines[token.map[0]:token.map[1]]).strip()
            for token in parser().parse(markdown) if token.level == 0 and token.map]
