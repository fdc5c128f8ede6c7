"""Visible text, one block per line: the one implementation the lxml-based extractors share.

A block element (p, div, li, h1-h6, td's row, ...) or a `<br>` ends the current line; inline
elements run together as a browser would render them; whitespace collapses to single spaces.
Invisible content (script, style, noscript, template, head, svg, iframe, and elements that are
`hidden` or styled `display:none`) and comments give no text, but the text after them does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import lxml.html
from lxml import etree

BLOCK_TAGS = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html "
    "legend li main menu nav ol p pre section summary table tbody tfoot thead tr ul".split()
)
CELL_TAGS = frozenset({"td", "th"})
INVISIBLE_TAGS = frozenset(
    "script style noscript template head svg math iframe object embed canvas".split()
)
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
XML_DECLARATION = re.compile(r"^\ufeff?\s*<\?xml[^>]*\?>")

# Part of the version of every extractor whose output goes through block_lines:
# bump it when block_lines' output changes, so that stored extractions are redone.
BLOCKS_VERSION = "goldtext-blocks 1"


def parse_html(html: str) -> lxml.html.HtmlElement:
    """Parse a page into its `<html>` element; an empty page gives an empty `<html>`.

    A leading XML declaration is dropped: lxml refuses text that declares an encoding.
    """
    html = XML_DECLARATION.sub("", html, count=1)
    try:
        return lxml.html.document_fromstring(html)
    except etree.ParserError:
        return lxml.html.Element("html")


def is_invisible(element: etree._Element) -> bool:
    """True for elements a reader never sees on screen."""
    return (
        element.tag in INVISIBLE_TAGS
        or element.get("hidden") is not None
        or bool(HIDDEN_STYLE.search(element.get("style") or ""))
    )


def block_lines(root: etree._Element) -> list[str]:
    """The visible text under `root`, one string per block, empty blocks left out."""
    lines: list[str] = []
    current: list[str] = []

    def end_line() -> None:
        line = " ".join("".join(current).split())
        if line:
            lines.append(line)
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
            if tag in BLOCK_TAGS or tag == "br":
                end_line()
            elif tag in CELL_TAGS:
                current.append(" ")
            current.append(element.text or "")
        else:
            if tag in BLOCK_TAGS:
                end_line()
            if element is not root:
                current.append(element.tail or "")
    end_line()
    return lines


def join_lines(lines: Iterable[str]) -> str:
    """One paragraph per line: each line stripped, blank lines dropped."""
    return "\n".join(filter(None, (line.strip() for line in lines)))


def block_text(root: etree._Element) -> str:
    """`block_lines` joined with newlines."""
    return "\n".join(block_lines(root))
