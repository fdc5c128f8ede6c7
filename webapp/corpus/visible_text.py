"""The visible text of an HTML fragment, one block per line: gold text read from gold HTML."""

from __future__ import annotations

import lxml.html

BLOCKS = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre", "td", "th", "figcaption",
     "dt", "dd", "div"}
)
INVISIBLE = frozenset({"head", "script", "style", "template", "noscript"})


def block_lines(html: str) -> str:
    """Each block element's text on its own line, whitespace in a block collapsed, no empty lines.

    A block's text stops where a nested block starts and resumes on a new line after it ends, so
    a div that directly holds text gets a line of its own, a div that only wraps blocks adds none.
    """
    if not html.strip():
        return ""
    lines: list[str] = []
    pending: list[str] = []

    def flush() -> None:
        line = " ".join("".join(pending).split())
        pending.clear()
        if line:
            lines.append(line)

    def walk(element: lxml.html.HtmlElement) -> None:
        visible = isinstance(element.tag, str) and element.tag not in INVISIBLE
        block = visible and element.tag in BLOCKS
        if block:
            flush()
        if visible:
            pending.append(element.text or "")
            for child in element:
                walk(child)
                pending.append(child.tail or "")
        if block:
            flush()

    walk(lxml.html.document_fromstring(html))
    flush()
    return "\n".join(lines)
