"""Property: any gold text, snippets, type, status and raw bytes written by the jsonl and folder writers
come back from their readers exactly, and so do the gold of the WCXB and WCEB writers and the page's text,
and a gold's Markdown and text with where the text came from through every layout that holds Markdown
(no database: writer -> files -> reader)."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from webapp.annotation.gold_markdown import GoldViews, views_of
from webapp.corpus.decoding import decode
from webapp.corpus.document import Limits, RawDocument
from webapp.corpus.readers import READERS
from webapp.exports.folder_writer import FolderWriter
from webapp.exports.jsonl_writer import FILE, JsonlWriter
from webapp.exports.selection import ExportedPage, GoldRecord
from webapp.exports.wceb_writer import WcebWriter
from webapp.exports.wcxb_writer import WcxbWriter
from webapp.exports.webmainbench_writer import WebmainbenchWriter
from webapp.exports.writer import WriterOptions
from webapp.foundation.vocabulary import DEFAULT_PAGE_TYPES, GOLD_STATUSES, TEXT_SOURCES

WHEN = datetime(2026, 1, 2, tzinfo=UTC)
texts = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"))
snippet_gold = st.none() | st.fixed_dictionaries(
    {"with": st.lists(texts, max_size=3), "without": st.lists(texts, max_size=3)}
)
ENCODINGS = ("utf-8", "windows-1252", "utf-16-le", "cp932", "iso-8859-7")


def exported(gold: str, snippets, page_type: str, status: str, raw: bytes, encoding: str,
             url: str | None) -> ExportedPage:
    record = GoldRecord(gold, page_type, status, snippets, ("Ann",), 1, WHEN)
    return ExportedPage(7, url, "site.example", "0" * 64, encoding, WHEN, raw, record, ())


def round_trip(writer, reader: str, page: ExportedPage, path: str) -> RawDocument:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        target = writer(out, WriterOptions())
        target.add(page)
        target.close()
        (document,) = list(READERS[reader](str(out / path), Limits()))
    assert isinstance(document, RawDocument), document
    return document


@settings(max_examples=60, deadline=None)
@given(gold=texts, snippets=snippet_gold, page_type=st.sampled_from(list(DEFAULT_PAGE_TYPES)),
       status=st.sampled_from(list(GOLD_STATUSES)), raw=st.binary(min_size=1), encoding=st.sampled_from(ENCODINGS),
       url=st.none() | st.just("https://site.example/a?b=1#c"))
@example(gold="a\r\nb\u2028c\u2029\x85\u202eשלום 😀\ufeff\x07", snippets={"with": ["\u2028"], "without": []},
         page_type="article", status="draft", raw="<p>é\r\n</p>".encode("cp1252"), encoding="windows-1252", url=None)
@example(gold="", snippets=None, page_type="wall", status="done", raw=b"\xef\xbb\xbf<p>\xc3", encoding="utf-8",
         url=None)
def test_jsonl_and_folder_give_back_exactly_what_they_wrote(gold, snippets, page_type, status, raw, encoding, url):
    page = exported(gold, snippets, page_type, status, raw, encoding, url)
    for writer, reader, path in ((JsonlWriter, "jsonl", FILE), (FolderWriter, "folder", "")):
        document = round_trip(writer, reader, page, path)
        got = (document.data, document.gold, document.snippets, document.page_type, document.status, document.url)
        assert got == (raw, gold, snippets, page_type, status, url), reader


@settings(max_examples=40, deadline=None)
@given(gold=texts, snippets=snippet_gold, page_type=st.sampled_from(list(DEFAULT_PAGE_TYPES)),
       status=st.sampled_from(list(GOLD_STATUSES)), raw=st.binary(min_size=1), encoding=st.sampled_from(ENCODINGS),
       url=st.none() | st.just("https://site.example/a?b=1#c"))
@example(gold="", snippets={"with": [], "without": []}, page_type="collection", status="done", raw=b"<p>\xc3\xa9</p>",
         encoding="utf-8", url=None)
def test_wcxb_and_wceb_give_back_the_gold_and_the_page_text(gold, snippets, page_type, status, raw, encoding, url):
    page = exported(gold, snippets, page_type, status, raw, encoding, url)
    no_lists = snippets if snippets and any(snippets.values()) else None  # empty snippet lists are no snippet gold
    wcxb = round_trip(WcxbWriter, "wcxb", page, "")
    assert (wcxb.data, wcxb.gold, wcxb.snippets, wcxb.page_type, wcxb.status, wcxb.url) == (
        raw, gold, no_lists, page_type, status, url)
    wceb = round_trip(WcebWriter, "wceb", page, "")
    assert (wceb.gold, wceb.snippets, wceb.page_type, wceb.status, wceb.url) == (gold, snippets, page_type, status, url)
    text = raw.decode(encoding, "replace").removeprefix("\ufeff")  # the page's text in its recorded encoding
    assert decode(wceb.data, wceb.charset).text == text  # WCEB's HTML is that text, in UTF-8


@st.composite
def gold_views(draw) -> GoldViews:
    """A gold's two views as a save, an import of a benchmark or the migration leaves them."""
    source = draw(st.sampled_from(list(TEXT_SOURCES)))
    if source == "derived":
        return views_of(markdown=draw(texts))
    if source == "flat":
        return views_of(text=draw(texts))
    return views_of(text=draw(texts), markdown=draw(texts))


@settings(max_examples=60, deadline=None)
@given(views=gold_views(), raw=st.binary(min_size=1), encoding=st.sampled_from(ENCODINGS))
@example(views=views_of(markdown="# Title\r\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\u2028"),
         raw=b"<p>x</p>", encoding="utf-8")
@example(views=views_of(text="  # kept\n\nas\ttyped ", markdown="$x$ \\*"), raw=b"\xff<p>", encoding="utf-8")
def test_the_layouts_of_markdown_give_back_both_views_and_where_the_text_came_from(views, raw, encoding):
    record = GoldRecord(views.text, "article", "done", None, ("Ann",), 1, WHEN, markdown=views.markdown,
                        text_source=views.text_source)
    page = ExportedPage(7, None, "site.example", "0" * 64, encoding, WHEN, raw, record, ())
    for writer, reader, path in ((JsonlWriter, "jsonl", FILE), (FolderWriter, "folder", ""), (WcxbWriter, "wcxb", ""),
                                 (WebmainbenchWriter, "webmainbench", "")):
        document = round_trip(writer, reader, page, path)
        assert views_of(text=document.gold, markdown=document.markdown) == views, reader
        if reader != "wcxb":  # WCXB gzips the raw bytes: its own test above
            assert document.data == raw, reader
