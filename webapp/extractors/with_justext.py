"""jusText: paragraphs it does not classify as boilerplate, with the page language's stoplist.

The thresholds are those Zyte's article-extraction-benchmark ran (extractors/run_justext.py:
`justext(html, stoplist, 50, 200, 0.1, 0.2, 0.2, 200, True)`), not the library's own defaults
(70, 200, 0.30, 0.32, 0.2, 200, False), which a variant may set back."""

from __future__ import annotations

import justext

from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import join_lines
from webapp.extractors.justext_stoplists import stoplist_name


def run_justext(
    html: str, url: str | None, *, length_low: int = 50, length_high: int = 200, stopwords_low: float = 0.1,
    stopwords_high: float = 0.2, max_link_density: float = 0.2, max_heading_distance: int = 200,
    no_headings: bool = True,
) -> Extracted:
    """Non-boilerplate paragraphs one per line; metadata names the stoplist used. The keyword arguments are
    jusText's classifier thresholds, set as the Zyte benchmark ran them."""
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
    version=f"{package_version('jusText')}, zyte-benchmark thresholds",
    func=run_justext,
    options={},
    description="jusText, stoplist chosen from the page's <html lang>",
)
