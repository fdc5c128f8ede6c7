"""WebMainBench's metrics: ROUGE-5 over jieba tokens, and the structured subset's edit similarities, TEDS
and overall, by hand-computed cases and against the scores its own code stored for four pages."""

import json
from fractions import Fraction

import pytest
from corpora import CORPORA

from webapp.scoring import summarize
from webapp.scoring.webmainbench_parts import code_part, formula_part, split, table_html, table_part, table_text
from webapp.scoring.webmainbench_rouge import METRIC as ROUGE5
from webapp.scoring.webmainbench_rouge import build_metric as build_rouge5
from webapp.scoring.webmainbench_rouge import tokens
from webapp.scoring.webmainbench_subset import METRIC as SUBSET
from webapp.scoring.webmainbench_subset import PARTS, edit_similarity, overall, page_parts
from webapp.scoring.webmainbench_teds import teds

SAMPLE = "webmainbench-sample"
EXTRACTORS = ("llm-webkit", "magic-html", "trafilatura", "resiliparse")

needs_rouge5 = pytest.mark.skipif(not ROUGE5.available, reason="jieba or rouge-score is not installed")
needs_subset = pytest.mark.skipif(not SUBSET.available, reason="rapidfuzz, apted or beautifulsoup4 is not installed")


@needs_rouge5
def test_jieba_cuts_words_and_keeps_spaces_as_tokens():
    assert tokens("a b") == ("a", " ", "b")
    assert tokens("我爱北京天安门") == ("我", "爱", "北京", "天安门")


@needs_rouge5
@pytest.mark.parametrize(
    ("candidate", "gold", "scores"),
    [
        ("a b c d e", "a b c d e", (1, 1, 1)),
        # tokens a,_,b,_,c,_,d (3 five-grams) against a,_,b,_,c,_,d,_,e (5): the 3 shared;
        # P = 3/3, R = 3/5, F1 = 2 * 3/5 / (8/5) = 3/4
        ("a b c d", "a b c d e", (1, Fraction(3, 5), Fraction(3, 4))),
        # four jieba words are fewer than five tokens: no 5-gram on either side
        ("我爱北京天安门", "我爱北京天安门", (0, 0, 0)),
        # both empty once stripped: a perfect page
        ("", " \n", (1, 1, 1)),
        # one side empty: nothing to overlap
        ("a b c d e", "", (0, 0, 0)),
        ("", "a b c d e", (0, 0, 0)),
    ],
)
def test_rouge5_by_hand(candidate, gold, scores):
    counts = ROUGE5.counts(candidate, gold)
    assert (counts["precision"], counts["recall"], counts["f1"]) == pytest.approx(tuple(map(float, scores)))


@needs_rouge5
def test_rouge5_scores_a_failed_extraction_as_empty_and_averages_pages():
    assert ROUGE5.counts("a b c d e", "a b c d e", errored=True)["f1"] == 0.0
    rows = [ROUGE5.counts("a b c d e", "a b c d e"), ROUGE5.counts("a b c d", "a b c d e")]
    assert summarize(ROUGE5, rows, bootstrap=0).f1 == pytest.approx((1 + 0.75) / 2)


def test_rouge5_without_its_packages_is_unavailable_and_says_how_to_install():
    metric = build_rouge5(find_spec=lambda module: None)
    assert not metric.available
    assert metric.unavailable_reason == "jieba and rouge-score not installed: pip install 'goldtext[structure]'"
    with pytest.raises(RuntimeError, match="jieba and rouge-score not installed"):
        metric.counts("a", "a")


def test_code_part_takes_fenced_blocks_then_indented_blocks_but_not_lists():
    markdown = ("Intro\n\n```python\nx = 1\n  y = 2\n```\n\n    first()\n    second()\n\nthen\n\n"
                "    - item\n    - item\n\nend `inline`")
    assert code_part(markdown) == "x = 1\n  y = 2\nfirst()\nsecond()"


def test_formula_part_reads_each_delimiter_in_turn_outside_code():
    markdown = "Area $$\\pi r^2$$ and $x$, \\(y\\), \\[z\\]; not `$code$` nor \\$5."
    assert formula_part(markdown) == "\\pi r^2\nz\nx\ny"


def test_table_part_takes_outer_html_tables_then_markdown_tables_with_a_separator_row():
    markdown = ("<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table>\n\n"
                "| a | b |\n|---|:---:|\n| 1 | 2 |\n\nnot | a table\nno | separator\n")
    assert table_part(markdown) == (
        "<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table>\n| a | b |\n|---|:---:|\n| 1 | 2 |")


def test_table_text_is_one_line_per_row_cells_joined_by_spaces():
    html = table_html("| a | b |\n|---|---|\n| 1 |  |")
    assert html == "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td></tr></table>"
    assert table_text(html) == "a b\n1"
    assert table_html("plain") == "<table><tr><td>plain</td></tr></table>"


@needs_subset
def test_edit_similarity_and_what_is_not_computed():
    assert edit_similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)
    assert edit_similarity("", "") is None
    assert edit_similarity("", "ab") == 0.0


