"""An article's metadata, annotated and scored beside its text: its title, its authors and its publication date.

One shape, in the gold (Gold, Annotation and their revisions: ``article_metadata``) and in every extraction
(Extraction ``article_metadata``), a JSON object keyed by field name:

- ``title``: a string;
- ``authors``: a list of names (one string each, in the page's order);
- ``published``: an ISO 8601 date, with an optional time (``2024-03-01``, ``2024-03-01T09:30``,
  ``2024-03-01T09:30:00+01:00``).

A field's key absent means "not known": in a gold, not annotated yet; in an extraction, the extractor does not
give that field (it is not scored on it). A field whose value is None means "none on the page": the annotator
says the page has no author, the extractor looked and found no date. The whole column NULL is every field
absent. An extraction may also give ``sitename`` and ``language`` (strings), which are kept and shown, not
scored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

FIELDS = ("title", "authors", "published")
"""The fields annotated and scored, in the order they are shown."""

EXTRA_FIELDS = ("sitename", "language")
"""What an extraction may give beside them: kept and shown, never scored."""


def checked(value: Any, *, extra: bool = False) -> dict[str, Any]:
    """`value` as a metadata object, every field in its shape; ValueError naming the field and the reason.
    `extra`: ``sitename`` and ``language`` are allowed too (an extraction's)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"metadata must be an object of fields, not {type(value).__name__}")
    allowed = FIELDS + EXTRA_FIELDS if extra else FIELDS
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        raise ValueError(f"metadata field {unknown[0]!r} is not one of {', '.join(allowed)}")
    out: dict[str, Any] = {}
    for field, given in value.items():
        out[field] = None if given is None else _checked_field(field, given)
    return out


def _checked_field(field: str, given: Any) -> Any:
    if field == "authors":
        if not isinstance(given, list) or not all(isinstance(name, str) for name in given):
            raise ValueError("metadata field 'authors' must be a list of names")
        names = [" ".join(name.split()) for name in given]
        if not all(names):
            raise ValueError("metadata field 'authors' has an empty name")
        return names or None
    if not isinstance(given, str):
        raise ValueError(f"metadata field {field!r} must be a string")
    text = " ".join(given.split())
    if field == "published":
        try:
            datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(f"metadata field 'published' is not an ISO 8601 date: {given!r}") from None
    return text or None
