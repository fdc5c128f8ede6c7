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


EXPECTED: dict[str, tuple[str, ...]] = {
    "article": FIELDS,
    "forum": FIELDS,  # the thread's title, its opening post's author and date
    "product": ("title",),
    "collection": ("title",),
    "listing": ("title",),
    "documentation": ("title",),
    "service": ("title",),
    "other": ("title",),
    "js-shell": (),
    "wall": (),
    "error": (),
}
"""The fields a page of each type is expected to have annotated (the guidelines in guideline_texts/ say the
same, under "Title, authors, date"): an expected field left unannotated is a check's finding
(scoring/gold_checks.py). A page type the default taxonomy does not name expects a title."""


def expected(page_type: str) -> tuple[str, ...]:
    """The fields a page of this type is expected to have annotated (EXPECTED)."""
    return EXPECTED.get(page_type, ("title",))


def stored(metadata: dict[str, Any] | None) -> dict[str, Any] | None:
    """The metadata as a column holds it: no field annotated is NULL."""
    return metadata or None


def differing(a: dict[str, Any] | None, b: dict[str, Any] | None) -> list[str]:
    """The fields (of FIELDS, in their order) on which two metadata objects say different things: a value
    against another value, against "none on the page" or against not annotated."""
    a, b = a or {}, b or {}
    return [name for name in FIELDS if (name in a, a.get(name)) != (name in b, b.get(name))]