@needs_subset
def test_teds_by_hand():
    gold = "| a | b |\n|---|---|\n| 1 | 2 |"
    assert teds(gold, gold) == 1.0
    assert teds("", gold) == 0.0
    assert teds("", "") == 1.0
    # Both trees have 7 nodes: table(tr(th, th), tr(td, td)). WebMainBench hands APTED each tree as one
    # bracket string (one node): the tags agree (table), the rests ab12(tr:ab(th:a,th:b),tr:12(td:1,td:2)) and
    # ab13(...tr:13(td:1,td:3)) have 39 characters and 3 substitutions, so the distance is 3/39 and
    # TEDS = 1 - (3/39)/7 = 90/91.
    assert teds("| a | b |\n|---|---|\n| 1 | 3 |", gold) == pytest.approx(90 / 91)


@needs_subset
def test_a_page_scores_only_the_parts_either_side_has_and_overall_is_their_mean():
    gold = "# Title\n\n```\nprint(1)\n```\n"
    candidate = "# Title\n\nprint(1)\n"
    parts = page_parts(candidate, gold)
    # text: the whole Markdown; "# Title\n\nprint(1)\n" (18) against the gold (26): 8 deletions
    assert parts["text_edit"] == pytest.approx(1 - 8 / 26)
    # code: "" against "print(1)": every character
    assert parts["code_edit"] == 0.0
    assert parts["formula_edit"] is None and parts["table_edit"] is None and parts["table_TEDS"] is None
    assert overall(parts) == pytest.approx((1 - 8 / 26) / 2)


@needs_subset
def test_subset_figures_are_part_means_over_their_pages_and_overall_their_mean():
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    rows = [
        SUBSET.counts("same text", "same text"),  # text 1; no other part
        SUBSET.counts("other", "```\ncode\n```"),  # text by edit similarity, code 0
        SUBSET.counts(table, table),  # text, table_edit, table_TEDS 1
        SUBSET.counts("x", "y", errored=True),  # no part at all
    ]
    text_of_second = edit_similarity("other", "```\ncode\n```")
    summary = summarize(SUBSET, rows, bootstrap=0)
    means = {"text_edit": (1 + text_of_second + 1) / 3, "code_edit": 0.0, "formula_edit": 0.0,
             "table_edit": 1.0, "table_TEDS": 1.0}
    assert summary.extra == pytest.approx(means)
    assert summary.f1 == pytest.approx(sum(means.values()) / 5)
    assert summary.precision == summary.recall == summary.f1
    assert rows[3]["overall"] == 0.0 and not any(rows[3][f"has_{part}"] for part in PARTS)


def _pages():
    with open(CORPORA / SAMPLE / "dataset_with_results.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _stored(page, extractor):
    return {part: page.get(f"{extractor}_{part}_score") for part in PARTS}


@pytest.mark.corpus(SAMPLE)
@needs_subset
def test_the_splitters_give_the_parts_webmainbench_stored():
    for page in _pages():
        for side, prefix in (("groundtruth_content", "groundtruth_groundtruth"),
                             *((f"{name}_content", f"{name}_predicted") for name in EXTRACTORS)):
            parts = split(page[side])
            assert parts._asdict() == {part: page[f"{prefix}_{part}"] for part in ("text", "code", "formula", "table")}


@pytest.mark.corpus(SAMPLE)
@needs_subset
def test_subset_scores_from_the_markdown_equal_webmainbench_stored_scores_exactly():
    compared = 0
    for page in _pages():
        for extractor in EXTRACTORS:
            parts = page_parts(page[f"{extractor}_content"], page["groundtruth_content"])
            assert parts == _stored(page, extractor), (page["id"], extractor)
            assert overall(parts) == page[f"{extractor}_overall_score"]
            compared += 1
    assert compared == 16


@pytest.mark.corpus(SAMPLE)
@needs_subset
def test_subset_scores_from_the_stored_parts_equal_the_stored_scores_exactly():
    for page in _pages():
        gold = {part: page[f"groundtruth_groundtruth_{part}"] for part in ("text", "code", "formula", "table")}
        for extractor in EXTRACTORS:
            mine = {part: page[f"{extractor}_predicted_{part}"] for part in ("text", "code", "formula", "table")}
            table_edit = edit_similarity(table_text(table_html(mine["table"])), table_text(table_html(gold["table"])))
            scores = {
                "text_edit": edit_similarity(mine["text"], gold["text"]),
                "code_edit": edit_similarity(mine["code"], gold["code"]),
                "formula_edit": edit_similarity(mine["formula"], gold["formula"]),
                "table_edit": table_edit,
                "table_TEDS": None if table_edit is None else teds(mine["table"], gold["table"]),
            }
            assert scores == _stored(page, extractor), (page["id"], extractor)


@pytest.mark.corpus(SAMPLE)
@needs_subset
def test_the_gold_of_the_benchmarks_layout_scores_one_against_itself_and_its_code_matches_its_meta():
    with open(CORPORA / SAMPLE / "WebMainBench_dataset_sample2.jsonl", encoding="utf-8") as lines:
        pages = [json.loads(line) for line in lines]
    for page in pages:
        gold = page["groundtruth_content"]
        parts = page_parts(gold, gold)
        assert {score for score in parts.values() if score is not None} == {1.0}
        # the benchmark's meta says which pages hold code between lines; its splitter finds exactly those
        assert bool(split(gold).code) == ("interline" in page["meta"]["code"])
    assert [bool(split(page["groundtruth_content"]).code) for page in pages] == [True, False]
