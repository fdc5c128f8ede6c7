"""The Markdown of what an extractor kept.

Extractors that give the main content as HTML (readability, density, site rules, magic-html, the Go
program's, the whole page) turn it into Markdown with html-to-markdown (a converter with a Rust core, kept
up to date on PyPI): compared on the shared pages with markdownify and html2text, it keeps a code block's
language (`pre class="language-x"`), GFM tables with their header row, and nested lists, and it is the
fastest of the three (docs/extractors.md). trafilatura gives its own Markdown (extractors/with_trafilatura.py).
Either way the Markdown is tidied the same way: lines of a text node's indentation would read as indented
code, so outside fenced blocks a line keeps its leading spaces only when it is a list item; runs of blank
lines become one.
"""

from __future__ import annotations

import re

import html_to_markdown
import lxml.html
from lxml import etree

from .base import package_version

OPTIONS = html_to_markdown.ConversionOptions(extract_metadata=False)
"""The page's `<title>` and `<meta>` are not main content: without this, the converter puts them first as YAML
front matter (the whole page's Markdown began with its description and Open Graph tags)."""

MARKDOWN_VERSION = f"{package_version('html-to-markdown')} without front matter, the element without its tail"
"""Part of the version of every extractor whose Markdown html-to-markdown writes (with OPTIONS)."""

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s")


def fence_of(line: str) -> str | None:
    """The fence a line opens (or closes) a fenced code block with, None for another line."""
    found = _FENCE.match(line)
    return found.group(1) if found else None


def closes(fence: str, line: str) -> bool:
    """Whether the line closes the block the fence opened (the same character, at least as many)."""
    found = fence_of(line)
    return found is not None and found[0] == fence[0] and len(found) >= len(fence)


def tidy(markdown: str) -> str:
    """Markdown with no stray indentation outside fenced blocks and no run of blank lines."""
    out: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines():
        line = line.rstrip()
        if fence is not None:
            out.append(line)
            if closes(fence, line):
                fence = None
            continue
        if opening := fence_of(line):
            fence = opening
            out.append(line.lstrip())
        elif not line.strip():
            if out and out[-1]:
                out.append("")
        else:
            out.append(line if _LIST_ITEM.match(line) else line.lstrip())
    return "\n".join(out).strip("\n")


def html_markdown(element: etree._Element) -> str:
    """The Markdown of an lxml element (the main content an extractor kept)."""
    html = lxml.html.tostring(element, encoding="unicode", with_tail=False)  # the text after it is not its own
    return tidy(html_to_markdown.convert(html, OPTIONS).content or "")
