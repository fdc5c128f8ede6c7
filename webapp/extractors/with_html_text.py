"""html-text: all the page's visible text with the layout guessed, a whole-page baseline of the tables."""

from __future__ import annotations

from webapp.extractors.base import Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines


def run_html_text(
    html: str, url: str | None, *, guess_layout: bool = True, guess_punct_space: bool = True
) -> Extracted:
    """html_text.extract_text, one block per line."""
    import html_text

    text = html_text.extract_text(html, guess_layout=guess_layout, guess_punct_space=guess_punct_space)
    return Extracted(text=join_lines(text.splitlines()), metadata={})


VERSION, MISSING = optional_package("html-text")

HTML_TEXT = Extractor(
    name="html-text",
    version=VERSION,
    func=run_html_text,
    options={},
    description="html-text: every visible word of the page, its layout guessed (a baseline, no boilerplate removal)",
    unavailable_reason=MISSING,
)
