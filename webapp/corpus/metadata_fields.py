"""A page's metadata gold (title, authors, published) as the import layouts give it, read into the one shape
(annotation/article_metadata.py, which the import use case checks it against), and written back.

Authors. WCXB's `author` and Readability's `byline` are one string that may name several people. It is split
into names at commas, semicolons, " & " and the word " and " (`split_names`): "Jared Newman and Sam
Singleton" is two names, "Rui Ma, Heba Ledwon, Manoel Cortes Mendez & Suparn Patra" four. A string that
names one person with a comma in it ("Jong, Michiel de", "Paul Frew, Home and Digital Security Expert") is
split too: the annotator corrects it. The string as the benchmark gave it stays in the page's facts
(`layout`), and an export writes that string back while the gold's names are still the ones it splits into
(`joined_names`), so a round trip keeps what the benchmark gave.

Dates. A date is kept when it is ISO 8601 as Python reads it (`datetime.fromisoformat`: "2024-03-01",
"2021-11-01T10:52:50+0100", "2017-11-03 03:01:00.000000"; every date of WCXB's and Readability's shared
pages is); a date in another form is left out (not annotated), the layout's own string kept in its facts.

An empty string is "none on the page" (None), as is null; a field the layout does not have is not
annotated (absent).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

NAME_SEPARATORS = re.compile(r"\s*(?:[,;]|\s&\s|\sand\s)\s*")
JOIN = ", "


def split_names(text: str) -> list[str]:
    """The names a byline string holds, in its order (see the module's rule); [] for a blank string."""
    return [name for name in (" ".join(part.split()) for part in NAME_SEPARATORS.split(text)) if name]


def joined_names(names: list[str] | None, given: Any) -> str | None:
    """The byline string to write for these names: the layout's own string (``given``) when it splits into
    exactly them (so a round trip keeps it), else the names joined by ", "; None for none on the page."""
    if isinstance(given, str) and split_names(given) == (names or []):
        return given
    return JOIN.join(names) if names else None


def iso_date(value: str) -> str | None:
    """The date as given (whitespace collapsed) when it is ISO 8601 as Python reads it; else None."""
    text = " ".join(value.split())
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return None
    return text


def layout_metadata(given: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The metadata a layout gives in ``given`` under its own names (``names``: title, authors and
    published -> the layout's key): a string, an empty string or null each; keys it lacks are not
    annotated. Authors are split (`split_names`), dates kept when ISO 8601 (`iso_date`)."""
    metadata: dict[str, Any] = {}
    for field, key in names.items():
        if key not in given:
            continue
        value = given[key]
        if not isinstance(value, str) or not value.strip():
            metadata[field] = None
        elif field == "authors":
            metadata[field] = split_names(value) or None
        elif field == "published":
            date = iso_date(value)
            if date is not None:
                metadata[field] = date
        else:
            metadata[field] = " ".join(value.split())
    return metadata
