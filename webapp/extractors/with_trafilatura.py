"""trafilatura's extraction in four settings; comments are never article text, so always excluded.

One extraction gives both outputs: the text is what `trafilatura.extract` returns (its `xmltotxt` of the
tree kept), and the Markdown is trafilatura's own rendering of the same tree with its formatting
(headings, lists, tables, code, emphasis), so that keeping Markdown costs no second extraction and leaves
the text as it was. Its metadata (title, author, date, sitename) is trafilatura's own `with_metadata` extraction of
the same call: the date by htmldate, as trafilatura's settings run it (extensive search on)."""

from __future__ import annotations

from trafilatura.core import bare_extraction
from trafilatura.settings import DEFAULT_CONFIG, Document
from trafilatura.settings import Extractor as Options
from trafilatura.xml import xmltotxt

from webapp.extractors.article_fields import article_fields, none_found
from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import join_lines
from webapp.extractors.kept_markdown import tidy


def run_trafilatura(
    html: str, url: str | None, *, fast: bool = False, favor_precision: bool = False, favor_recall: bool = False,
    include_tables: bool = True, deduplicate: bool = False, target_language: str | None = None,
    prune_xpath: str | None = None,
) -> Extracted:
    """trafilatura.extract's plain text and trafilatura's Markdown of the same extraction; no result gives
    empty text. The keyword arguments are extract()'s that a variant may set (prune_xpath: one XPath
    expression of elements to remove first). trafilatura 2 refuses its own `max_tree_size` argument (it moved
    to settings.cfg), so it is not offered."""
    options = Options(config=DEFAULT_CONFIG, output_format="txt", fast=fast, precision=favor_precision,
                      recall=favor_recall, comments=False, tables=include_tables, dedup=deduplicate,
                      lang=target_language, url=url, with_metadata=True)
    document = bare_extraction(html, options=options, as_dict=False, prune_xpath=prune_xpath)
    if not isinstance(document, Document):
        return Extracted(text="", metadata={}, markdown="", article_metadata=none_found(ARTICLE_FIELDS))
    if document.body is None:
        return Extracted(text="", metadata={}, markdown="", article_metadata=article_of(document))
    return Extracted(text=join_lines(xmltotxt(document.body, False).splitlines()), metadata={},
                     markdown=tidy(xmltotxt(document.body, True)), article_metadata=article_of(document))


def article_of(document: Document) -> dict:
    """trafilatura's metadata of the page: its title, authors (its own `; `-separated string), date and sitename."""
    return article_fields(title=document.title, authors=document.author, published=document.date,
                          sitename=document.sitename)


ARTICLE_FIELDS = ("title", "authors", "published", "sitename")


VERSION = f"{package_version('trafilatura')}, goldtext-markdown 1"

TRAFILATURA = Extractor(
    name="trafilatura",
    version=VERSION,
    func=run_trafilatura,
    options={},
    structure=True,
    article_fields=ARTICLE_FIELDS,
    description="trafilatura with its default balance of precision and recall",
)
TRAFILATURA_PRECISION = Extractor(
    name="trafilatura-precision",
    version=VERSION,
    func=run_trafilatura,
    options={"favor_precision": True},
    structure=True,
    article_fields=ARTICLE_FIELDS,
    description="trafilatura favouring precision: less boilerplate, may lose text",
)
TRAFILATURA_RECALL = Extractor(
    name="trafilatura-recall",
    version=VERSION,
    func=run_trafilatura,
    options={"favor_recall": True},
    structure=True,
    article_fields=ARTICLE_FIELDS,
    description="trafilatura favouring recall: more text, may keep boilerplate",
)
TRAFILATURA_FAST = Extractor(
    name="trafilatura-fast",
    version=VERSION,
    func=run_trafilatura,
    options={"fast": True},
    structure=True,
    article_fields=ARTICLE_FIELDS,
    description="trafilatura without its fallback extractors (faster)",
)
