"""rs-trafilatura: a Rust reimplementation of trafilatura with a page-type classifier whose type picks the
extraction profile (article, forum, product, collection, listing, documentation, service).

On PyPI as a source distribution built with maturin and cargo (the `extractors` extra pins it); listed as
unavailable, saying how to build it, where it is not installed. Its defaults are the configuration Zyte's
article-extraction-benchmark ran (`rs_trafilatura::extract(html)`: the page alone, no URL).
"""

from __future__ import annotations

from webapp.extractors.base import EXTRA_HINT, Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines

BUILD_HINT = f"{EXTRA_HINT} (it builds from source: needs Rust's cargo 1.85 or later and a few minutes)"


def run_rs_trafilatura(
    html: str, url: str | None, *, use_url: bool = False, page_type: str = "", favor_precision: bool = False,
    favor_recall: bool = False, include_tables: bool = True, include_comments: bool = False,
) -> Extracted:
    """rs_trafilatura.extract's main_content; metadata: title, the page type it classified (or was given)
    and the classifier's confidence. `use_url` gives it the page's URL (a hint to its classifier);
    `page_type` forces a type, bypassing the classifier."""
    import rs_trafilatura

    result = rs_trafilatura.extract(
        html, url=url if use_url else None, page_type=page_type or None, favor_precision=favor_precision,
        favor_recall=favor_recall, include_tables=include_tables, include_comments=include_comments,
    )
    metadata = {"title": result.title or "", "page_type": result.page_type,
                "classification_confidence": result.classification_confidence}
    return Extracted(text=join_lines(result.main_content.splitlines()), metadata=metadata)


VERSION, MISSING = optional_package("rs-trafilatura", BUILD_HINT)

RS_TRAFILATURA = Extractor(
    name="rs-trafilatura",
    version=VERSION,
    func=run_rs_trafilatura,
    options={},
    description="rs-trafilatura, trafilatura reimplemented in Rust, with a page-type classifier choosing its profile",
    unavailable_reason=MISSING,
)
