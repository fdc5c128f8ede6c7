"""goose3: Goose.extract(raw_html=...) on the saved HTML. Nothing is fetched: image fetching is off, and the
URL is never passed (goose3 fetches the URL when the HTML is empty).

Its Markdown is that of `article.top_node` as goose3 leaves it: the node its cleaned text is written from, after
its post-cleanup and its formatter (links, bold and italics unwrapped; paragraphs of fewer than three stopwords,
short headings among them, removed; tables without paragraphs removed). Its `top_node_raw_html`, the node before
that cleanup, would give structure around text that goose3's own text leaves out. The formatter's two marks
for its text are read back as the structure they stand for: the `\\n` it writes for a `<br>` is a line break
again, and the `• ` it puts before a list item's text is left to the list.
"""

from __future__ import annotations

from lxml import etree

from webapp.extractors.article_fields import article_fields, none_found
from webapp.extractors.base import Extracted, Extractor, optional_package
from webapp.extractors.blocks import join_lines
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown

BREAK = "\\n"
"""What goose3's formatter writes for a `<br>` (a backslash and an n, which its text splits lines at)."""
BULLET = "• "
"""What goose3's formatter puts before the text of every list item."""


def run_goose(
    html: str, url: str | None, *, target_language: str = "en", use_meta_language: bool = True,
    parser_class: str = "lxml", parse_lists: bool = True, keep_footnotes: bool = True,
) -> Extracted:
    """goose3's cleaned text, one paragraph per line (empty for a blank page); metadata: its title; the article's
    metadata: its title, authors, publication date (as the page writes it, read as a date) and language."""
    from goose3 import Goose

    if not html.strip():
        return Extracted(text="", metadata={"title": ""}, article_metadata=none_found(ARTICLE_FIELDS))

    config = {
        "enable_image_fetching": False, "target_language": target_language,
        "use_meta_language": use_meta_language, "parser_class": parser_class,
        "parse_lists": parse_lists, "keep_footnotes": keep_footnotes,
    }
    with Goose(config) as goose:
        article = goose.extract(raw_html=html)
    markdown = "" if article.top_node is None else html_markdown(unformatted(article.top_node))
    return Extracted(text=join_lines(article.cleaned_text.splitlines()), metadata={"title": article.title},
                     markdown=markdown,
                     article_metadata=article_fields(title=article.title, authors=article.authors,
                                                     published=article.publish_date, language=article.meta_lang))


def unformatted(node: etree._Element) -> etree._Element:
    """goose3's top node with its formatter's marks read back (in place): `<br>` for each `\\n`, list items
    without the bullet; the text after the node is not part of it."""
    node.tail = None
    for element in list(node.iter()):
        if element.tag == "li" and (element.text or "").startswith(BULLET):
            element.text = element.text[len(BULLET):]
        if BREAK in (element.text or ""):
            first, *rest = element.text.split(BREAK)
            element.text = first
            for index, after in enumerate(rest):
                element.insert(index, line_break(after))
        if element is not node and BREAK in (element.tail or ""):
            first, *rest = element.tail.split(BREAK)
            element.tail = first
            for after in reversed(rest):
                element.addnext(line_break(after))
    return node


def line_break(tail: str) -> etree._Element:
    """A `<br>` followed by the text."""
    element = etree.Element("br")
    element.tail = tail
    return element


ARTICLE_FIELDS = ("title", "authors", "published", "language")


VERSION, MISSING = optional_package("goose3")

GOOSE = Extractor(
    name="goose3",
    version=VERSION if MISSING else f"{VERSION}, {MARKDOWN_VERSION}",  # its Markdown is html-to-markdown's
    func=run_goose,
    options={},
    structure=True,
    article_fields=ARTICLE_FIELDS,
    description="goose3, a Python port of Goose (stopword-density node scoring)",
    unavailable_reason=MISSING,
)
