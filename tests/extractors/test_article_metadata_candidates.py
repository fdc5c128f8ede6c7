"""Every extractor that gives the article's metadata gives it in the one shape (annotation/article_metadata.py),
only the fields it declares, from its real library on real pages, and the metadata goes through the killable
worker processes into the extraction's `article_metadata` as the Markdown does."""

from __future__ import annotations

import json
from dataclasses import replace

import lxml.html
import pytest
from sqlalchemy import select
from workbench import make_page

from tests.corpora import READABILITY, READABILITY_PAGES
from webapp.annotation.article_metadata import checked
from webapp.extractors.article_fields import iso_date, names_of, text_of
from webapp.extractors.base import Extracted, Extractor
from webapp.extractors.extraction_service import store_all
from webapp.extractors.guard import GuardThresholds
from webapp.extractors.process_pool import Call, ExtractorPool, Result
from webapp.extractors.registry import METADATA_ONLY, build_registry
from webapp.models import Extraction
from webapp.usecases.run_extraction import in_shape

GIVE_ALL_THREE = ("trafilatura", "trafilatura-precision", "trafilatura-recall", "trafilatura-fast", "newspaper4k",
                  "goose3", "readability-js", "defuddle", "rs-trafilatura", "go-trafilatura", "page-signals")
TITLE_ONLY = ("readability", "magic-html", "go-domdistiller")
DATES_ONLY = ("htmldate-fast", "htmldate-extensive")


def page(slug: str) -> str:
    return (READABILITY_PAGES / slug / "source.html").read_text(encoding="utf-8", errors="replace")


def markup(html: str, xpath: str) -> str:
    """The first value the page's own markup has at `xpath`."""
    found = lxml.html.document_fromstring(html).xpath(xpath)
    assert found, xpath
    return str(found[0])


def runnable(names):
    registry = build_registry()
    return [registry[name] for name in names if registry[name].available]


def test_the_extractors_declare_the_fields_they_give():
    registry = build_registry()
    for name in GIVE_ALL_THREE:
        assert {"title", "authors", "published"} <= set(registry[name].article_fields), name
    for name in TITLE_ONLY:
        assert registry[name].article_fields == ("title",), name
    for name in DATES_ONLY:
        assert registry[name].article_fields == ("published",), name
    for name in ("density", "justext", "boilerpy3", "resiliparse", "html-text", "inscriptis", "whole-page"):
        assert registry[name].article_fields == (), name
    assert set(METADATA_ONLY) == {"htmldate-fast", "htmldate-extensive", "page-signals"}


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("slug", ["guardian-1", "nytimes-3", "medium-1"])
def test_every_extractor_gives_its_declared_fields_in_the_one_shape_on_real_pages(slug):
    html = page(slug)
    for extractor in runnable(build_registry()):
        got = extractor(html, "https://example.org/" + slug).article_metadata
        if not extractor.article_fields:
            assert got is None, extractor.name
            continue
        assert set(got) == set(extractor.article_fields), extractor.name
        assert checked(got, extra=True) == got, extractor.name
        if extractor.name in METADATA_ONLY:
            assert extractor(html, None).text == ""


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_on_the_guardian_page_the_extractors_read_what_its_markup_says():
    html = page("guardian-1")
    day = markup(html, '//meta[@property="article:published_time"]/@content')[:10]
    author = markup(html, '//meta[@name="author"]/@content')
    og_title = markup(html, '//meta[@property="og:title"]/@content')
    assert (day, author) == ("2019-01-03", "Eleanor Ainge Roy")
    signals = build_registry()["page-signals"](html, None).article_metadata
    assert signals["title"] == og_title and signals["authors"] == [author]
    assert signals["published"].startswith(day) and signals["sitename"] == "the Guardian"
    for extractor in runnable(("trafilatura", "newspaper4k", "go-trafilatura", "htmldate-fast",
                               "htmldate-extensive", "defuddle")):
        assert extractor(html, None).article_metadata["published"][:10] == day, extractor.name
    for extractor in runnable(("trafilatura", "goose3", "defuddle", "go-trafilatura")):
        assert extractor(html, None).article_metadata["authors"] == [author], extractor.name
    # newspaper4k reads the author's profile address (article:author) as names too: kept as it gives them
    assert runnable(("newspaper4k",))[0](html, None).article_metadata["authors"][0] == author
    for extractor in runnable(("readability", "magic-html", "go-domdistiller", "trafilatura")):
        title = extractor(html, None).article_metadata["title"]
        assert title and title.split(" | ")[0] in og_title, (extractor.name, title)


