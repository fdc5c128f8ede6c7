"""The words a page's gold is described in: page kinds, gold statuses and snippet keys, and the one place
that checks them. Readers, the gold save, the API, filters and forms all take these from here."""

from __future__ import annotations

from typing import Any

ARTICLE = "article"

PAGE_KINDS: dict[str, str] = {
    ARTICLE: "article",
    "listing": "listing",
    "js-shell": "JavaScript shell",
    "wall": "paywall or consent wall",
    "not-article": "not an article",
    "other": "other",
    # WCXB's page types (besides article and listing), and error apart from other
    "forum": "forum",
    "product": "product",
    "collection": "collection",
    "documentation": "documentation",
    "service": "service",
    "error": "error",
}

NO_CONTENT_KINDS = frozenset({"js-shell", "wall", "error", "other", "not-article"})
"""Kinds of page that have no main content: scored by the accept guard only, never by the text metrics.
(`not-article` is today's kind for such pages, until the page-type migration maps it.)"""

DONE = "done"
"""The status of finished gold: the only gold that is scored."""

GOLD_STATUSES: dict[str, str] = {
    DONE: "done",
    "draft": "draft",
    "skipped": "skipped",
}

TODO = "todo"
"""A page without gold, in the queue's status filter beside the gold statuses."""

QUEUE_STATUSES = (TODO, *GOLD_STATUSES)

SNIPPET_KEYS = ("with", "without")
"""Snippet gold: text the main content must include ("with") and must not include ("without")."""


class UnknownTerm(ValueError):
    """A page kind, gold status or snippet gold that is not in the vocabulary; the message names it."""


def is_article(kind: str | None) -> bool:
    """A page without a kind is taken to be an article."""
    return kind in (None, ARTICLE)


def _checked(value: str | None, known: dict[str, str], what: str, where: str) -> str | None:
    if value is not None and value not in known:
        place = f" {where}" if where else ""
        raise UnknownTerm(f"unknown {what} {value!r}{place} (known: {', '.join(known)})")
    return value


def checked_kind(value: str | None, where: str = "") -> str | None:
    """The page kind (None: not given); UnknownTerm naming it and `where` it was found otherwise."""
    return _checked(value, PAGE_KINDS, "page kind", where)


def checked_status(value: str | None, where: str = "") -> str | None:
    """The gold status (None: not given); UnknownTerm naming it and `where` it was found otherwise."""
    return _checked(value, GOLD_STATUSES, "gold status", where)


def snippet_lists(must: Any, must_not: Any) -> dict[str, list[str]]:
    """{"with": [...], "without": [...]} from two lists of strings (None: empty); UnknownTerm otherwise."""
    lists = {}
    for key, value in zip(SNIPPET_KEYS, (must, must_not)):
        value = [] if value is None else value
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise UnknownTerm(f"snippets {key!r} must be a list of strings")
        lists[key] = value
    return lists


def checked_snippets(value: Any) -> dict[str, list[str]] | None:
    """Snippet gold from a {"with", "without"} object (None: none); UnknownTerm when malformed."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - set(SNIPPET_KEYS):
        raise UnknownTerm('snippets must be an object with "with" and "without" lists of strings')
    return snippet_lists(value.get("with"), value.get("without"))
