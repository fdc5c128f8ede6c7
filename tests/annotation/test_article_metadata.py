"""The one shape of an article's metadata (annotation/article_metadata.py): what is kept, what is refused."""

import pytest

from webapp.annotation.article_metadata import checked


def test_absent_none_and_values_are_three_different_answers():
    assert checked(None) == {}
    assert checked({"authors": None}) == {"authors": None}
    assert checked({"title": "  A   title ", "authors": [" Ann  Lee", "Bo"], "published": "2024-03-01"}) == {
        "title": "A title", "authors": ["Ann Lee", "Bo"], "published": "2024-03-01"}
    assert checked({"authors": [], "title": "  "}) == {"authors": None, "title": None}


def test_a_date_with_a_time_and_offset_is_kept_as_given():
    assert checked({"published": "2024-03-01T09:30:00+01:00"}) == {"published": "2024-03-01T09:30:00+01:00"}


@pytest.mark.parametrize(("value", "message"), [
    ({"published": "March 1st"}, "'published' is not an ISO 8601 date"),
    ({"authors": "Ann Lee"}, "'authors' must be a list of names"),
    ({"authors": ["Ann", " "]}, "'authors' has an empty name"),
    ({"title": 3}, "'title' must be a string"),
    ({"sitename": "Example"}, "'sitename' is not one of title, authors, published"),
    (["title"], "must be an object of fields"),
])
def test_bad_metadata_is_refused_naming_the_field(value, message):
    with pytest.raises(ValueError, match=message):
        checked(value)


def test_an_extraction_may_give_its_site_name_and_language():
    assert checked({"sitename": "Example", "language": "en"}, extra=True) == {"sitename": "Example", "language": "en"}
