"""Agreement between annotators on a page's metadata (title, authors, published): pure, no database.

Two annotators agree on a field when their values are the same after the field's normalisation, the one the
metadata metrics compare by (docs/metrics.md):

- title: whitespace collapsed and the ends trimmed (exact otherwise: case and punctuation count);
- authors: each name lower-cased, its whitespace collapsed and a leading "By " dropped, the names compared as
  a sorted list (their order does not count);
- published: the day (the date part of the ISO 8601 value, as written: its time and offset do not count).

"None on the page" agrees with "none on the page" and with nothing else. A pair counts for a field only when
both annotated it (a field not annotated by one of them says nothing). A page's figure of a field is the
share of its pairs that agree; the corpus figure the share over every pair counted, all pages together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

FIELDS = ("title", "authors", "published")  # annotation/article_metadata.py FIELDS, in the same order
BY = "by "


def normal_title(title: str) -> str:
    return " ".join(title.split())


def normal_name(name: str) -> str:
    name = " ".join(name.split()).lower()
    return name[len(BY):].strip() if name.startswith(BY) else name


def normal_authors(authors: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(normal_name(name) for name in authors))


def normal_day(published: str) -> str:
    return datetime.fromisoformat(published.strip()).date().isoformat()


NORMAL = {"title": normal_title, "authors": normal_authors, "published": normal_day}


def normal(field: str, value: Any) -> Any:
    """The value as the field's agreement compares it (None: none on the page)."""
    return None if value is None else NORMAL[field](value)


def field_agrees(field: str, a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool | None:
    """Whether the two agree on the field after its normalisation; None when one of them did not annotate it."""
    a, b = a or {}, b or {}
    if field not in a or field not in b:
        return None
    return normal(field, a[field]) == normal(field, b[field])


def pair_counts(pairs: Iterable[tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]]) -> dict[str, list[int]]:
    """field -> [pairs that agree, pairs counted] over these pairs of metadata."""
    counts = {field: [0, 0] for field in FIELDS}
    for a, b in pairs:
        for field in FIELDS:
            agrees = field_agrees(field, a, b)
            if agrees is not None:
                counts[field][0] += agrees
                counts[field][1] += 1
    return counts


def rates(counts: Mapping[str, list[int]]) -> dict[str, dict[str, Any]]:
    """field -> {"agreement": share of the pairs counted that agree (None: no pair), "pairs": pairs counted}."""
    return {field: {"agreement": agreed / counted if counted else None, "pairs": counted}
            for field, (agreed, counted) in counts.items()}
