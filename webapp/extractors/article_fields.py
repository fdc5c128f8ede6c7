"""What an extractor says about the article, put in Goldtext's one shape of article metadata
(annotation/article_metadata.py): ``title`` a string, ``authors`` a list of names, ``published`` an ISO 8601
date with an optional time, plus ``sitename`` and ``language`` where given.

`article_fields` keeps only the fields the extractor gives at all (the others stay absent, and the extractor is
not scored on them); a field it gives but found nothing for is None. Each extractor declares the fields it gives
(`Extractor.article_fields`), so that a failed extraction counts as "found none" for exactly those.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from dateutil import parser as date_parser

UNSET: Any = object()
"""A field the extractor does not give (its key stays absent)."""

NAME_SEPARATORS = re.compile(r"\s*(?:;|\||\s+and\s+|\s+&\s+|\s+und\s+)\s*", re.IGNORECASE)
"""Between two names of one byline or author string: `;` (trafilatura's own separator), `|`, "and", "&", "und"."""
BY = re.compile(r"^(?:written\s+)?by[\s:]+", re.IGNORECASE)


def article_fields(*, title: Any = UNSET, authors: Any = UNSET, published: Any = UNSET, sitename: Any = UNSET,
                   language: Any = UNSET) -> dict[str, Any]:
    """The metadata object of the fields given (a field left UNSET stays absent), each in its shape."""
    found: dict[str, Any] = {}
    if title is not UNSET:
        found["title"] = text_of(title)
    if authors is not UNSET:
        found["authors"] = names_of(authors)
    if published is not UNSET:
        found["published"] = iso_date(published)
    if sitename is not UNSET:
        found["sitename"] = text_of(sitename)
    if language is not UNSET:
        found["language"] = text_of(language)
    return found


def none_found(fields: Iterable[str]) -> dict[str, Any] | None:
    """The metadata of an extraction that failed: None ("found none") for each field the extractor gives."""
    return {field: None for field in fields} or None


def text_of(value: Any) -> str | None:
    """A string with its whitespace collapsed; None for nothing, an empty or a blank string."""
    if not isinstance(value, str):
        return None
    return " ".join(value.split()) or None


def names_of(value: Any) -> list[str] | None:
    """The names of a byline or an author string ("By Jane Doe and John Roe" -> ["Jane Doe", "John Roe"]), or of
    a list of them, in their order, without duplicates; None where there is none."""
    given = value if isinstance(value, (list, tuple)) else [value]
    names: list[str] = []
    for item in given:
        text = text_of(item)
        if text is None:
            continue
        for name in NAME_SEPARATORS.split(BY.sub("", text)):
            name = name.strip(" ,")
            if name and name not in names:
                names.append(name)
    return names or None


def iso_date(value: Any) -> str | None:
    """An ISO 8601 date (`2024-03-01`) or date and time (`2024-03-01T09:30:00+01:00`) from a date, a datetime
    or a string in any form dateutil reads; None where there is none or it cannot be read as a date."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    text = text_of(value)
    if text is None:
        return None
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(text).isoformat()
    except ValueError:
        pass
    try:
        return date_parser.parse(text).isoformat()
    except (ValueError, OverflowError):
        return None
