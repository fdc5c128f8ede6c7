"""Content compared as content (scoring/content_tokens.py): list markers, Markdown's decoration, spacing
around punctuation, case and line splits leave a text's tokens alone; the same cases are the JavaScript
module's (tests/data/content_cases.json, read by tests/js/content.test.mjs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webapp.scoring.content_tokens import contains, content_key, line_tokens, repeated_runs, tokens

CASES = json.loads((Path(__file__).parents[1] / "data" / "content_cases.json").read_text())


@pytest.mark.parametrize("case", CASES["same"], ids=lambda case: case[0][:30])
def test_the_same_content_in_another_form_has_the_same_tokens(case):
    first, second = case
    assert tokens(first) == tokens(second)


@pytest.mark.parametrize("case", CASES["different"], ids=lambda case: case[0][:30])
def test_other_content_has_other_tokens(case):
    first, second = case
    assert tokens(first) != tokens(second)


@pytest.mark.parametrize("case", CASES["keys"], ids=lambda case: case[0][:30])
def test_a_lines_key(case):
    line, key = case
    assert content_key(line) == key


def test_a_line_without_a_letter_or_digit_has_no_content():
    assert line_tokens("|---|---|") == [] and line_tokens(" * ") == [] and line_tokens("---") == []


def test_contains_finds_a_run_of_tokens_across_line_splits():
    gold = tokens("Name: Ann\n- Age: 41\nCity: Oslo")
    assert contains(gold, line_tokens("Age : 41 City: Oslo"))
    assert not contains(gold, line_tokens("Age: 14"))
    assert not contains(gold, [])
    assert not contains(tokens("Agenda"), line_tokens("Age"))  # whole tokens only


def test_repeated_runs_are_found_once_each_and_never_overlap():
    words = "a b c d e f a b c d e f x".split()
    assert repeated_runs(words, 3) == [(0, 6, 6)]
    assert repeated_runs("a a a a".split(), 2) == [(0, 2, 2)]
    assert repeated_runs("a b c x a b".split(), 3) == []
