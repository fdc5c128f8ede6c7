"""Markdown written by the team (the guidelines, the gold's preview) turned into HTML that is safe in the
app's pages.

CommonMark with raw HTML off (a `<script>` or `<img onerror>` written in the text is shown as text),
images off (`![x](https://host/pixel.png)` stays a link and loads nothing: the app's own pages load
nothing remote, and their CSP would refuse it anyway), and links only to http(s), mailto, this site's
paths and anchors (a `javascript:` or `data:` link stays text). Links open with no referrer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, cast
from urllib.parse import urlsplit

from lxml_html_clean import Cleaner
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

SCHEMES = ("http", "https", "mailto")


def safe_link(url: str) -> bool:
    """Whether a link may be rendered: a scheme of SCHEMES, or none (a path or an anchor on this site)."""
    url = url.strip()
    if any(ord(ch) < 32 or ch == "\\" for ch in url):
        return False
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return False
    return scheme in SCHEMES if scheme else not url.startswith("//")


def _link_open(renderer: Any, tokens: Sequence[Token], index: int, options: Any, env: Any) -> str:
    tokens[index].attrSet("rel", "noopener noreferrer nofollow")
    return str(renderer.renderToken(tokens, index, options, env))


@cache
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    parser.disable("image")
    cast(Any, parser).validateLink = safe_link  # markdown-it-py's way to replace its link check: set on the parser
    parser.add_render_rule("link_open", _link_open)
    return parser


@lru_cache(maxsize=64)
def render(text: str) -> Markup:
    """The text's Markdown as safe HTML (the last texts rendered are kept: every annotate view shows every
    type's guideline, and they rarely change)."""
    return Markup(_parser().render(text))


@cache
def _gold_parser() -> MarkdownIt:
    """The gold's dialect (scoring/markdown_text.py: GFM tables, strikethrough, formulas kept as TeX; a line
    of a paragraph is a line, as its plain text reads it) with the same safety as the guidelines'; raw HTML
    is read only to keep a table GFM cannot hold."""
    parser = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False, "breaks": True})
    parser.enable(["table", "strikethrough"])
    parser.disable("image")
    cast(Any, parser).validateLink = safe_link
    parser.add_render_rule("link_open", _link_open)
    return parser


_TABLE_ONLY = Cleaner(scripts=True, javascript=True, comments=True, style=True, inline_style=True, links=True,
                      meta=True, page_structure=True, processing_instructions=True, embedded=True, frames=True,
                      forms=True, annoying_tags=True, remove_unknown_tags=False,
                      allow_tags=["div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote",
                                  "pre", "code", "em", "strong", "del", "s", "a", "hr", "br", "table", "thead",
                                  "tbody", "tfoot", "tr", "td", "th", "caption"],
                      safe_attrs_only=True, safe_attrs=frozenset({"rowspan", "colspan", "href", "rel", "class",
                                                                  "start"}))


def render_gold(markdown: str) -> Markup:
    """A gold's Markdown as the editor's preview shows it: safe HTML (raw HTML is kept only as the tags
    Markdown itself makes and table markup, rowspan and colspan its only attributes of its own), no image,
    links as for the guidelines."""
    html = _gold_parser().render(markdown)
    return Markup(_TABLE_ONLY.clean_html(f"<div class=\"gold-preview\">{html}</div>")) if html.strip() else Markup("")
