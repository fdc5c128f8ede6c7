"""Checks of the gold a layout carries beside the text: snippet gold and gold status."""

from __future__ import annotations

from typing import Any

from ..vocabulary import GOLD_STATUSES
from .streams import Unreadable

SNIPPET_KEYS = ("with", "without")


def snippet_lists(must: Any, must_not: Any) -> dict[str, list[str]]:
    """{"with": [...], "without": [...]} from two lists of strings (None: empty); Unreadable otherwise."""
    lists = {}
    for key, value in zip(SNIPPET_KEYS, (must, must_not)):
        value = [] if value is None else value
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise Unreadable(f"snippets {key!r} must be a list of strings")
        lists[key] = value
    return lists


def snippets_of(value: Any) -> dict[str, list[str]] | None:
    """Snippet gold from a {"with", "without"} object (None: none); Unreadable when malformed."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - set(SNIPPET_KEYS):
        raise Unreadable('snippets must be an object with "with" and "without" lists')
    return snippet_lists(value.get("with"), value.get("without"))


def status_of(value: Any) -> str | None:
    """A gold status (None: not given); Unreadable when it is not a known one."""
    if value is not None and value not in GOLD_STATUSES:
        raise Unreadable(f"unknown gold status {value!r} (known: {', '.join(GOLD_STATUSES)})")
    return value
