"""The vocabulary's checks as a reader reports them: a page type, gold status or snippet gold that the
vocabulary refuses makes the item Unreadable, with the vocabulary's reason. A page type is checked here as
a type's name only: the importer checks it against the taxonomy of the settings in force."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .. import vocabulary
from .streams import Unreadable

T = TypeVar("T")


def _read(check: Callable[..., T], *args: Any) -> T:
    try:
        return check(*args)
    except vocabulary.UnknownTerm as error:
        raise Unreadable(str(error)) from None


def type_of(value: Any, where: str = "") -> str | None:
    return _read(vocabulary.checked_page_type_name, value, where)


def status_of(value: Any) -> str | None:
    return _read(vocabulary.checked_status, value)


def snippets_of(value: Any) -> dict[str, list[str]] | None:
    return _read(vocabulary.checked_snippets, value)


def snippet_lists(must: Any, must_not: Any) -> dict[str, list[str]]:
    return _read(vocabulary.snippet_lists, must, must_not)
