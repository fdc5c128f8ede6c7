"""jusText: paragraphs it does not classify as boilerplate, with the page language's stoplist."""

from __future__ import annotations

import justext

from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import join_lines
from webapp.extractors.justext_stoplists import stoplist_name


def run_justext(
    html: str, url: str | None, *, length_low: int = 70, length_high: int = 200, stopwords_low: float = 0.30,
    stopwords_high: float = 0.32, max_link_density: float = 0.2, max_heading_distance: int = 200,
    no_headings: bool = False,
) -> Extracted:
    """Non-boilerplate paragraphs one per line; metadata names the stoplist used. The keyword arguments are
    jusText's classifier thresholds, with its defaults."""
    stoplist = stoplist_name(html)
    paragraphs = justext.justext(
        html, justext.get_stoplist(stoplist), length_low=length_low, length_high=length_high,
        stopwords_low=stopwords_low, stopwords_high=stopwords_high, max_link_density=max_link_density,
        max_heading_distance=max_heading_distance, no_headings=no_headings,
    )
    text = join_lines(p.text for p in paragraphs if not p.is_boilerplate)
    return Extracted(text=text, metadata={"stoplist": stoplist})


JUSTEXT = Extractor(
    name="justext",
    version=package_version("jusText"),
    func=run_justext,
    options={},
    description="jusText, stoplist chosen from the page's <html lang>",
)
