"""The one check of what a gold or an annotation says, whichever face sent it: the size of its text
(GOLD_MAX_BYTES), its page type (the taxonomy in force), its status and its snippets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..settings import Settings
from ..vocabulary import UnknownTerm, checked_page_type, checked_snippets, checked_status
from .outcome import Refused


@dataclass(frozen=True)
class Fields:
    text: str
    page_type: str
    status: str
    snippets: dict[str, list[str]] | None  # None: keep the current snippets (a save), or none


def too_large(settings: Settings, text: str) -> Refused | None:
    """Refused (413) when the text is over GOLD_MAX_BYTES in UTF-8, else None."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= settings.gold_max_bytes:
        return None
    return Refused(413, f"The text is {size:,} bytes; at most {settings.gold_max_bytes:,} (GOLD_MAX_BYTES) are "
                        "stored: nothing was saved. Keep the page's main text only.")


def checked_fields(settings: Settings, *, text: str, page_type: str, status: str, snippets: Any) -> Fields:
    """The fields if the settings take them; Refused (400, or 413 for a text too large) naming what is wrong."""
    large = too_large(settings, text)
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
    return Fields(text, page_type, status, cleaned)
