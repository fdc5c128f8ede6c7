"""Visible text, one block per line: Goldtext's one definition of what a block is and what its text is.

The corpus readers use it to read gold text from gold HTML (Readability's expected.html), the
lxml-based extractors to turn the part of a page they keep into text, and the annotate view's page
script (static/js/blocks.js) to find the blocks an annotator clicks: it gets the tag sets and the
hidden-style rule from `browser_rules()`, rendered into the page as JSON, and walks the DOM the way
`block_lines` walks lxml's tree.

A block element (p, div, li, h1-h6, a table's row, ...) or a `<br>` ends the current line; a cell
(td, th) is a space within its row's line; inline elements run together as a browser would render
them; whitespace collapses to single spaces. Invisible content (script, style, noscript, template,
head, svg, iframe, ..., and elements that are `hidden` or styled `display:none` or
`visibility:hidden` in their own style attribute) and comments give no text, but the text after
them does. Only the markup counts: what a stylesheet hides or shows is left to the browser.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.html
from lxml import etree

BLOCK_TAGS = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html "
    "legend li main menu nav ol p pre section summary table tbody tfoot thead tr ul".split()
)
CELL_TAGS = frozenset({"td", "th"})
LINE_BREAK_TAGS = frozenset({"br"})
INVISIBLE_TAGS = frozenset(
    "script style noscript template head svg math iframe object embed canvas".split()
)
HIDDEN_ATTRIBUTE = "hidden"
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
XML_DECLARATION = re.compile(r"^\ufeff?\s*<\?xml[^>]*\?>")


def browser_rules() -> dict[str, Any]:
    """The definition as JSON-ready data for static/js/blocks.js: the same sets, the same rule."""
    return {
        "blocks": sorted(BLOCK_TAGS),
        "cells": sorted(CELL_TAGS),
        "lineBreaks": sorted(LINE_BREAK_TAGS),
        "invisible": sorted(INVISIBLE_TAGS),
        "hiddenAttribute": HIDDEN_ATTRIBUTE,
        "hiddenStyle": HIDDEN_STYLE.pattern,
    }


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
        or element.get(HIDDEN_ATTRIBUTE) is not None
        or bool(HIDDEN_STYLE.search(element.get("style") or ""))
    )


# The control characters that are not whitespace (C0 but tabs and line ends, DEL, C1 but U+0085): nothing on
# screen. Extractors drop them (trafilatura keeps only printable characters and spaces), and a page decoded
# twice shows them (an em dash read as "â\x80\x94"): a line keeps none, or a block never matched its line.
CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")


def normalise_line(text: str) -> str:
    """Text as a block's line: control characters dropped, whitespace runs collapsed to one space, none at
    either end."""
    return " ".join(CONTROLS.sub("", text).split())


def block_lines(root: etree._Element) -> list[str]:
    """The visible text under `root`, one string per block, empty blocks left out."""
    return walk_blocks(root)[0]


def walk_blocks(root: etree._Element) -> tuple[list[str], dict[etree._Element, tuple[int, int]]]:
    """`block_lines` of `root`, and for each visible block element the span (start, end) of those lines
    it holds: the one walk that defines a page's visible lines."""
    lines: list[str] = []
    spans: dict[etree._Element, tuple[int, int]] = {}
    starts: dict[etree._Element, int] = {}
    current: list[str] = []

    def end_line() -> None:
        line = normalise_line("".join(current))
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
            if tag in BLOCK_TAGS or tag in LINE_BREAK_TAGS:
                end_line()
            elif tag in CELL_TAGS:
                current.append(" ")
            if tag in BLOCK_TAGS:
                starts[element] = len(lines)
            current.append(element.text or "")
        else:
            if tag in BLOCK_TAGS:
                end_line()
                if element in starts:
                    spans[element] = (starts.pop(element), len(lines))
            if element is not root:
                current.append(element.tail or "")
    end_line()
    return lines, spans


def block_text(root: etree._Element) -> str:
    """`block_lines` joined with newlines."""
    return "\n".join(block_lines(root))


def visible_text(html: str) -> str:
    """The visible text of a page or fragment, one block per line ("" when it shows none)."""
    return block_text(parse_html(html))
