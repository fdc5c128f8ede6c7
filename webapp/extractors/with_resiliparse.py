"""Resiliparse's plain-text extraction in its main-content mode (the WCEB and WCXB tables' "Resiliparse")."""

from __future__ import annotations

from webapp.extractors.base import Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines


def run_resiliparse(
    html: str, url: str | None, *, main_content: bool = True, list_bullets: bool = False, alt_texts: bool = False,
    links: bool = False, form_fields: bool = False, noscript: bool = False, comments: bool = False,
) -> Extracted:
    """extract_plain_text with formatting kept, one block per line; comments are not main content."""
    from resiliparse.extract.html2text import extract_plain_text

    text = extract_plain_text(
        html, preserve_formatting=True, main_content=main_content, list_bullets=list_bullets,
        alt_texts=alt_texts, links=links, form_fields=form_fields, noscript=noscript, comments=comments,
    )
    return Extracted(text=join_lines(text.splitlines()), metadata={})


VERSION, MISSING = optional_package("resiliparse")

RESILIPARSE = Extractor(
    name="resiliparse",
    version=VERSION,
    func=run_resiliparse,
    options={},
    description="Resiliparse's extract_plain_text in main-content mode (a fast rule-based DOM pruner)",
    unavailable_reason=MISSING,
)
