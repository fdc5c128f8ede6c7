"""Where a site rule's selectors fall in a page: the page's block lines (corpus/visible_text) and the
lines each block element spans, so that a rule can say which lines of the page it keeps.

A rule that refines an extractor (site_rules.py, a rule with a `base`) keeps the base's text less the
lines that fall only where the rule drops: outside the body selector's elements, or inside a drop
selector's. Lines are compared by their lower-cased word runs (`line_key`), so an extractor's line
matches the page's block line whatever its whitespace or punctuation.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree
from lxml.html import HtmlElement

from webapp.corpus.visible_text import parse_html, walk_blocks
from webapp.scoring.text import words

Span = tuple[int, int]


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


def refine(text: str, page: PageLines, dropped: set[int]) -> str:
    """The text's lines less those the page shows only among the dropped lines: a line is kept when the
    page has it somewhere kept, or nowhere (the extractor's own wording is left alone)."""
    gone = {line_key(page.lines[i]) for i in dropped}
    kept = {line_key(line) for i, line in enumerate(page.lines) if i not in dropped}
    return "\n".join(line for line in text.split("\n") if (key := line_key(line)) not in gone or key in kept)


def outermost(elements: list[etree._Element]) -> list[etree._Element]:
    """The elements not nested inside another one of them, in document order."""
    chosen = set(elements)
    return [e for e in elements if not any(a in chosen for a in e.iterancestors())]


def refined(html: str, body: str | None, drops: Iterable[str], text: str) -> str | None:
    """The extractor's text refined by a rule (body selector or None, drop selectors), None when the body
    selector matches nothing on this page. A drop never removes a body element (one that holds it is
    left alone), as a rule's drops apply only inside its body when it has no base."""
    root = parse_html(html)
    bodies = outermost(root.cssselect(body)) if body else None
    if bodies == []:
        return None
    page = PageLines(root)
    holding = {a for body in bodies or () for a in (body, *body.iterancestors())}
    matches = (e for selector in drops for e in root.cssselect(selector) if e not in holding)
    return refine(text, page, page.dropped(bodies, matches))
