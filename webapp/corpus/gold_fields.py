"""The vocabulary's checks as a reader reports them: a page type, gold status or snippet gold that the
vocabulary refuses makes the item Unreadable, with the vocabulary's reason. A page type is checked here as
a type's name only: the importer checks it against the taxonomy of the settings in force. A gold given as
text and as Markdown is passed on as `gold_views` says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..foundation import vocabulary
from ..scoring.markdown_text import markdown_of_text, plain_text
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


def gold_views(text: str | None, markdown: str | None, text_source: Any = None,
               where: str = "") -> tuple[str | None, str | None]:
    """The gold's text and Markdown as a document passes them on (None: made from the other), from what a
    source gives: both as given, unless it names their ``text_source`` (a Goldtext export does), which
    keeps a gold as it was: ``derived`` passes the Markdown alone, ``flat`` the text alone, ``given`` both.
    Unreadable when the named source does not hold: the view it says was made is missing, or is not what
    it is made from."""
    source = _read(vocabulary.checked_text_source, text_source, where)
    if source == vocabulary.DERIVED:
        if markdown is None or (text is not None and text != plain_text(markdown)):
            raise Unreadable(f"its text_source {source!r}{_at(where)} needs a Markdown gold whose plain text is "
                             "its text")
        return None, markdown
    if source == vocabulary.FLAT:
        if text is None or (markdown is not None and markdown != markdown_of_text(text)):
            raise Unreadable(f"its text_source {source!r}{_at(where)} needs a gold text whose escaped Markdown "
                             "is its Markdown")
        return text, None
    if source == vocabulary.GIVEN and (text is None or markdown is None):
        raise Unreadable(f"its text_source {source!r}{_at(where)} needs both a gold text and a Markdown gold")
    return text, markdown


def _at(where: str) -> str:
    return f" {where}" if where else ""
