"""The one check of what a gold or an annotation says, whichever face sent it: the size of its Markdown
(GOLD_MAX_BYTES), its page type (the taxonomy in force), its status, its snippets and its article metadata
(title, authors, published: annotation/article_metadata.py `checked`).

A save sends the gold as Markdown (`markdown`), and its plain text is derived from it; a body with only
`text` (the API before golds were Markdown) is taken as that text, its Markdown escaped from it
(annotation/gold_markdown.py `views_of`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..annotation.article_metadata import checked
from ..annotation.gold_markdown import GoldViews, views_of
from ..foundation.settings import Settings
from ..foundation.vocabulary import UnknownTerm, checked_page_type, checked_snippets, checked_status
from .outcome import Refused


@dataclass(frozen=True)
class Fields:
    views: GoldViews  # the Markdown and its plain text
    page_type: str
    status: str
    snippets: dict[str, list[str]] | None  # None: keep the current snippets (a save), or none
    metadata: dict[str, Any] | None = None  # None: keep the current metadata (a save), or none annotated

    @property
    def text(self) -> str:
        return self.views.text


def saved_views(markdown: str | None, text: str | None) -> GoldViews:
    """The views of what a person saved: the Markdown, its plain text derived from it; with no Markdown,
    the text (the API's compatibility path); Refused (400) with neither."""
    if markdown is not None:
        return views_of(markdown=markdown.replace("\r\n", "\n"))
    if text is not None:
        return views_of(text=text)
    raise Refused(400, "'markdown' is a required property (or, for older clients, 'text').")


def too_large(settings: Settings, markdown: str) -> Refused | None:
    """Refused (413) when the Markdown is over GOLD_MAX_BYTES in UTF-8, else None."""
    size = len(markdown.encode("utf-8", "surrogatepass"))
    if size <= settings.gold_max_bytes:
        return None
    return Refused(413, f"The Markdown is {size:,} bytes; at most {settings.gold_max_bytes:,} (GOLD_MAX_BYTES) are "
                        "stored: nothing was saved. Keep the page's main text only.")


def checked_fields(settings: Settings, *, views: GoldViews, page_type: str, status: str, snippets: Any,
                   metadata: Any = None) -> Fields:
    """The fields if the settings take them; Refused (400, or 413 for a Markdown too large) naming what is
    wrong. ``metadata`` None: not sent (a save keeps the current fields)."""
    large = too_large(settings, views.markdown)
    if large is not None:
        raise large
    try:
        checked_page_type(page_type, settings.taxonomy)
        checked_status(status)
    except UnknownTerm as error:
        raise Refused(400, f"{error}.") from None
    try:
        cleaned = checked_snippets(snippets)
    except UnknownTerm as error:
        raise Refused(400, f"'snippets': {error}.") from None
    return Fields(views, page_type, status, cleaned, None if metadata is None else checked_metadata(metadata))


def checked_metadata(metadata: Any) -> dict[str, Any]:
    """The article metadata in its shape; Refused (400) naming the field and what is wrong."""
    try:
        return checked(metadata)
    except ValueError as error:
        raise Refused(400, f"'metadata': {error}.") from None
