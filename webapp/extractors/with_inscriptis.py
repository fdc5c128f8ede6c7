"""inscriptis: the whole page rendered as text the way a text-mode browser lays it out, a baseline of the tables."""

from __future__ import annotations

from webapp.extractors.base import Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines


def run_inscriptis(
    html: str, url: str | None, *, display_images: bool = False, deduplicate_captions: bool = False,
    display_links: bool = False, table_cell_separator: str = "  ",
) -> Extracted:
    """inscriptis.get_text, one block per line."""
    from inscriptis import get_text
    from inscriptis.model.config import ParserConfig

    config = ParserConfig(display_images=display_images, deduplicate_captions=deduplicate_captions,
                          display_links=display_links, table_cell_separator=table_cell_separator)
    return Extracted(text=join_lines(get_text(html, config).splitlines()), metadata={})


VERSION, MISSING = optional_package("inscriptis")

INSCRIPTIS = Extractor(
    name="inscriptis",
    version=VERSION,
    func=run_inscriptis,
    options={},
    description="inscriptis: the whole page as a text-mode browser lays it out (a baseline, no boilerplate removal)",
    unavailable_reason=MISSING,
)
