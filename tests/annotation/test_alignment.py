"""The alignment of gold lines to a page's blocks (webapp/corpus/alignment.py): matched by their order, so a
text repeated on the page (a menu item, a breadcrumb's heading, "Read more") stands for the copy among the
gold's other lines. The same cases run in Chromium against static/js/align.js (tests/corpus/test_visible_text.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webapp.corpus.alignment import align
from webapp.corpus.visible_text import block_lines, parse_html

CASES = json.loads((Path(__file__).parents[1] / "data" / "alignment" / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_align(case):
    assert align(case["lines"], case["blocks"], set(case.get("pinned", []))) == case["aligned"]


def test_an_aligned_line_is_its_block_and_blocks_keep_the_lines_order():
    html = (Path(__file__).parents[1] / "data" / "alignment" / "catalogue.html").read_text(encoding="utf-8")
    blocks = block_lines(parse_html(html))
    gold = ["Widget catalogue", "Accessibility", "Screen readers, focus order and labels.",
            "Async", "Futures, streams and cancellation.", "Read more", "Layout", "Read more"]
    aligned = align(gold, blocks)
    assert [blocks[b] for b in aligned] == gold
    assert aligned == sorted(aligned) and len(set(aligned)) == len(aligned)
    assert aligned[1] > blocks.index("Widget catalogue")  # the card's title, not the sidebar's
