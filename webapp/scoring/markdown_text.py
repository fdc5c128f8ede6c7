"""The two views of one gold: its Markdown and the plain text that every text metric reads.

A gold, an annotation and an extraction are Markdown (CommonMark with GFM tables and strikethrough, and
formulas as ``$...$`` / ``$$...$$``). ``plain_text`` reads the text of that Markdown with its markup
removed, one block per line: a heading is a line, a paragraph is its lines as written (the gold editor
holds one block a line, and two lines of a paragraph stay two lines), a list item's paragraphs are lines,
a table is one line per row (its cells' texts joined by a space), a code block is one line per line of
code, a formula keeps its TeX source, and an HTML block (a table GFM cannot hold) is read as HTML, one
line per row or block element. Images are not text and are
dropped; a link is its text.

``markdown_of_text`` is the way back for text that was never Markdown (the flat gold of earlier versions,
a benchmark's plain text): each non-empty line becomes a paragraph whose characters Markdown would read as
markup are escaped, so that ``plain_text(markdown_of_text(text)) == text`` for every text whose lines
carry no leading or trailing spaces and no empty lines (what a flat gold is: ``gold_lines`` strips them).
"""

from __future__ import annotations

import re
from functools import cache

import lxml.html
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

_BLOCK_TAGS = frozenset({"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "dt", "dd"})


@cache
def parser() -> MarkdownIt:
    """The project's one Markdown dialect: CommonMark, GFM tables and strikethrough, dollar formulas."""
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
    return md


def _inline_text(token: Token) -> str:
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "code_inline", "math_inline", "math_inline_double"):
            parts.append(child.content)
        elif child.type == "softbreak":  # a line of the source is a line of the text (the gold editor's lines)
            parts.append("\n")
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "html_inline":
            continue
    return "".join(parts)


def _html_lines(html: str) -> list[str]:
    """The text of an HTML block, one line per row or block element that holds text of its own."""
    try:
        root = lxml.html.fragment_fromstring(html, create_parent="div")
    except (ValueError, lxml.etree.ParserError):
        return []
    lines: list[str] = []
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag not in _BLOCK_TAGS:
            continue
        if element.tag != "tr" and any(
            isinstance(child.tag, str) and child.tag in _BLOCK_TAGS for child in element.iterdescendants()
        ):
            continue
        if element.tag == "tr":
            text = " ".join(" ".join(cell.text_content().split()) for cell in element if isinstance(cell.tag, str))
        else:
            text = " ".join(element.text_content().split())
        if text.strip():
            lines.append(text.strip())
    return lines


def plain_text(markdown: str) -> str:
    """The plain text of Markdown: markup removed, one block per line (see the module's docstring)."""
    lines: list[str] = []
    row: list[str] | None = None
    for token in parser().parse(markdown):
        if token.type == "tr_open":
            row = []
        elif token.type == "tr_close" and row is not None:
            text = " ".join(cell for cell in row if cell)
            if text:
                lines.append(text)
            row = None
        elif token.type == "inline":
            text = _inline_text(token)
            if row is not None:
                row.append(" ".join(text.split()))
            else:
                lines.extend(line.strip() for line in text.split("\n") if line.strip())
        elif token.type in ("fence", "code_block", "math_block", "math_block_label"):
            lines.extend(line for line in token.content.splitlines() if line.strip())
        elif token.type == "html_block":
            lines.extend(_html_lines(token.content))
    return "\n".join(lines)


def stray_html(markdown: str) -> str:
    """The raw HTML of Markdown that is not a table kept as HTML (tags left in a gold: its plain text drops
    them, so the gold's checks read them here), one piece a line."""
    pieces: list[str] = []
    for token in parser().parse(markdown):
        if token.type == "html_block" and not token.content.lstrip().lower().startswith("<table"):
            pieces.append(token.content.strip())
        elif token.type == "inline":
            pieces.extend(child.content for child in token.children or () if child.type == "html_inline")
    return "\n".join(pieces)


_INLINE_MARKUP = re.compile(r"([\\`*_\[\]<>&~|$!])")
_LINE_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")


def markdown_of_line(line: str) -> str:
    """One line of plain text as a Markdown paragraph whose plain text is that line."""
    escaped = _INLINE_MARKUP.sub(r"\\\1", line)
    return _LINE_START.sub(lambda m: m.group(1) + "".join("\\" + ch if not ch.isdigit() else ch for ch in m.group(2)),
                           escaped)


def markdown_of_text(text: str) -> str:
    """Plain text, one block per line, as Markdown: one escaped paragraph per non-empty line."""
    return "\n\n".join(markdown_of_line(line) for line in text.splitlines() if line.strip())

