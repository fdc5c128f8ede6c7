"""Where a site rule's selectors fall in a page: the page's block lines (corpus/visible_text) and the
lines each block element spans, so that a rule can say which lines of the page it keeps.

A rule that refines an extractor (site_rules.py, a rule with a `base`) keeps the base's text less the
lines that fall only where the rule drops: outside the body selector's elements, or inside a drop
selector's. Lines are compared by their lower-cased word runs (`line_key`), so an extractor's line
matches the page's block line whatever its whitespace or punctuation. The base's Markdown is refined the
same way, each of its lines compared by the words of its text (a heading, a list item, a table row, a line of
code each being one line); its lines of no words (blank lines, fences) are kept, a table's delimiter row
where its header row is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree
from lxml.html import HtmlElement

from webapp.corpus.visible_text import parse_html, walk_blocks
from webapp.extractors.kept_markdown import closes, fence_of, tidy
from webapp.scoring.markdown_text import plain_text
from webapp.scoring.text import words

Span = tuple[int, int]
DELIMITER_ROW = re.compile(r"^\s*\|\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
"""The row under a GFM table's header row (`| --- | :-: |`)."""


def line_key(line: str) -> str:
    """A line compared as its lower-cased word runs joined by spaces ("" when it has no word)."""
    return " ".join(words(line.lower()))


class PageLines:
    """A page's block lines and, for each visible block element, the span of lines it holds
    (visible_text.walk_blocks)."""

    def __init__(self, root: HtmlElement) -> None:
        self.lines, self.spans = walk_blocks(root)

    def covered(self, elements: Iterable[etree._Element]) -> set[int]:
        """The indexes of the lines inside any of the elements (block elements only)."""
        found: set[int] = set()
        for element in elements:
            start, end = self.spans.get(element, (0, 0))
            found.update(range(start, end))
        return found

    def dropped(self, bodies: list[etree._Element] | None, drops: Iterable[etree._Element]) -> set[int]:
        """The indexes of the lines a rule leaves out: outside every body element (when the rule has a
        body), or inside a drop element."""
        gone = self.covered(drops)
        if bodies is not None:
            gone |= set(range(len(self.lines))) - self.covered(bodies)
        return gone


class Refinement:
    """A rule's verdict on a page's lines: an extractor's line is left out when the page shows it only among the
    lines the rule drops; it is kept when the page has it somewhere kept, or nowhere (the extractor's own
    wording is left alone)."""

    def __init__(self, page: PageLines, dropped: set[int]) -> None:
        self.gone = {line_key(page.lines[i]) for i in dropped}
        self.kept = {line_key(line) for i, line in enumerate(page.lines) if i not in dropped}

    def keeps(self, key: str) -> bool:
        return key not in self.gone or key in self.kept

    def text(self, text: str) -> str:
        """The text's lines the rule keeps."""
        return "\n".join(line for line in text.split("\n") if self.keeps(line_key(line)))

    def markdown(self, markdown: str) -> str:
        """The Markdown's lines the rule keeps, each read as its text, a fenced code block as one line (the page's
        `pre` is one); a line of no words is kept, but a table's delimiter row only under its header row."""
        out: list[str] = []
        for unit in markdown_units(markdown):
            if key := line_key(plain_text(unit)):
                kept = self.keeps(key)
            else:
                kept = not DELIMITER_ROW.match(unit) or bool(out) and out[-1].lstrip().startswith("|")
            if kept:
                out.append(unit)
        return tidy("\n".join(out))


def markdown_units(markdown: str) -> list[str]:
    """The Markdown's lines, a fenced code block (fences and all) joined into one."""
    units: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        if fence is not None:
            units[-1] += "\n" + line
            if closes(fence, line):
                fence = None
            continue
        fence = fence_of(line)
        units.append(line)
    return units


def outermost(elements: list[etree._Element]) -> list[etree._Element]:
    """The elements not nested inside another one of them, in document order."""
    chosen = set(elements)
    return [e for e in elements if not any(a in chosen for a in e.iterancestors())]


def refinement(html: str, body: str | None, drops: Iterable[str]) -> Refinement | None:
    """A rule's refinement of the page (body selector or None, drop selectors), None when the body selector
    matches nothing on this page. A drop never removes a body element (one that holds it is left alone), as
    a rule's drops apply only inside its body when it has no base."""
    root = parse_html(html)
    bodies = outermost(root.cssselect(body)) if body else None
    if bodies == []:
        return None
    page = PageLines(root)
    holding = {a for body in bodies or () for a in (body, *body.iterancestors())}
    matches = (e for selector in drops for e in root.cssselect(selector) if e not in holding)
    return Refinement(page, page.dropped(bodies, matches))


def refined(html: str, body: str | None, drops: Iterable[str], text: str) -> str | None:
    """The extractor's text refined by a rule, None when the body selector matches nothing on this page."""
    found = refinement(html, body, drops)
    return None if found is None else found.text(text)
