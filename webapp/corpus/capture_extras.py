"""What a capture keeps of a page beside its raw response, stored with the page at import: its rendering in
Chromium (the DOM and its screenshot), the stylesheets, fonts and images of its styled snapshot, and, in the
page's facts (RENDERING_FACT), the length of its visible text raw and rendered, which the page-type
suggestion reads (a rendering much longer than the raw response: a JavaScript shell)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..models import Page, PageRendering, PageRequisite
from .document import RawDocument
from .visible_text import visible_text

RENDERING_FACT = "rendering"


def rendering_fact(raw_html: str, rendered_html: str) -> dict[str, Any]:
    """The visible text's length in characters, of the raw response and of the rendering."""
    return {"raw_text_chars": len(visible_text(raw_html)), "rendered_text_chars": len(visible_text(rendered_html))}


def store_capture_extras(session: Session, page: Page, doc: RawDocument) -> None:
    """The document's rendering and requisites, stored with its page (flushed); the page's facts say the
    text lengths. Nothing when the document carries neither."""
    if doc.rendered is not None:
        session.add(PageRendering(page_id=page.id, html=doc.rendered, screenshot=doc.screenshot))
        page.facts = {**page.facts, RENDERING_FACT: rendering_fact(page.html, doc.rendered)}
    seen: set[str] = set()
    for requisite in doc.requisites:
        if requisite.url not in seen:
            seen.add(requisite.url)
            session.add(PageRequisite(page_id=page.id, url=requisite.url, content_type=requisite.content_type[:255],
                                      data=requisite.data))
    if doc.rendered is not None or doc.requisites:
        session.flush()
