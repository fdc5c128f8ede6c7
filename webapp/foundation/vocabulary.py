"""The words a page's gold is described in: page types (the taxonomy), gold statuses, snippet keys and
text sources, and the one place that checks them. Readers, the gold save, the API, filters and forms all take these
from here.

The page types are a setting (PAGE_TYPES, NO_CONTENT_TYPES, GUARD_ACCEPT_TYPES): an app builds its
Taxonomy once, at its creation (webapp/foundation/settings.py), and passes it to every check that needs it
(`checked_page_type`). A reader, which knows no settings, checks only that a type is a type's name
(`checked_page_type_name`); the importer then checks it against the taxonomy in force."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ARTICLE = "article"

DEFAULT_PAGE_TYPES: dict[str, str] = {
    ARTICLE: "article",
    "forum": "forum or discussion thread",
    "product": "product page",
    "collection": "collection or category page",
    "listing": "listing (front page, index of posts)",
    "documentation": "documentation",
    "service": "service or company page",
    "js-shell": "JavaScript shell",
    "wall": "paywall or consent wall",
    "error": "error page",
    "other": "other",
}
"""The default taxonomy, in menu order, with each type's label; a configured type of another name is
labelled with its name."""

DEFAULT_NO_CONTENT_TYPES = ("js-shell", "wall", "error", "other")
"""The default types of page that have no main content: the accept guard alone judges extractors there."""

DEFAULT_ACCEPT_TYPES = (ARTICLE,)
"""The default types the pipeline should accept: the accept guard's confusion matrix is taken against them."""

TYPE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
"""A configured type's name: lower-case letters, digits and hyphens, at most 32 characters (Gold.page_type)."""


@dataclass(frozen=True)
class Taxonomy:
    """The page types in force (`page_types`, in menu order), those with no main content and those the
    pipeline should accept. A page without a type is an article."""

    page_types: tuple[str, ...]
    no_content: frozenset[str]
    accept: frozenset[str]

    @property
    def labels(self) -> dict[str, str]:
        """Type -> label, in menu order."""
        return {page_type: DEFAULT_PAGE_TYPES.get(page_type, page_type) for page_type in self.page_types}

    def has_content(self, page_type: str | None) -> bool:
        return (page_type or ARTICLE) not in self.no_content

    def accepts(self, page_type: str | None) -> bool:
        """Whether the pipeline should accept a page of this type."""
        return (page_type or ARTICLE) in self.accept


def taxonomy(page_types: Iterable[str], no_content: Iterable[str], accept: Iterable[str]) -> Taxonomy:
    """The taxonomy of these settings; ValueError naming the setting that is wrong."""
    page_types, no_content, accept = tuple(page_types), frozenset(no_content), frozenset(accept)
    bad = [page_type for page_type in page_types if not TYPE_NAME.fullmatch(page_type)]
    if bad:
        raise ValueError(f"PAGE_TYPES: {', '.join(map(repr, bad))} is not a type name (lower-case letters, "
                         "digits and hyphens, at most 32 characters)")
    if len(set(page_types)) != len(page_types):
        raise ValueError("PAGE_TYPES names a type twice")
    if ARTICLE not in page_types:
        raise ValueError(f"PAGE_TYPES must include {ARTICLE!r}: a page without a type is an article")
    for setting, names in (("NO_CONTENT_TYPES", no_content), ("GUARD_ACCEPT_TYPES", accept)):
        unknown = sorted(names - set(page_types))
        if unknown:
            raise ValueError(f"{setting} names {', '.join(unknown)}, not in PAGE_TYPES")
    return Taxonomy(page_types, no_content, accept)


DEFAULT_TAXONOMY = taxonomy(DEFAULT_PAGE_TYPES, DEFAULT_NO_CONTENT_TYPES, DEFAULT_ACCEPT_TYPES)


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

DERIVED = "derived"
GIVEN = "given"
FLAT = "flat"
TEXT_SOURCES: dict[str, str] = {
    DERIVED: "the plain text is the Markdown's, derived from it",
    GIVEN: "the plain text was given apart from the Markdown (a benchmark's two golds)",
    FLAT: "the plain text was given alone; the Markdown is it, escaped",
}
"""Where a gold's plain text came from, beside its Markdown (annotation/gold_markdown.py)."""


class UnknownTerm(ValueError):
    """A page type, gold status or snippet gold that is not in the vocabulary; the message names it."""


def _checked(value: str | None, known: dict[str, str], what: str, where: str) -> str | None:
    if value is not None and value not in known:
        place = f" {where}" if where else ""
        raise UnknownTerm(f"unknown {what} {value!r}{place} (known: {', '.join(known)})")
    return value


def checked_page_type(value: str | None, taxonomy: Taxonomy, where: str = "") -> str | None:
    """The page type (None: not given) if the taxonomy in force has it; UnknownTerm naming it and `where`
    it was found otherwise."""
    return _checked(value, taxonomy.labels, "page type", where)


def checked_page_type_name(value: Any, where: str = "") -> str | None:
    """The page type (None: not given) if it is a type's name (what a reader can check without the
    settings: the importer checks it against the taxonomy); UnknownTerm naming it otherwise."""
    if value is None or (isinstance(value, str) and TYPE_NAME.fullmatch(value)):
        return value
    place = f" {where}" if where else ""
    raise UnknownTerm(f"unknown page type {value!r}{place} (a type is lower-case letters, digits and hyphens)")


def checked_text_source(value: str | None, where: str = "") -> str | None:
    """The text source (None: not given); UnknownTerm naming it and `where` it was found otherwise."""
    return _checked(value, TEXT_SOURCES, "text source", where)


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
