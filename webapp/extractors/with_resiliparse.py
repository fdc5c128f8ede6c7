"""Resiliparse's plain-text extraction in its main-content mode (the Zyte, WCEB and WCXB tables' "Resiliparse").

The defaults are the library's, main-content mode on, as Zyte's benchmark ran it
(`extract_plain_text(html, main_content=True)`): list bullets, alt texts and comment sections kept. Leaner
settings (alt_texts=false, comments=false) are variants of their own (docs/extractors.md)."""

from __future__ import annotations

from webapp.extractors.base import Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines


def run_resiliparse(
    html: str, url: str | None, *, main_content: bool = True, list_bullets: bool = True, alt_texts: bool = True,
    links: bool = False, form_fields: bool = False, noscript: bool = False, comments: bool = True,
) -> Extracted:
    """extract_plain_text with formatting kept, one block per line."""
    from resiliparse.extract.html2text import extract_plain_text

    text = extract_plain_text(
        html, preserve_formatting=True, main_content=main_content, list_bullets=list_bullets,
        alt_texts=alt_texts, links=links, form_fields=form_fields, noscript=noscript, comments=comments,
    )
    return Extracted(text=join_lines(text.splitlines()), metadata={})


VERSION, MISSING = optional_package("resiliparse")

RESILIPARSE = Extractor(
    name="resiliparse",
    version=f"{VERSION}, library defaults",
    func=run_resiliparse,
    options={},
    description="Resiliparse's extract_plain_text in main-content mode, otherwise the library's defaults "
                "(a fast rule-based DOM pruner)",
    unavailable_reason=MISSING,
)