@pytest.mark.corpus(READABILITY)
def test_on_the_new_york_times_page_a_byline_and_an_itemprop_date_are_read():
    html = page("nytimes-3")
    assert markup(html, '//meta[@name="byl"]/@content') == "By Corey Kilgannon"
    assert markup(html, '//meta[@itemprop="datePublished"]/@content').startswith("2019-02-21")
    signals = build_registry()["page-signals"](html, None).article_metadata
    assert signals["authors"] == ["Corey Kilgannon"]
    assert signals["published"].startswith("2019-02-21")


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_readability_js_gives_what_readabilitys_own_test_expects_of_its_pages():
    """Readability's test suite stores the title, byline and publishedTime it expects of each page: the
    extractor's metadata is theirs, in the one shape (two titles differ with the version of Readability.js)."""
    extractor = build_registry()["readability-js"]
    if not extractor.available:
        pytest.skip(extractor.unavailable_reason)
    pages = titles = bylines = dates = 0
    for folder in sorted(path for path in READABILITY_PAGES.iterdir() if (path / "source.html").is_file()):
        expected = json.loads((folder / "expected-metadata.json").read_text())
        got = extractor(page(folder.name), "http://fakehost/test/page.html").article_metadata
        pages += 1
        titles += got["title"] == text_of(expected.get("title"))
        bylines += got["authors"] == names_of(expected.get("byline"))
        dates += got["published"] == iso_date(expected.get("publishedTime"))
    assert pages == 130
    assert (bylines, dates) == (130, 130)
    assert titles >= 128


def failing(html: str, url: str | None) -> Extracted:
    raise ValueError("no article here")


def test_the_metadata_goes_through_the_worker_processes_into_the_extraction(session):
    html = ("<html><head><title>Night trains</title><meta name='author' content='Ada Lovelace'>"
                        "<meta property='article:published_time' content='2024-03-01T09:30:00+01:00'></head>"
                        "<body><p>The night train leaves at ten.</p></body></html>")
    target = make_page(session, html=html)
    session.flush()
    broken = Extractor("broken", "1", failing, {}, "always fails", article_fields=("title", "published"))
    calls = [Call((target.id, len(html)), build_registry()["page-signals"], html, None),
             Call((target.id, len(html)), broken, html, None)]
    with ExtractorPool(workers=1, timeout=60) as pool:
        for result in pool.run(calls):
            store_all(session, [result], GuardThresholds())
    session.flush()
    stored = {row.extractor: row.article_metadata for row in session.scalars(select(Extraction))}
    assert stored["page-signals"] == {"title": "Night trains", "authors": ["Ada Lovelace"],
                                      "published": "2024-03-01T09:30:00+01:00", "sitename": None, "language": None}
    assert stored["broken"] == {"title": None, "published": None}


def test_metadata_out_of_shape_is_dropped_with_its_reason_and_the_text_kept():
    result = Result(key=(1, 10), extractor_name="plugin", fingerprint="plugin|1|{}", text="night trains",
                    metadata={}, duration_ms=1.0, error=None, incomplete=False,
                    article_metadata={"title": "  Night   trains ", "published": "yesterday"})
    kept = in_shape(result)
    assert kept.text == "night trains" and kept.article_metadata is None
    assert kept.metadata["article_metadata_error"] == (
        "plugin: metadata field 'published' is not an ISO 8601 date: 'yesterday'")
    fine = in_shape(replace(result, article_metadata={"title": "  Night   trains ", "authors": []}))
    assert fine.article_metadata == {"title": "Night trains", "authors": None}
