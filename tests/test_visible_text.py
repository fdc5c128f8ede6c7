"""The one definition of visible text, one block per line (webapp/corpus/visible_text.py): its rules, and
the gold the Readability reader reads with it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from webapp.corpus.decoding import decode
from webapp.corpus.document import Limits
from webapp.corpus.readability_pages import read_readability
from webapp.corpus.visible_text import (
    BLOCK_TAGS,
    CELL_TAGS,
    INVISIBLE_TAGS,
    LINE_BREAK_TAGS,
    block_lines,
    browser_rules,
    parse_html,
    visible_text,
)

ROOT = Path(__file__).resolve().parents[1]
READABILITY_PAGES = ROOT.parent / "shared" / "corpora" / "readability-test-pages"

# (html, lines): the definition's cases.
CASES = [
    ("<p>one <b>bold</b><i>italic</i> word</p><p>two</p>", ["one bolditalic word", "two"]),
    ("<div>first line<br>second   line\n continued</div>", ["first line", "second line continued"]),
    ("<p>a<script>var x = 1;</script>b<!-- note -->c</p>", ["abc"]),
    ("<div>shown<span hidden>secret</span><span style='display: none'>gone</span></div>", ["shown"]),
    ("<table><tr><td>cell</td><td>next</td></tr><tr><th>row two</th></tr></table>", ["cell next", "row two"]),
    ("<ul><li>first</li><li>second</li></ul>after", ["first", "second", "after"]),
    ('<?xml version="1.0" encoding="utf-8"?><html><body><p>declared</p></body></html>', ["declared"]),
    ("<head><title>title</title></head><body><template>t</template><p>body</p></body>", ["body"]),
    ("", []),
    ("   ", []),
    # the gold-HTML cases the Readability reader's own definition had: the same lines, but for cells
    ("<p>One <b>bold</b>\n   word.</p><p>Two</p>", ["One bold word.", "Two"]),
    ("<h1>T</h1><div><p>a</p><p> \n </p></div>", ["T", "a"]),
    ("<ul><li>a<p>nested</p>tail</li></ul>", ["a", "nested", "tail"]),
    ("<div>direct text <em>inline</em></div><div><div><p>deep</p></div></div>",
     ["direct text inline", "deep"]),
    # a row is one line with its cells apart (the reader's definition gave each cell a line of its own)
    ("<table><tr><th>h</th><td>c1</td><td>c2</td></tr></table>", ["h c1 c2"]),
    ("<dl><dt>term</dt><dd>definition</dd></dl><figure><figcaption>cap</figcaption></figure>",
     ["term", "definition", "cap"]),
    ("<blockquote>q</blockquote><pre>x  =\n  1</pre>", ["q", "x = 1"]),
    ("<p>kept<script>hidden()</script><!-- note --> <style>p{}</style>too</p>", ["kept too"]),
    # runs between <br><br> in one div are blocks of their own (issue 12), and so is a div's own text
    # beside the blocks it holds
    ("<div>Intro words<p>A paragraph</p>First run<br><br>Second <b>run</b><br><br>Third run</div>",
     ["Intro words", "A paragraph", "First run", "Second run", "Third run"]),
    ("<div style='visibility:hidden'>gone</div><p>a<span style='DISPLAY : NONE'>x</span>b</p>", ["ab"]),
    # an invisible block still ends the line it interrupts
    ("<div>before<div hidden>x</div>after</div>", ["before", "after"]),
    ("<p>no&nbsp;break\u2003em space\u3000ideographic</p>", ["no break em space ideographic"]),
]


@pytest.mark.parametrize(("html", "lines"), CASES)
def test_block_lines(html, lines):
    assert block_lines(parse_html(html)) == lines


@pytest.mark.parametrize(("html", "lines"), CASES)
def test_visible_text_is_the_lines_joined(html, lines):
    assert visible_text(html) == "\n".join(lines)


def test_the_browser_gets_the_same_sets_and_rule_as_json():
    rules = json.loads(json.dumps(browser_rules()))
    assert set(rules["blocks"]) == BLOCK_TAGS and set(rules["cells"]) == CELL_TAGS
    assert set(rules["lineBreaks"]) == LINE_BREAK_TAGS and set(rules["invisible"]) == INVISIBLE_TAGS
    assert rules["hiddenAttribute"] == "hidden"
    assert re.search(rules["hiddenStyle"], "color: red; display :none", re.IGNORECASE)


def test_the_readability_reader_reads_gold_with_the_same_definition():
    documents = [d for d in read_readability(str(READABILITY_PAGES), Limits()) if d.gold]
    assert len(documents) == 122
    for document in documents[:: len(documents) // 10]:
        expected = (READABILITY_PAGES / document.item / "expected.html").read_bytes()
        assert document.gold == "\n".join(block_lines(parse_html(decode(expected).text)))
