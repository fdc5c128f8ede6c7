"""WebMainBench's splitters: the code, formula and table parts of a Markdown text, by the regular expressions
and rules of its ``webmainbench/metrics`` (``CodeSplitter``, ``FormulaSplitter``, ``TableSplitter`` and the
table normalisation of ``TEDSMetric`` and ``TableEditMetric``), without the optional language-model step.

The text part is the whole Markdown, as ``BaseMetric._extract_from_markdown`` returns it.

- **code**: every fenced block (```` ``` ```` to the next ```` ``` ````, the first and last lines of the match
  dropped), then every indented block (two or more lines each indented by four spaces or a tab, between
  blank lines) that has no list-like line (``- ``, ``* ``, ``• ``, ``1. ``), no ``$`` before a digit and no
  million/billion/thousand, its lines' first indent removed; the parts joined by line breaks.
- **formula**: with fenced blocks and inline code removed, the contents of ``$$…$$``, ``\\[…\\]``, ``$…$`` and
  ``\\(…\\)`` (each pattern over the whole text in turn, delimiters not escaped), stripped, non-empty.
- **table**: with code removed, each outermost HTML ``<table>`` as Beautiful Soup's ``html.parser`` writes it
  back; then, in the text as given, each run of lines holding a ``|`` whose second line is a separator
  row (cells empty or ``:?-{3,}:?``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

FENCED = re.compile(r"```[\s\S]*?```")
INDENTED = re.compile(r"(?:\n\s*\n)((?:(?: {4,}|\t+)[^\n]*(?:\n|$)){2,})(?=\n\s*\n|$)", re.MULTILINE)
NOT_CODE = (re.compile(r"^[-•*]\s"), re.compile(r"^\d+\.\s"))
NOT_CODE_ANYWHERE = (re.compile(r"\$[\d,]"), re.compile(r"\b(million|billion|thousand)\b", re.IGNORECASE))
CODE_SPANS = (re.compile(r"```.*?```", re.DOTALL), re.compile(r"`[^`]*`"))
FORMULAS = (
    re.compile(r"(?<!\\)\$\$(.*?)(?<!\\)\$\$", re.DOTALL),
    re.compile(r"(?<!\\)\\\[(.*?)(?<!\\)\\\]", re.DOTALL),
    re.compile(r"(?<!\\)\$(.*?)(?<!\\)\$", re.DOTALL),
    re.compile(r"(?<!\\)\\\((.*?)(?<!\\)\\\)", re.DOTALL),
)
SEPARATOR_CELL = re.compile(r"^:?\-{3,}:?$")
SEPARATOR_ROW = re.compile(r"^[\s\|\-:]+$")


class Parts(NamedTuple):
    """A Markdown text split as WebMainBench splits it."""

    text: str
    code: str
    formula: str
    table: str


def split(markdown: str) -> Parts:
    """The four parts of a Markdown text (all empty for an empty text)."""
    if not markdown:
        return Parts("", "", "", "")
    return Parts(markdown, code_part(markdown), formula_part(markdown), table_part(markdown))


def code_part(markdown: str) -> str:
    """The fenced, then the indented code blocks, joined by line breaks."""
    blocks = []
    for match in FENCED.finditer(markdown):
        inner = "\n".join(match.group(0).split("\n")[1:-1])
        if inner:
            blocks.append(inner)
    for match in INDENTED.finditer(markdown):
        block = _indented_block(match.group(1))
        if block is not None:
            blocks.append(block)
    return "\n".join(blocks)


def _indented_block(segment: str) -> str | None:
    lines = [line for line in segment.split("\n") if line.strip()]
    if not all(line.startswith(("    ", "\t")) for line in lines):
        return None
    stripped = [line.strip() for line in lines]
    if len(stripped) < 2 or any(_looks_like_prose(line) for line in stripped):
        return None
    block = "\n".join(line[4:] if line.startswith("    ") else line[1:] for line in lines)
    return block if block.strip() else None


def _looks_like_prose(line: str) -> bool:
    return any(p.match(line) for p in NOT_CODE) or any(p.search(line) for p in NOT_CODE_ANYWHERE)


def without_code(markdown: str) -> str:
    """The text with fenced blocks, then inline code spans, removed."""
    for pattern in CODE_SPANS:
        markdown = pattern.sub("", markdown)
    return markdown


def formula_part(markdown: str) -> str:
    """The formulas' contents, pattern by pattern, joined by line breaks."""
    text = without_code(markdown)
    found = (match.group(1).strip() for pattern in FORMULAS for match in pattern.finditer(text))
    return "\n".join(formula for formula in found if formula)


def table_part(markdown: str) -> str:
    """The outermost HTML tables (code removed), then the Markdown tables, joined by line breaks."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(without_code(markdown), "html.parser")
    tables = [str(table) for table in soup.find_all("table")
              if not table.find_parent(["td", "tr", "tbody", "table"])]
    run: list[str] = []
    for line in [*markdown.split("\n"), None]:
        if line is not None and "|" in line:
            run.append(line)
            continue
        if len(run) >= 2 and _is_separator(run[1]):
            tables.append("\n".join(run))
        run = []
    return "\n".join(tables)


def _is_separator(line: str) -> bool:
    return all(not cell or SEPARATOR_CELL.match(cell) for cell in (c.strip() for c in line.split("|")))


def table_html(table: str) -> str:
    """A table part as HTML, as TEDSMetric normalises it: empty stays empty, HTML stays as it is, text with a
    ``|`` is read as Markdown rows, anything else becomes a one-cell table."""
    if not table.strip():
        return ""
    if "<table" in table.lower():
        return table
    if "|" in table:
        return _markdown_rows_html(table)
    return f"<table><tr><td>{table}</td></tr></table>"


def _markdown_rows_html(markdown: str) -> str:
    """Each line with a ``|`` that is not a separator row is a row (the first of header cells); its cells are
    the non-blank pieces between the ``|``s (so empty cells vanish)."""
    lines = [line.strip() for line in markdown.split("\n") if line.strip() and "|" in line]
    if not lines:
        return ""
    rows = [line for line in lines if not SEPARATOR_ROW.match(line)]
    html = ["<table>"]
    for i, line in enumerate(rows):
        cells = [cell.strip() for cell in line.split("|") if cell.strip()]
        if cells:
            tag = "th" if i == 0 else "td"
            html.append("<tr>" + "".join(f"<{tag}>{cell}</{tag}>" for cell in cells) + "</tr>")
    html.append("</table>")
    return "".join(html)


def table_text(html: str) -> str:
    """The first table's rows, one per line, each its cells' stripped text joined by spaces (empty rows
    left out): what TableEditMetric compares."""
    from bs4 import BeautifulSoup

    if not html.strip():
        return ""
    table = BeautifulSoup(html, "html.parser").find("table")
    if table is None:
        return ""
    rows = (" ".join(cell.get_text(strip=True) for cell in row.find_all(["th", "td"])) for row in table.find_all("tr"))
    return "\n".join(row for row in rows if row)
