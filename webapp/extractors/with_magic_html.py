"""magic-html (OpenDataLab): the main-content HTML its extractors keep, then its visible text, one block per line.

magic-html requires Python 3.12 or later: on an older Python the extra leaves it out and the extractor is listed
as unavailable, saying so.
"""

from __future__ import annotations

import sys

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.base import EXTRA_HINT, Extracted, Extractor, optional_package
from webapp.extractors.blocks import BLOCKS_VERSION


def run_magic_html(html: str, url: str | None, *, html_type: str = "article") -> Extracted:
    """GeneralExtractor().extract(html, html_type=...) ("article", "forum" or "weixin"); metadata: its title.
    A blank page is empty text (magic-html raises a bare ValueError on one)."""
    from magic_html import GeneralExtractor

    if not html.strip():
        return Extracted(text="", metadata={"title": ""})
    found = GeneralExtractor().extract(html, base_url=url or "", html_type=html_type)
    content = found.get("html") or ""
    text = block_text(parse_html(content)) if content.strip() else ""
    return Extracted(text=text, metadata={"title": found.get("title") or ""})


def install_hint(python: tuple[int, int] = sys.version_info[:2]) -> str:
    """The extra's hint, and that it takes Python 3.12 where this one is older."""
    if python < (3, 12):
        return f"it requires Python 3.12 or later (this is {python[0]}.{python[1]}), then {EXTRA_HINT}"
    return EXTRA_HINT


VERSION, MISSING = optional_package("magic-html", install_hint())

MAGIC_HTML = Extractor(
    name="magic-html",
    version=f"{VERSION}, {BLOCKS_VERSION}",
    func=run_magic_html,
    options={},
    description="magic-html (OpenDataLab), main-content HTML by node scoring, article layout by default",
    unavailable_reason=MISSING,
)
