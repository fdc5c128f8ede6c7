"""jusText: paragraphs it does not classify as boilerplate, with the page language's stoplist."""

from __future__ import annotations

import justext

from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import join_lines
from webapp.extractors.justext_stoplists import stoplist_name


def run_justext(html: str, url: str | None) -> Extracted:
    """Non-boilerplate paragraphs one per line; metadata names the stoplist used."""
    stoplist = stoplist_name(html)
    paragraphs = justext.justext(html, justext.get_stoplist(stoplist))
    text = join_lines(p.text for p in paragraphs if not p.is_boilerplate)
    return Extracted(text=text, metadata={"stoplist": stoplist})


JUSTEXT = Extractor(
    name="justext",
    version=package_version("jusText"),
    func=run_justext,
    options={},
    description="jusText, stoplist chosen from the page's <html lang>",
)
