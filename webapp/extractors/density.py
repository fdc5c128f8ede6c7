"""density: a readability-style heuristic that picks the element holding the most paragraph text.

1. Parse; remove script, style, noscript, nav, footer, form and comments.
2. Every `<p>` whose text (whitespace collapsed) has 25+ characters scores
   1 + len(text)/100 + its number of commas. Its parent gets the points in full, its
   grandparent half. A candidate starts at +10 if its class/id carries a positive hint and
   -25 if it carries a negative one (both can apply).
3. A candidate's final score is its score times (1 - link density), link density being the
   characters inside `<a>` over all its characters (whitespace collapsed).
4. The top candidate wins (the earlier one on a tie). Its direct children with link density
   above 0.5 or a negative hint are dropped; the rest gives the text, one block per line.

Hints are matched word-ish, not as substrings: class and id are split into words at spaces,
punctuation, digits and camelCase humps (`articleBody` -> `article body`), and a hint must begin
a word. So `ad-slot`, `ads`, `advert`, `advertisement` and `mainAd` are ad hints, but `header`,
`read`, `shadow`, `load` and `badge` are not ("header" is a negative hint of its own). Beginning a
word is enough for the other hints (`comments`, `sidebar-left`, `footer` from "foot"); "ad" alone
must be the whole word (`ad`, `ads`) or start `advert`. "byline" is deliberately no hint.

Metadata: {"candidates": [{"path": "/html/body/...", "score": 12.345}, ...]}, the top five,
best first, scores rounded to three decimals. The paths hold for the page as saved: removing
elements of the six never-article tags shifts no other element's position in an XPath.
A page without a scoring `<p>` gives empty text and no candidates.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import BLOCKS_VERSION
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown

# Bump when the scoring or pruning changes, so that stored extractions are redone.
DENSITY_VERSION = "goldtext-density 1"

REMOVED_TAGS = ("script", "style", "noscript", "nav", "footer", "form")
REMOVED_XPATH = "|".join(f"//{tag}" for tag in REMOVED_TAGS) + "|//comment()"
MIN_PARAGRAPH_CHARS = 25
POSITIVE_POINTS = 10.0
NEGATIVE_POINTS = -25.0
MAX_CHILD_LINK_DENSITY = 0.5
REPORTED_CANDIDATES = 5

WORD_START = r"(?<![a-z])"
POSITIVE_HINT = re.compile(
    WORD_START + r"(?:article|body|content|entry|main|page|post|text|blog|story)"
)
NEGATIVE_HINT = re.compile(
    WORD_START
    + r"(?:ads?(?![a-z])|advert|banner|combx|comment|community|disqus|extra|foot|header|menu"
    r"|related|remark|rss|share|shoutbox|sidebar|sponsor|social|promo|newsletter|cookie"
    r"|consent|popup|widget)"
)
CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


def hint_words(element: HtmlElement) -> str:
    """The element's class and id, camelCase split, lower-cased: the text hints are sought in."""
    raw = f"{element.get('class') or ''} {element.get('id') or ''}"
    return CAMEL_HUMP.sub(" ", raw).lower()


def has_negative_hint(element: HtmlElement) -> bool:
    return bool(NEGATIVE_HINT.search(hint_words(element)))


def hint_points(element: HtmlElement) -> float:
    """+10 for a positive hint, -25 for a negative one, the sum when both are present."""
    words = hint_words(element)
    points = POSITIVE_POINTS if POSITIVE_HINT.search(words) else 0.0
    return points + (NEGATIVE_POINTS if NEGATIVE_HINT.search(words) else 0.0)


def collapsed_length(element: HtmlElement) -> int:
    return len(" ".join(element.text_content().split()))


def link_density(element: HtmlElement) -> float:
    """Characters inside `<a>` over all characters, whitespace collapsed; 0 for no text."""
    total = collapsed_length(element)
    if total == 0:
        return 0.0
    return sum(collapsed_length(link) for link in element.iter("a")) / total


def paragraph_points(paragraph: HtmlElement) -> float | None:
    """1 + len/100 + commas for a paragraph of 25+ characters; None for a shorter one."""
    text = " ".join(paragraph.text_content().split())
    if len(text) < MIN_PARAGRAPH_CHARS:
        return None
    return 1 + len(text) / 100 + text.count(",")


def remove_unlikely(root: HtmlElement) -> None:
    """Drop the never-article elements and comments, keeping the text that follows them."""
    for element in root.xpath(REMOVED_XPATH):
        if element.getparent() is not None:
            element.drop_tree()


def score_candidates(root: HtmlElement) -> dict[HtmlElement, float]:
    """Each paragraph's parent and grandparent with their final scores, in document order."""
    scores: dict[HtmlElement, float] = {}
    for paragraph in root.iter("p"):
        points = paragraph_points(paragraph)
        if points is None:
            continue
        parent = paragraph.getparent()
        grandparent = parent.getparent() if parent is not None else None
        for candidate, share in ((parent, 1.0), (grandparent, 0.5)):
            if candidate is None:
                continue
            if candidate not in scores:
                scores[candidate] = hint_points(candidate)
            scores[candidate] += points * share
    return {candidate: score * (1 - link_density(candidate)) for candidate, score in scores.items()}


def prune_children(winner: HtmlElement) -> None:
    """Drop the winner's children that are mostly links or carry a negative hint."""
    for child in list(winner):
        if not isinstance(child.tag, str):
            continue
        if link_density(child) > MAX_CHILD_LINK_DENSITY or has_negative_hint(child):
            child.drop_tree()


def run_density(html: str, url: str | None) -> Extracted:
    """The winning candidate's text; metadata lists the top candidates."""
    root = parse_html(html)
    remove_unlikely(root)
    ranked = sorted(score_candidates(root).items(), key=lambda item: item[1], reverse=True)
    if not ranked:
        return Extracted(text="", metadata={"candidates": []})
    tree = root.getroottree()
    candidates = [
        {"path": tree.getpath(element), "score": round(score, 3)}
        for element, score in ranked[:REPORTED_CANDIDATES]
    ]
    winner = ranked[0][0]
    prune_children(winner)
    return Extracted(text=block_text(winner), metadata={"candidates": candidates}, markdown=html_markdown(winner))


DENSITY = Extractor(
    name="density",
    version=f"{DENSITY_VERSION}, {BLOCKS_VERSION}, {package_version('lxml')}, {MARKDOWN_VERSION}",
    func=run_density,
    options={},
    structure=True,
    description="readability-style heuristic: the element with the densest paragraph text wins",
)

