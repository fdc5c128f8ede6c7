"""The replay's model of the workbench's operations (annotation/operations.py), on hand-made pages."""

from webapp.annotation.operations import Page, count

BLOCKS = ["Home", "About", "Title", "First paragraph of text", "Second paragraph here", "Third one", "Footer links"]


def test_a_right_prefill_costs_nothing():
    gold = "Title\nFirst paragraph of text"
    assert count(gold, gold, Page(BLOCKS)) == (0, 0)


def test_a_missing_block_is_one_click_and_typing_is_its_words():
    found = count("Title", "Title\nFirst paragraph of text", Page(BLOCKS))
    assert (found.typing, found.workbench) == (4, 1)


def test_consecutive_blocks_are_a_click_and_a_shift_click():
    gold = "Title\nFirst paragraph of text\nSecond paragraph here\nThird one"
    found = count("Title", gold, Page(BLOCKS))
    assert (found.typing, found.workbench) == (9, 2)


def test_blocks_with_an_unwanted_block_between_are_not_one_range():
    gold = "Title\nFirst paragraph of text\nThird one"
    found = count("Title", gold, Page(BLOCKS))
    assert found.workbench == 2  # two clicks: a range would take "Second paragraph here" too


def test_boilerplate_lines_go_with_clicks_or_a_range_and_typing_deletes_each_line():
    prefill = "Home\nAbout\nTitle\nFirst paragraph of text\nFooter links"
    found = count(prefill, "Title\nFirst paragraph of text", Page(BLOCKS))
    assert found.typing == 3  # three line deletions
    assert found.workbench == 3  # "Home"+"About" as a range (2), "Footer links" a click (1)


def test_a_candidate_run_not_on_the_page_is_one_take():
    candidate = ["Title", "Lines a parser", "made from a script"]
    found = count("Title", "Title\nLines a parser\nmade from a script", Page(BLOCKS, [candidate]))
    assert (found.typing, found.workbench) == (7, 1)


def test_a_run_split_across_candidates_is_one_take_each():
    gold = "Title\nalpha beta\ngamma delta"
    found = count("Title", gold, Page(BLOCKS, [["alpha beta", "x"], ["gamma delta"]]))
    assert found.workbench == 2


def test_text_in_no_block_or_candidate_is_typed_word_by_word():
    found = count("Title", "Title\nan annotator's own note", Page(BLOCKS, [["something else"]]))
    assert (found.typing, found.workbench) == (4, 4)


def test_a_changed_word_costs_its_deletion_and_typing():
    found = count("Title\nFirst paragraph of text", "Title\nFirst paragraph of prose", Page(BLOCKS))
    assert (found.typing, found.workbench) == (2, 2)


def test_part_of_a_candidate_region_is_taken_line_by_line():
    candidate = ["Title", "wanted line", "another wanted", "unwanted line", "Footer links"]
    found = count("Title", "Title\nwanted line\nanother wanted", Page(BLOCKS, [candidate]))
    assert found.workbench == 2  # "Take these 3 lines" would add "unwanted line" too: two line takes
