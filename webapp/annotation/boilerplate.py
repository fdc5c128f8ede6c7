"""Repeated boilerplate: the blocks whose text recurs on many pages of one site (menus, footers, cookie
banners, "related" boxes). The annotate view marks them in the page and leaves them out of the prefill.

A block line (corpus/visible_text.block_lines of a page's HTML) is boilerplate on its site when it
occurs on at least MIN_PAGES pages (3) and on at least MIN_SHARE (30%) of the pages read: a line on
two pages may be shared by two related articles, one on a third of a site is its furniture. A page's
own title is never its boilerplate (`page_boilerplate`): in the demo corpus every article's heading is
also a link in the other pages' "most read" or "recent posts" box, so it recurs on the whole site,
while the site's name, menus and footers stay marked. These are
constants, not settings: no deployment has needed to tune them yet. At most SAMPLE_PAGES pages are
read, the site's newest: a line on a third of a site's pages is on about a third of any few dozen of
them, and the cost of reading a site stays bounded (each page's HTML is parsed in full).

Where it is kept: the lines change only when pages are imported into the site, so they are computed
lazily, on the first annotate view of a site, and kept in memory per process (`BoilerplateCache`, an
app extension) under a key of the site's page count and newest page id, which an import changes.
Nothing is stored in the database: no migration, nothing to keep in step with re-imports or deletions,
and a worker never has to know about it. The price is one computation per site per process after each
import (about 40 parses: well under a second for ordinary pages).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..corpus.visible_text import block_lines, normalise_line, parse_html
from ..extractors.scored_output import scored_html, with_scored_document
from ..foundation.kept import Kept
from ..models import Page

MIN_PAGES = 3
MIN_SHARE = 0.3
SAMPLE_PAGES = 40
SITES_KEPT = 64
MAX_PAGE_CHARS = 2_000_000
"""Larger pages are left out of the sample: one such page can take seconds to parse."""


def repeated_lines(pages: Iterable[Iterable[str]], min_pages: int = MIN_PAGES,
                   min_share: float = MIN_SHARE) -> frozenset[str]:
    """The lines (each page given as its block lines) found on at least `min_pages` pages and at least
    `min_share` of the pages given; a line repeated within one page counts once for it (pure)."""
    seen: Counter[str] = Counter()
    total = 0
    for lines in pages:
        total += 1
        seen.update({normalise_line(line) for line in lines} - {""})
    floor = max(min_pages, min_share * total)
    return frozenset(line for line, n in seen.items() if n >= floor)


def page_boilerplate(site_lines: frozenset[str], facts: Mapping[str, Any] | None) -> frozenset[str]:
    """The site's repeated lines that are boilerplate on one page: all but the page's own title (its
    facts' title, as trafilatura reads it from the page's title and headings). An article's title is
    repeated in the "most read" and "recent posts" boxes of the site's other pages, where it is
    boilerplate; on its own page it is the heading of the gold (pure)."""
    title = normalise_line(str((facts or {}).get("title") or ""))
    return site_lines - {title} if title else site_lines


def drop_lines(text: str, boilerplate: frozenset[str] | set[str],
               key: Callable[[str], str] = normalise_line) -> tuple[str, int]:
    """The text without its lines that are boilerplate (compared whitespace-normalised, or by `key`: a
    Markdown line by its plain text), and how many lines were dropped."""
    if not boilerplate:
        return text, 0
    kept, dropped = [], 0
    for line in text.split("\n"):
        if key(line) in boilerplate:
            dropped += 1
        else:
            kept.append(line)
    return "\n".join(kept), dropped


def page_lines(html: str) -> list[str]:
    return block_lines(parse_html(html))


def site_key(session: Session, site_id: int) -> tuple[int, int, int]:
    """(page count, newest page id, pages scoring their rendering) of a site: changes whenever pages are
    imported into it, and whenever one of its pages starts or stops scoring its rendering."""
    count, newest, rendered = session.execute(
        select(func.count(Page.id), func.max(Page.id), func.count(Page.scored_rendering)).where(Page.site_id == site_id)
    ).one()
    return count, newest or 0, rendered


def site_boilerplate(session: Session, site_id: int, min_pages: int = MIN_PAGES,
                     min_share: float = MIN_SHARE, sample: int = SAMPLE_PAGES) -> frozenset[str]:
    """The repeated lines of a site, read from the HTML of its `sample` newest pages of at most
    MAX_PAGE_CHARS characters (the deferred column is selected on its own)."""
    htmls = session.scalars(  # what each page's scored outputs read: its rendering where the page scores it
        with_scored_document(select(scored_html).select_from(Page))
        .where(Page.site_id == site_id, func.length(scored_html) <= MAX_PAGE_CHARS)
        .order_by(Page.id.desc()).limit(sample)
    )
    return repeated_lines((page_lines(html) for html in htmls), min_pages, min_share)


class BoilerplateCache:
    """Each site's repeated lines, kept per process for the SITES_KEPT most recently used sites, each
    valid while the site's page count, newest page and pages scoring their rendering (site_key) are unchanged."""

    def __init__(self, sites_kept: int = SITES_KEPT) -> None:
        self.kept: Kept[frozenset[str]] = Kept(sites_kept)

    def lines(self, session: Session, site_id: int, min_pages: int = MIN_PAGES,
              min_share: float = MIN_SHARE) -> frozenset[str]:
        key = (*site_key(session, site_id), min_pages, min_share)
        if key[0] < min_pages:  # too few pages for any line to qualify: nothing to read
            return frozenset()
        return self.kept.get(site_id, lambda: site_boilerplate(session, site_id, min_pages, min_share), key)
