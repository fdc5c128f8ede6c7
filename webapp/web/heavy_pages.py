"""Saved pages too deep or too large for a browser to render at once (a 100,000-level nesting stalls
Chromium for half a minute): the annotate view's frame gets a flattened rendering instead, the page's
visible text as plain paragraphs, and the view says so. The limits are the settings RENDER_MAX_DEPTH
(element nesting) and RENDER_MAX_BYTES (the decoded HTML's UTF-8 size).

The depth is measured by one regular-expression scan of the tags (no parser: lxml itself gives up past
256 levels), closing a tag closes what it holds, and the elements HTML closes implicitly (a new <p> or
<li> after an open one) and void elements do not nest. The flattened text follows the blocks of
webapp/corpus/visible_text.py (block, cell, line-break and invisible tags, the hidden rule) with Python's
tokenizer, which has no depth limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from html.parser import HTMLParser

from ..corpus.visible_text import (
    BLOCK_TAGS,
    CELL_TAGS,
    HIDDEN_ATTRIBUTE,
    HIDDEN_STYLE,
    INVISIBLE_TAGS,
    LINE_BREAK_TAGS,
    normalise_line,
)
from ..foundation.kept import Kept

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                  "track", "wbr", "keygen", "frame", "basefont", "isindex"})
IMPLIED = frozenset({"p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup"})
RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "noembed", "noframes", "plaintext"})
TAG = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][^\s/>]*)[^>]*>", re.S)
CACHED = 512  # verdicts kept: a few bytes each
FLAT_CACHED = 8  # flattened documents kept: up to RENDER_MAX_BYTES each


def nesting_depth(html: str, stop_at: int | None = None) -> int:
    """The deepest element nesting of the page (stops counting once past `stop_at`)."""
    stack: list[str] = []
    open_count: dict[str, int] = {}
    deepest = 0
    position = 0
    while (found := TAG.search(html, position)) is not None:
        position = found.end()
        name = (found.group(2) or "").lower()
        if not name:
            continue  # a comment
        if found.group(1):
            if open_count.get(name):
                while stack:
                    top = stack.pop()
                    open_count[top] -= 1
                    if top == name:
                        break
            continue
        if name in RAW_TEXT:
            end = re.compile(rf"</{re.escape(name)}\s*>", re.I).search(html, position)
            position = end.end() if end else len(html)
            continue
        if name in VOID or found.group(0).endswith("/>") and name not in BLOCK_TAGS:
            continue
        if name in IMPLIED and stack and stack[-1] == name:
            stack.pop()
            open_count[name] -= 1
        stack.append(name)
        open_count[name] = open_count.get(name, 0) + 1
        deepest = max(deepest, len(stack))
        if stop_at is not None and deepest > stop_at:
            break
    return deepest


def too_heavy(html: str, max_depth: int, max_bytes: int) -> str | None:
    """Why the page is too heavy to render (a phrase), or None."""
    size = len(html.encode("utf-8", "surrogatepass"))
    if max_bytes and size > max_bytes:
        return f"{size:,} bytes, over the {max_bytes:,}-byte limit (RENDER_MAX_BYTES)"
    if max_depth:
        depth = nesting_depth(html, stop_at=max_depth)
        if depth > max_depth:
            return f"nested more than {max_depth} levels deep (RENDER_MAX_DEPTH)"
    return None


_verdicts: Kept[str | None] = Kept(CACHED)
_flat: Kept[str] = Kept(FLAT_CACHED)


def verdict(key: tuple, html_of: Callable[[], str], max_depth: int, max_bytes: int) -> str | None:
    """too_heavy of the page, remembered by `key` (its sha256 and encoding, and the limits): `html_of()`
    is called only when the page was not judged yet."""
    return _verdicts.get((*key, max_depth, max_bytes), lambda: too_heavy(html_of(), max_depth, max_bytes))


class _Lines(HTMLParser):
    """The visible text, one line per block, without building a tree."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, hides its content)
        self.open_count: dict[str, int] = {}
        self.hidden = 0

    def end_line(self) -> None:
        line = normalise_line("".join(self.current))
        if line:
            self.lines.append(line)
        self.current.clear()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        hides = (tag in INVISIBLE_TAGS or HIDDEN_ATTRIBUTE in values
                 or bool(HIDDEN_STYLE.search(values.get("style") or "")))
        if not self.hidden:
            if tag in BLOCK_TAGS or tag in LINE_BREAK_TAGS:
                self.end_line()
            elif tag in CELL_TAGS:
                self.current.append(" ")
        if tag in VOID:
            return
        if tag in IMPLIED and self.stack and self.stack[-1][0] == tag:
            self.handle_endtag(tag)
        self.stack.append((tag, hides))
        self.open_count[tag] = self.open_count.get(tag, 0) + 1
        self.hidden += hides

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open_count.get(tag):
            return
        while self.stack:
            name, hides = self.stack.pop()
            self.open_count[name] -= 1
            self.hidden -= hides
            if name in BLOCK_TAGS and not self.hidden:
                self.end_line()
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.current.append(data)


def flat_lines(html: str) -> list[str]:
    """The page's visible text, one string per block, empty blocks left out."""
    parser = _Lines()
    parser.feed(html)
    parser.close()
    parser.end_line()
    return parser.lines


def flat_document_of(key: tuple, html_of: Callable[[], str], title: str) -> str:
    """flat_document of the page, remembered by `key` for the few pages last shown."""
    return _flat.get(key, lambda: flat_document(html_of(), title))


def flat_document(html: str, title: str) -> str:
    """The flattened rendering: every visible line a plain paragraph, nothing that loads or links."""
    paragraphs = "\n".join(f"<p>{escape(line)}</p>" for line in flat_lines(html))
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title></head><body>\n"
        f"{paragraphs}\n</body></html>"
    )
