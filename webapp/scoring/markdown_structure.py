"""The structure of a Markdown text, as the structure tests read it: its headings with their levels, its lists
with their items, its tables as cells at (row, column), its code blocks' lines and its plain text.

Parsed by markdown-it-py (CommonMark with GFM tables; raw HTML kept), so that every spelling of the same
structure reads alike: ``#`` and underlined headings, ``-``, ``*`` and ``1.`` lists, fenced and indented code.
A table written as HTML (a raw HTML block holding ``<table>``, as a gold keeps a table whose cells span rows or
columns) is read by lxml, each cell placed at its row and column with the spans of the cells before it.
Texts are the inline text without markup (a link's text, an image's alternative text, code spans' content),
Unicode NFC, whitespace runs made one space and stripped. A list item's text is its own paragraphs', not its
nested lists'. Rows and columns count from 1, the header row being row 1. Code lines keep their indentation;
trailing spaces and blank lines are dropped.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Any

Cells = dict[tuple[int, int], str]


@dataclass
class Structure:
    """What a Markdown text holds, in reading order."""

    headings: list[tuple[int, str]] = field(default_factory=list)
    lists: list[tuple[str, ...]] = field(default_factory=list)
    tables: list[Cells] = field(default_factory=list)
    code: list[tuple[str, ...]] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    """Every block's text in order (headings, paragraphs, items, cells, code), for the reading order."""

    @property
    def text(self) -> str:
        return "\n".join(self.blocks)


def clean(text: str) -> str:
    """NFC, whitespace runs made one space, stripped: how every text of a structure is compared."""
    return " ".join(unicodedata.normalize("NFC", text).split())


@cache
def _parser() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table")


def inline_text(token: Any) -> str:
    """An inline token's text without markup."""
    pieces = []
    for child in token.children or ():
        if child.type in ("text", "code_inline", "image"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(" ")
    return clean("".join(pieces))


def code_lines(code: str) -> tuple[str, ...]:
    """A code block's non-blank lines, trailing whitespace removed, indentation kept."""
    return tuple(line.rstrip() for line in code.split("\n") if line.strip())


def parse(markdown: str) -> Structure:
    """The structure of a Markdown text."""
    found = Structure()
    lists: list[list[str]] = []  # every list's items, in the order the lists open
    open_lists: list[int] = []  # the open lists' indexes, innermost last
    table: Cells | None = None
    row = column = 0
    heading = 0
    for token in _parser().parse(markdown):
        kind = token.type
        if kind == "heading_open":
            heading = int(token.tag[1])
        elif kind in ("bullet_list_open", "ordered_list_open"):
            open_lists.append(len(lists))
            lists.append([])
        elif kind == "list_item_open":
            lists[open_lists[-1]].append("")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            open_lists.pop()
        elif kind == "table_open":
            table, row = {}, 0
        elif kind == "tr_open":
            row, column = row + 1, 0
        elif kind in ("th_open", "td_open"):
            column += 1
        elif kind == "table_close" and table is not None:
            found.tables.append(table)
            table = None
        elif kind in ("fence", "code_block"):
            found.code.append(code_lines(token.content))
            found.blocks.append(clean(token.content))
        elif kind == "html_block" and "<table" in token.content.lower():
            for cells in html_tables(token.content):
                found.tables.append(cells)
                found.blocks.extend(cells.values())
        elif kind == "inline":
            text = inline_text(token)
            found.blocks.append(text)
            if heading:
                found.headings.append((heading, text))
                heading = 0
            elif table is not None:
                table[(row, column)] = text
            elif open_lists:
                items = lists[open_lists[-1]]
                items[-1] = clean(f"{items[-1]} {text}")
    found.lists = [tuple(items) for items in lists]
    return found


def html_tables(html: str) -> list[Cells]:
    """The cells of each table of an HTML fragment (nested tables are tables of their own), placed on the
    grid that row and column spans make."""
    import lxml.html

    tables = []
    for fragment in lxml.html.fragments_fromstring(html):
        if not isinstance(fragment, str):  # leading text comes as a string
            tables += [_grid(table) for table in fragment.iter("table")]
    return tables


def _grid(table: Any) -> Cells:
    cells: Cells = {}
    taken: set[tuple[int, int]] = set()
    rows = [row for row in table.iter("tr") if _owner(row) is table]
    for r, row in enumerate(rows, start=1):
        column = 0
        for cell in row:
            if cell.tag not in ("td", "th"):
                continue
            column += 1
            while (r, column) in taken:
                column += 1
            cells[(r, column)] = clean(cell.text_content())
            for dr in range(_span(cell, "rowspan")):
                for dc in range(_span(cell, "colspan")):
                    taken.add((r + dr, column + dc))
            column += _span(cell, "colspan") - 1
    return cells


def _owner(row: Any) -> Any:
    return next(row.iterancestors("table"), None)


def _span(cell: Any, name: str) -> int:
    try:
        return max(1, int(cell.get(name, "1")))
    except ValueError:
        return 1
