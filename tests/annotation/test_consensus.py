"""The adjudication editor's starting point: agreed lines in order, disputed lines with their origin and
place, the type only when all agree."""

from webapp.annotation.consensus import Said, consensus
from webapp.scoring.markdown_text import plain_text


def test_two_annotators_agreed_lines_and_a_disputed_one_in_the_middle():
    found = consensus([Said("ann", "Title\nIntro\nBody", "article"),
                       Said("bob", "Title\nIntro\nAside\nBody", "article")])
    assert found.agreed == ["Title", "Intro", "Body"]
    assert found.disputed == [{"text": "Aside", "origin": ["bob"], "after": 2, "line": 2, "form_only": False}]
    assert found.page_type == "article"


def test_extra_lines_at_the_start_and_end_are_disputed_where_they_sit():
    found = consensus([Said("ann", "Menu\nTitle\nBody", "article"),
                       Said("bob", "Title\nBody\nFooter", "article")])
    assert found.agreed == ["Title", "Body"]
    assert found.disputed == [{"text": "Menu", "origin": ["ann"], "after": 0, "line": 0, "form_only": False},
                              {"text": "Footer", "origin": ["bob"], "after": 2, "line": 2, "form_only": False}]


def test_the_first_annotator_is_not_preferred():
    one = consensus([Said("ann", "A\nB\nC", "article"), Said("bob", "A\nC", "forum")])
    other = consensus([Said("bob", "A\nC", "forum"), Said("ann", "A\nB\nC", "article")])
    assert one.text == other.text == "A\nC"
    assert [d["text"] for d in one.disputed] == [d["text"] for d in other.disputed] == ["B"]
    assert one.page_type is None and one.page_types == {"ann": "article", "bob": "forum"}


def test_repeated_lines_are_matched_in_order_not_by_first_copy():
    found = consensus([Said("ann", "Read more\nStory one\nRead more\nStory two\nRead more", "listing"),
                       Said("bob", "Story one\nRead more\nStory two", "listing")])
    assert found.agreed == ["Story one", "Read more", "Story two"]
    assert found.disputed == [{"text": "Read more", "origin": ["ann"], "after": 0, "line": 0, "form_only": False},
                              {"text": "Read more", "origin": ["ann"], "after": 3, "line": 4, "form_only": False}]


def test_three_annotators_origin_names_who_has_each_disputed_line():
    found = consensus([Said("ann", "T\nX\nB", "article"), Said("bob", "T\nX\nB\nY", "article"),
                       Said("cy", "T\n\n  B  \nY", "product")])
    assert found.agreed == ["T", "B"]
    assert found.disputed == [{"text": "X", "origin": ["ann", "bob"], "after": 1, "line": 1, "form_only": False},
                              {"text": "Y", "origin": ["bob", "cy"], "after": 2, "line": 3, "form_only": False}]
    assert found.page_type is None


def test_identical_texts_have_nothing_disputed():
    found = consensus([Said("ann", "A\nB", "article"), Said("bob", "A \n B", "article")])
    assert found.text == "A\nB" and found.disputed == []


def test_lines_are_matched_by_content_not_form_and_read_as_their_shortest_form():
    ann = "Setup\n- Install the package\nTerm : definition\nRun it"
    bob = "Setup\nInstall the package\nTerm: definition\nRun it"
    for order in ([Said("ann", ann, "documentation"), Said("bob", bob, "documentation")],
                  [Said("bob", bob, "documentation"), Said("ann", ann, "documentation")]):
        found = consensus(order)
        assert found.agreed == ["Setup", "Install the package", "Term: definition", "Run it"]
        assert found.disputed == [] and found.disputed_count == 0


def test_a_line_split_or_joined_differs_in_form_only_and_is_not_counted_as_disputed():
    found = consensus([Said("ann", "Name | Age | City\nAnn | 41 | Oslo\nSigned", "documentation"),
                       Said("bob", "Name | Age | City\nAnn\n41\nOslo", "documentation")])
    assert found.agreed == ["Name | Age | City"]
    assert [(d["text"], d["origin"], d["form_only"]) for d in found.disputed] == [
        ("Ann", ["bob"], True), ("41", ["bob"], True), ("Oslo", ["bob"], True),
        ("Ann | 41 | Oslo", ["ann"], True), ("Signed", ["ann"], False)]
    assert found.disputed_count == 1


def test_markdown_annotations_merge_as_markdown_keeping_the_structure_both_wrote():
    ann = Said("ann", "", "article", "# Fares\nTickets are sold on board.\n\n| Day | Time |\n| --- | --- |\n"
                                     "| Monday | 09:00 |\n\n- Bring your ticket\n\n```\nfare = 5\nchild = 0\n```")
    bob = Said("bob", "", "article", "# Fares\nTickets are *sold* on board\n\n| Day | Time |\n| --- | --- |\n"
                                     "| Monday | 09:00 |\n\nBring your ticket\n\n```\nfare = 5\nchild = 0\n```\n\n"
                                     "Extra line")
    agreed = consensus([ann, bob])
    # the heading, the table (its header with its delimiter row) and the code block both wrote alike keep
    # their Markdown; a line written otherwise takes its shortest form (the list item neither agreed on
    # becomes a paragraph); a blank line stays where it was, so the table stays a table
    assert agreed.text == ("# Fares\nTickets are sold on board.\n\n| Day | Time |\n| --- | --- |\n| Monday | 09:00 |"
                           "\n\nBring your ticket\n\n```\nfare = 5\nchild = 0\n```")
    assert [d["text"] for d in agreed.disputed] == ["Extra line"]
    assert plain_text(agreed.text).split("\n") == ["Fares", "Tickets are sold on board.", "Day Time",
                                                   "Monday 09:00", "Bring your ticket", "fare = 5", "child = 0"]
