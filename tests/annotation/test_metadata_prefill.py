"""What the annotate view's metadata fields start from (annotation/metadata_prefill.py) and a date as the page
shows it (corpus/date_shown.py)."""

from __future__ import annotations

from webapp.annotation.metadata_prefill import field_candidates, prefilled
from webapp.corpus.date_shown import date_shown, dates_shown

FOUND = [
    {"name": "trafilatura", "metadata": {"title": "T", "authors": ["Ann"], "published": "2024-03-11"}},
    {"name": "htmldate-fast", "metadata": {"published": "2024-03-01"}},
    {"name": "density", "metadata": {"title": "T", "authors": None}},
    {"name": "readability", "metadata": {}},
]


def test_each_distinct_value_is_listed_once_with_every_extractor_that_gives_it():
    found = field_candidates(FOUND)
    assert found["title"] == [{"value": "T", "names": ["trafilatura", "density"]}]
    assert found["authors"] == [{"value": ["Ann"], "names": ["trafilatura"]}, {"value": None, "names": ["density"]}]
    assert [c["names"] for c in found["published"]] == [["trafilatura"], ["htmldate-fast"]]


def test_each_field_comes_from_the_first_ranked_extractor_that_gives_it():
    chosen = prefilled(FOUND, {"published": ["readability", "htmldate-fast", "trafilatura"]}, ["density"])
    assert chosen == {"title": {"value": "T", "from": "candidate:density"},
                      "authors": {"value": None, "from": "candidate:density"},  # density looked: none
                      "published": {"value": "2024-03-01", "from": "candidate:htmldate-fast"}}
    assert prefilled(FOUND, {}, [])["published"] == {"value": "2024-03-11", "from": "candidate:trafilatura"}
    assert prefilled([], {}, ["trafilatura"]) == {}


def test_a_date_is_found_in_the_line_that_writes_its_day():
    lines = ["Ferries run again", "By Ann Lee, March 1, 2024, 9:30", "Updated 03/02/2024"]
    assert date_shown("2024-03-01T09:30:00+01:00", lines) == "By Ann Lee, March 1, 2024, 9:30"
    assert date_shown("2024-03-02", lines) == "Updated 03/02/2024"  # 3 February or 2 March: both forms looked for
    assert date_shown("2024-03-05", lines) is None and date_shown("soon", lines) is None
    assert dates_shown(["2024-03-01", "2024-03-05", "2024-03-01"], ["1 MARCH 2024"]) == {"2024-03-01": "1 MARCH 2024"}
    long = "x" * 300 + " 1 March 2024 " + "y" * 300
    assert "1 March 2024" in date_shown("2024-03-01", [long]) and len(date_shown("2024-03-01", [long])) <= 122
