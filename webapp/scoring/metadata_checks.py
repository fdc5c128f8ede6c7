"""Checks of a page's metadata gold (title, authors, published: annotation/article_metadata.py), each returning
the reason it fails or None. Pure: results/gold_check_runs.py reads the pages and passes what they say.

- **A date out of range** (`date_out_of_range`): the gold's date (its day) is
  - *in the future*: after the day the page was captured (its fetch facts' `fetched_at`, for a page Goldtext
    captured), else after the day the check runs;
  - *before the site existed*: before 1994-01-01 (`WEB_START`: hardly a site published dated pages before the
    web's first years), or before the date the page's address names (`/2015/07/10/`, `/2015/07/`, `/2015/`: a
    site gives a page the address of the day, month or year it publishes it, so the page did not exist before
    the first day of that period).
- **Not on the page** (`not_on_page`): the title, or an author's name ("By " left out), is not in what the page
  shows (its visible text, its `<title>` and its `<meta>` contents), both compared with their whitespace
  collapsed and case folded.
- **Expected and empty** (`missing_expected`): a field the page's type expects (annotation/article_metadata.py
  EXPECTED) is not annotated (neither a value nor "none on the page").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any

WEB_START = date(1994, 1, 1)
"""The earliest date a page's publication date may have (see the module's definition)."""

_URL_DATE = re.compile(r"/((?:19|20)\d\d)(?:[/_-](0[1-9]|1[0-2])(?:[/_-](0[1-9]|[12]\d|3[01]))?)?(?=/|$|[_.-])")
BY = "by "


def _day(value: str) -> date | None:
    try:
        return datetime.fromisoformat(value).date()
    except ValueError:
        return None


def url_date(url: str | None) -> date | None:
    """The first day of the period the address names (a /YYYY/MM/DD/, /YYYY/MM/ or /YYYY/ path segment), or None."""
    if not url:
        return None
    found = _URL_DATE.search(url.split("?", 1)[0].split("#", 1)[0])
    if found is None:
        return None
    year, month, day = found.groups()
    try:
        return date(int(year), int(month or 1), int(day or 1))
    except ValueError:
        return None


def date_out_of_range(published: Any, today: date, url: str | None, captured: str | None) -> str | None:
    """The reason the gold's date is in the future or before the site existed (module's definitions), or None."""
    if not isinstance(published, str):
        return None
    day = _day(published)
    if day is None:
        return None
    capture_day = _day(captured) if captured else None
    latest = capture_day or today
    if day > latest:
        when = f"the page was captured ({latest})" if capture_day else f"today ({latest})"
        return f"the gold's date {day} is after {when}: a date in the future"
    earliest = url_date(url)
    if earliest is not None and day < earliest:
        return f"the gold's date {day} is before {earliest}, the first day of the period the page's address names"
    if day < WEB_START:
        return f"the gold's date {day} is before {WEB_START}, before the site existed"
    return None


def normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def not_on_page(metadata: Mapping[str, Any], shown: str) -> str | None:
    """The reason the gold's title or one of its authors is not in what the page shows (``shown``), or None."""
    page = normal(shown)
    missing = []
    title = metadata.get("title")
    if isinstance(title, str) and normal(title) not in page:
        missing.append(f"the title {title!r}")
    for name in metadata.get("authors") or []:
        said = normal(name)
        said = said[len(BY):] if said.startswith(BY) else said
        if said not in page:
            missing.append(f"the author {name!r}")
    if not missing:
        return None
    return f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not on the page"


def missing_expected(metadata: Mapping[str, Any] | None, page_type: str, fields: Iterable[str]) -> str | None:
    """The reason a field the page type expects (``fields``) is not annotated, or None."""
    lacking = [field for field in fields if field not in (metadata or {})]
    if not lacking:
        return None
    return (f"the page type {page_type!r} expects its {', '.join(lacking)} annotated (a value or \"none on the "
            "page\")")
