"""The checks of the metadata gold (scoring/metadata_checks.py): a date in the future or before the site
existed, a title or an author not on the page, a field the page type expects left unannotated; each alone, and
through `goldtext check`."""

from __future__ import annotations

import json
from datetime import date

import pytest
from workbench import add_gold, make_page

from webapp.scoring.metadata_checks import date_out_of_range, missing_expected, not_on_page, url_date

TODAY = date(2026, 12, 5)
PAGE = ("<html><head><title>Ferries run again | Harbour News</title><meta name='author' content='Ann  Lee'></head>"
        "<body><h1>Ferries run again</h1><p>By Bo Chen, 1 March 2024</p><p>The harbour ferries run again.</p>"
        "</body></html>")


@pytest.mark.parametrize("published, url, captured, problem", [
    ("2024-03-01", None, None, None),
    ("2024-03-01T23:30:00-05:00", None, None, None),  # its day as written
    ("2026-12-06", None, None, "after today (2026-12-05): a date in the future"),
    ("2024-03-02", None, "2024-03-01T10:00:00+00:00", "after the page was captured (2024-03-01)"),
    ("1993-12-31", None, None, "before 1994-01-01, before the site existed"),
    ("2015-06-30", "https://a.example/2015/07/10/ferries", None, "before 2015-07-10, the first day"),
    ("2015-06-30", "https://a.example/news/2015/07/ferries.html", None, "before 2015-07-01"),
    ("2014-12-31", "https://a.example/2015/ferries", None, "before 2015-01-01"),
    ("2015-07-10", "https://a.example/2015/07/10/ferries", None, None),
    ("2015-07-10", "https://a.example/item/201507100/", None, None),  # no date segment in that address
    (None, None, None, None),  # none on the page
])
def test_a_date_in_the_future_or_before_the_site_existed(published, url, captured, problem):
    found = date_out_of_range(published, TODAY, url, captured)
    assert (found is None) if problem is None else (problem in found), found


def test_the_address_names_a_day_a_month_or_a_year():
    assert url_date("https://a.example/2019/02/28/x") == date(2019, 2, 28)
    assert url_date("https://a.example/blog/2019-02/x") == date(2019, 2, 1)
    assert url_date("https://a.example/x?from=/2019/02/28/") is None  # the query is not the address's path
    assert url_date(None) is None


def test_a_title_or_author_not_on_the_page_with_whitespace_and_case_normalised():
    shown = "Ferries run again | Harbour News\nFERRIES  RUN AGAIN\nBy Bo Chen, 1 March 2024\nAnn Lee"
    assert not_on_page({"title": "Ferries run   again", "authors": ["By Bo Chen", "ann lee"]}, shown) is None
    assert not_on_page({"title": "Ferries return", "authors": ["Bo Chen", "Cy Dee"]}, shown) == (
        "the title 'Ferries return' and the author 'Cy Dee' are not on the page")
    assert not_on_page({"title": None, "authors": None}, shown) is None


def test_an_expected_field_left_unannotated_but_none_on_the_page_is_annotated():
    fields = ("title", "authors", "published")
    assert missing_expected({"title": "T", "authors": None}, "article", fields) == (
        'the page type \'article\' expects its published annotated (a value or "none on the page")')
    assert missing_expected({"title": "T", "authors": None, "published": None}, "article", fields) is None
    assert missing_expected(None, "error", ()) is None


def test_goldtext_check_runs_the_metadata_checks_on_the_gold(runner, session):
    ok = make_page(session, PAGE, url="https://news.example/2024/03/ok")
    add_gold(session, ok, text="The harbour ferries run again.", page_type="article", status="done", author="ann",
             article_metadata={"title": "Ferries run again", "authors": ["Ann Lee", "Bo Chen"],
                               "published": "2024-03-01"})
    wrong = make_page(session, PAGE, url="https://news.example/2024/03/wrong")
    add_gold(session, wrong, text="The harbour ferries run again.", page_type="article", status="done",
             author="ann", article_metadata={"title": "Trains run again", "published": "2024-02-01"})
    product = make_page(session, PAGE, url="https://shop.example/ferry")
    add_gold(session, product, text="The harbour ferries run again.", page_type="product", status="done",
             author="ann")
    session.commit()
    ids = (ok.id, wrong.id, product.id)
    session.rollback()
    report = json.loads(runner.invoke(args=["check", "--format", "json"]).output)
    failing = {f["page_id"]: dict(zip(f["checks"], f["reasons"])) for f in report["failing"]}
    assert ids[0] not in failing
    assert sorted(failing[ids[1]]) == ["date-out-of-range", "metadata-missing", "metadata-not-on-page"]
    assert "the title 'Trains run again' is not on the page" == failing[ids[1]]["metadata-not-on-page"]
    assert "its authors annotated" in failing[ids[1]]["metadata-missing"]
    assert failing[ids[2]] == {"metadata-missing": "the page type 'product' expects its title annotated (a value or "
                                                   '"none on the page")'}
