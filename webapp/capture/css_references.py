"""The URLs a stylesheet (or a `style` attribute) loads, and the stylesheet with each of them rewritten to a
captured copy or removed, read with tinycss2 (the CSS Syntax Level 3 tokenizer), never with a pattern.

What loads: every `url(...)` (the unquoted token and the function with a string, escapes resolved as a browser
resolves them), the strings of `image-set()`, `-webkit-image-set()`, `image()` and `src()` (CSS treats them
as URLs), and `@import` with a string or a URL. A reference the capture kept becomes the path the app
serves it from; any other is replaced by `none` (the declaration becomes invalid and the browser drops
it) and an `@import` of nothing kept is removed whole. A bad URL or string (a parse error) is dropped too:
tinycss2 would write it back as a relative `url([bad url])`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from urllib.parse import urljoin

import tinycss2
from tinycss2.ast import AtRule, FunctionBlock, IdentToken, Node, ParseError, StringToken, URLToken

Target = Callable[[str], str | None]
"""An absolute URL to the path it is served from, or None when it was not kept."""

STRING_URL_FUNCTIONS = frozenset({"image-set", "-webkit-image-set", "image", "src"})
KEPT_ERRORS = frozenset(")]}")
"""Parse errors that are stray closing brackets: written back as they are (they load nothing)."""


def _walk(nodes: list[Node], in_url_function: bool = False) -> Iterator[tuple[list[Node], int, str | None]]:
    """(list, index, URL) of every node that loads a URL (URL None: a parse error to drop), depth first."""
    for index, node in enumerate(nodes):
        if isinstance(node, URLToken):
            yield nodes, index, node.value
        elif isinstance(node, ParseError) and node.kind not in KEPT_ERRORS:
            yield nodes, index, None
        elif isinstance(node, StringToken) and in_url_function:
            yield nodes, index, node.value
        elif isinstance(node, FunctionBlock) and node.lower_name == "url":
            strings = [n for n in node.arguments if isinstance(n, StringToken)]
            yield nodes, index, strings[0].value if strings else None
        else:
            for name in ("prelude", "content", "arguments"):
                value = getattr(node, name, None)
                if isinstance(value, list):
                    inner = isinstance(node, FunctionBlock) and node.lower_name in STRING_URL_FUNCTIONS
                    yield from _walk(value, inner)


def _imported(rule: Node) -> str | None:
    """The URL an `@import` rule names (its first string or URL), or None."""
    for node in getattr(rule, "prelude", []):
        if isinstance(node, (StringToken, URLToken)):
            return node.value
        if isinstance(node, FunctionBlock) and node.lower_name == "url":
            strings = [n for n in node.arguments if isinstance(n, StringToken)]
            return strings[0].value if strings else None
    return None


def _is_import(node: Node) -> bool:
    return isinstance(node, AtRule) and node.lower_at_keyword == "import"


def stylesheet_references(css: str, base: str) -> list[str]:
    """The absolute URLs the stylesheet at `base` loads, each once, in order (its imports first)."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True)
    found = [_imported(rule) for rule in rules if _is_import(rule)]
    found += [url for _, _, url in _walk([rule for rule in rules if not _is_import(rule)])]
    return list(dict.fromkeys(urljoin(base, url.strip()) for url in found if url and url.strip()))


def declarations_references(style: str, base: str) -> list[str]:
    """The absolute URLs a `style` attribute loads."""
    found = [url for _, _, url in _walk(tinycss2.parse_component_value_list(style, skip_comments=True))]
    return list(dict.fromkeys(urljoin(base, url.strip()) for url in found if url and url.strip()))


def _rewrite(nodes: list[Node], base: str, target: Target) -> list[Node]:
    for where, index, url in list(_walk(nodes)):
        node = where[index]
        kept = target(urljoin(base, url.strip())) if url and url.strip() else None
        if kept is None:
            where[index] = IdentToken(node.source_line, node.source_column, "none")
        elif isinstance(node, StringToken):
            where[index] = StringToken(node.source_line, node.source_column, kept, _quoted(kept))
        else:
            where[index] = URLToken(node.source_line, node.source_column, kept, f"url({_quoted(kept)})")
    return nodes


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ") + '"'


LOADING_WORDS = ("url", "import", "image", "src", "\\")
"""Text without any of these (in any case) loads nothing: each way CSS names a URL spells one of them, or
escapes it with a backslash. Such text is kept as it is, unparsed (a large inline `<style>` of a page)."""


def loads_nothing(css: str) -> bool:
    lowered = css.lower()
    return not any(word in lowered for word in LOADING_WORDS)


def normalised(css: str) -> str:
    """The text as the CSS tokenizer reads it (its newlines and NULs preprocessed, as tinycss2 does): the text
    its nodes' source lines and columns count in."""
    return css.replace("\0", "\uFFFD").replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n")


def _starts(text: str, nodes: list[Node]) -> list[int]:
    """Each node's offset in `text` (from its source line and column, both from 1), then the text's end."""
    lines = [0]
    found = text.find("\n")
    while found != -1:
        lines.append(found + 1)
        found = text.find("\n", found + 1)
    return [lines[node.source_line - 1] + node.source_column - 1 for node in nodes] + [len(text)]


def rewritten_stylesheet(css: str, base: str, target: Target) -> str:
    """The stylesheet at `base` with every URL it loads rewritten by `target` or removed (above). A top-level rule
    whose own text loads nothing (`loads_nothing`) is kept as it was written, neither walked nor serialised: the
    cost of a large sheet is then its tokenizing alone."""
    if loads_nothing(css):
        return css
    text = normalised(css)
    rules = tinycss2.parse_stylesheet(text, skip_comments=True)
    starts = _starts(text, rules)
    written: list[str] = []
    for index, rule in enumerate(rules):
        if isinstance(rule, ParseError) and rule.kind not in KEPT_ERRORS:
            continue
        source = text[starts[index]:starts[index + 1]]
        if loads_nothing(source):
            written.append(source)
        elif not _is_import(rule):
            written.append(tinycss2.serialize(_rewrite([rule], base, target)))
        else:
            written.append(_rewritten_import(rule, base, target))
    return "".join(written)


def _rewritten_import(rule: Node, base: str, target: Target) -> str:
    """An `@import` of a kept sheet naming its copy (its conditions rewritten too); nothing for any other."""
    url = _imported(rule)
    served = target(urljoin(base, url.strip())) if url and url.strip() else None
    if served is None:
        return ""
    rest = [n for n in getattr(rule, "prelude", []) if not isinstance(n, (StringToken, URLToken))
            and not (isinstance(n, FunctionBlock) and n.lower_name == "url")]
    conditions = tinycss2.serialize(_rewrite(rest, base, target)).strip()
    return f"@import url({_quoted(served)}) {conditions};\n"


def rewritten_declarations(style: str, base: str, target: Target) -> str:
    """A `style` attribute with every URL it loads rewritten by `target` or removed."""
    if loads_nothing(style):
        return style
    return tinycss2.serialize(_rewrite(tinycss2.parse_component_value_list(style, skip_comments=True), base, target))
