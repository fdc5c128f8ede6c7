"""What the writers of the benchmark layouts that name files after page ids share (WCXB, WCEB): the ids
they write, and each extractor's prediction for a page."""

from __future__ import annotations

from collections.abc import Mapping

from ..corpus.wceb_reader import PLAIN_NAME
from .selection import ExportedPage


class PageIds:
    """The id each page gets in a layout: the id it had there when it was imported from that layout (so an
    export writes the same ids), else its SHA-256; never one id twice, never one unsafe as a file name."""

    def __init__(self, layout: str) -> None:
        self._layout = layout
        self._used: set[str] = set()

    def of(self, page: ExportedPage) -> str:
        kept = page.layout.get("id") if page.layout.get("name") == self._layout else None
        found = kept if isinstance(kept, str) and PLAIN_NAME.fullmatch(kept) and kept not in self._used else None
        if found is None:
            found = page.sha256 if page.sha256 not in self._used else f"{page.sha256}-{page.id}"
        self._used.add(found)
        return found


def predicted(page: ExportedPage, predictions: Mapping[str, str], markdown: bool = False) -> dict[str, str]:
    """Extractor name -> its text (``markdown``: its Markdown) of the page, at the extractor's current
    fingerprint (`predictions`: name -> fingerprint), for the extractors that have such an extraction; a
    failed extraction is an empty text (what the benchmarks' own runners write for an extractor that fails)."""
    texts = {e.fingerprint: ("" if e.error is not None else (e.markdown or "") if markdown else e.text)
             for e in page.extractions}
    return {name: texts[fingerprint] for name, fingerprint in predictions.items() if fingerprint in texts}
