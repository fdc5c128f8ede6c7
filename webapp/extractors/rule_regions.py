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

from webapp.corpus.visible_text import BLOCK_TAGS, CELL_TAGS, LINE_BREAK_TAGS, is_invisible, normalise_line, parse_html
from webapp.scoring.text import words

Span = tuple[int, int]


def line_key(line: str) -> str:
    """A line compared as its lower-cased word runs joined by spaces ("" when it has no word)."""
    return " ".join(words(line.lower()))


class PageLines:
    """A page's block lines (as visible_text.block_lines gives them) and, for each visible block element,
    the span of lines it holds."""

    def __init__(self, root: HtmlElement) -> None:
        self.lines: list[str] = []
        self.spans: dict[etree._Element, Span] = {}
        self._walk(root)

    def _walk(self, root: HtmlElement) -> None:
        current: list[str] = []
        starts: dict[etree._Element, int] = {}

        def end_line() -> None:
            line = normalise_line("".join(current))
            if line:
                self.lines.append(line)
            current.clear()

        walker = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
        for event, element in walker:
            if event in ("comment", "pi"):
                current.append(element.tail or "")
                continue
            tag = element.tag
            if event == "start":
                if is_invisible(element):
                    walker.skip_subtree()
                    continue
                if tag in BLOCK_TAGS or tag in LINE_BREAK_TAGS:
                    end_line()
                elif tag in CELL_TAGS:
                    current.append(" ")
                if tag in BLOCK_TAGS:
                    starts[element] = len(self.lines)
                current.append(element.text or "")
            else:
                if tag in BLOCK_TAGS:
                    end_line()
                    if element in starts:
                        self.spans[element] = (starts.pop(element), len(self.lines))
                if element is not root:
                    current.append(element.tail or "")
        end_line()

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
