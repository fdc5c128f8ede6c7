"""A site rule learned from a site's gold pages (issue 24 §6): drop selectors for the blocks every gold
of the site leaves out, and a body selector where the gold always sits in one container.

The selectors are the simple ones a person would write and the rules editor stores: `tag#id` and
`tag.class`, taken from the visible block elements of the pages (identifiers that CSS can name as they
are). A page's selector's lines are the block lines (rule_regions.PageLines) of its outermost matches.
A line is in a page's gold when its words (rule_regions.line_key) occur, in order, in the gold's.

- A drop selector matches on at least MIN_DROP_PAGES of the pages (and at least half of them) and, on
  every page where it matches, at most MAX_KEPT_SHARE of its words are in lines of the gold and it holds
  at most MAX_DROP_SHARE of the page's words (a large container that holds only other things on these
  pages is too likely to hold the content of the next one). Greedily,
  the selectors that leave out the most words come first; one is kept only if it leaves out a line the
  ones before it did not, and at most MAX_DROPS are kept.
- A body selector matches on every page, holds at least MIN_BODY_RECALL of the gold's words found on
  each page, and leaves out something; of those, the one that holds the fewest words.

The learner sees only the pages it is given: a leave-one-out score (results/rule_proposal.py) gives it
every gold page of the site but the one it is scored on. Pure: no database, no Flask.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from webapp.corpus.visible_text import parse_html

from .rule_regions import PageLines, line_key, outermost

MIN_DROP_PAGES = 2
MAX_KEPT_SHARE = 0.05
MIN_BODY_RECALL = 0.95
MAX_DROPS = 24
MAX_DROP_SHARE = 0.25
IDENTIFIER = re.compile(r"^-?[_a-zA-Z][_a-zA-Z0-9-]*$")
SKIPPED_TAGS = frozenset({"html", "body"})


@dataclass(frozen=True)
class GoldPage:
    """One gold page of a site: its HTML and its gold text."""

    html: str
    gold: str


@dataclass(frozen=True)
class Learned:
    """A learned rule: body selector (None: the whole page) and drop selectors."""

    body: str | None
    drop: tuple[str, ...] = field(default_factory=tuple)

    @property
    def empty(self) -> bool:
        return self.body is None and not self.drop


def selectors_of(element: etree._Element) -> list[str]:
    """The `tag#id` and `tag.class` selectors that match the element."""
    tag = element.tag
    found = []
    ident = (element.get("id") or "").strip()
    if IDENTIFIER.match(ident):
        found.append(f"{tag}#{ident}")
    found.extend(f"{tag}.{name}" for name in (element.get("class") or "").split() if IDENTIFIER.match(name))
    return found


@dataclass
class Profile:
    """What the learner knows of one page: per selector, the indexes of the lines its outermost matches
    hold, the words of each line and which lines are in the gold (`page`: the page it was read from)."""

    page: GoldPage
    covered: dict[str, set[int]]
    words: list[int]
    in_gold: list[bool]

    def share_in_gold(self, lines: set[int]) -> float:
        total = sum(self.words[i] for i in lines)
        return sum(self.words[i] for i in lines if self.in_gold[i]) / total if total else 0.0

    def share(self, lines: set[int]) -> float:
        return sum(self.words[i] for i in lines) / max(sum(self.words), 1)

    def gold_words(self, lines: set[int] | None = None) -> int:
        chosen = range(len(self.words)) if lines is None else lines
        return sum(self.words[i] for i in chosen if self.in_gold[i])


def profile(page: GoldPage) -> Profile:
    root = parse_html(page.html)
    lines = PageLines(root)
    matches: dict[str, list[etree._Element]] = defaultdict(list)
    for element in lines.spans:
        if element.tag not in SKIPPED_TAGS:
            for selector in selectors_of(element):
                matches[selector].append(element)
    covered = {}
    for selector, elements in matches.items():
        covered[selector] = lines.covered(outermost(elements))
    gold = f" {line_key(page.gold)} "
    keys = [line_key(line) for line in lines.lines]
    in_gold = [bool(key) and f" {key} " in gold for key in keys]
    return Profile(page, covered, [len(key.split()) for key in keys], in_gold)


def learn_drops(profiles: Sequence[Profile]) -> tuple[str, ...]:
    floor = max(MIN_DROP_PAGES, (len(profiles) + 1) // 2)
    seen: dict[str, list[tuple[int, set[int]]]] = defaultdict(list)
    for n, page in enumerate(profiles):
        for selector, lines in page.covered.items():
            if lines:
                seen[selector].append((n, lines))
    candidates = []
    for selector, pages in seen.items():
        if len(pages) >= floor and all(profiles[n].share_in_gold(lines) <= MAX_KEPT_SHARE
                                       and profiles[n].share(lines) <= MAX_DROP_SHARE for n, lines in pages):
            weight = sum(profiles[n].words[i] for n, lines in pages for i in lines)
            candidates.append((-weight, selector, pages))
    chosen: list[str] = []
    dropped: set[tuple[int, int]] = set()
    for _, selector, pages in sorted(candidates):
        new = {(n, i) for n, lines in pages for i in lines} - dropped
        if new and len(chosen) < MAX_DROPS:
            chosen.append(selector)
            dropped |= new
    return tuple(chosen)


def learn_body(profiles: Sequence[Profile]) -> str | None:
    common = set.intersection(*(set(p for p, lines in page.covered.items() if lines) for page in profiles))
    best: tuple[int, str] | None = None
    for selector in common:
        size = 0
        for page in profiles:
            lines = page.covered[selector]
            if len(lines) == len(page.words) or page.gold_words(lines) < MIN_BODY_RECALL * page.gold_words():
                break
            size += sum(page.words[i] for i in lines)
        else:
            if best is None or (size, selector) < best:
                best = (size, selector)
    return best[1] if best else None


def learn_from(profiles: Sequence[Profile]) -> Learned:
    """The rule the pages' profiles teach (an empty rule when they teach nothing, or there are none)."""
    if not profiles:
        return Learned(None)
    return Learned(learn_body(profiles), learn_drops(profiles))


def learn(pages: Sequence[GoldPage]) -> Learned:
    """The rule the gold pages teach."""
    return learn_from([profile(page) for page in pages])
