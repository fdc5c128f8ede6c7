"""The one definition of visible text, one block per line (webapp/corpus/visible_text.py): its rules in
Python, the gold the Readability reader reads with it, and static/js/blocks.js finding the same blocks in
Chromium, on small cases and on every page of the shared Readability corpus."""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

import pytest
from browser_fixtures import signed_in
from corpora import READABILITY, READABILITY_PAGES, WCXB, WCXB_SAMPLE
from workbench import make_page, sign_in

from webapp.corpus.alignment import align
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
    normalise_line,
    parse_html,
    visible_text,
)

ROOT = Path(__file__).resolve().parents[2]
# Without the shared corpora (a lone clone) the one parameter below names the missing folder, and the
# `corpus` mark skips it with that reason (fails it in CI).
SLUGS = sorted(p.name for p in READABILITY_PAGES.iterdir() if (p / "source.html").exists()) \
    if READABILITY_PAGES.is_dir() else [READABILITY]
ORIGIN = "http://goldtext.test"  # served by the test itself: nothing leaves the browser

# (html, lines): the definition's cases, checked in Python and in Chromium alike.
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
    # runs between <br><br> in one div are blocks of their own, and so is a div's own text
    # beside the blocks it holds
    ("<div>Intro words<p>A paragraph</p>First run<br><br>Second <b>run</b><br><br>Third run</div>",
     ["Intro words", "A paragraph", "First run", "Second run", "Third run"]),
    ("<div style='visibility:hidden'>gone</div><p>a<span style='DISPLAY : NONE'>x</span>b</p>", ["ab"]),
    # an invisible block still ends the line it interrupts
    ("<div>before<div hidden>x</div>after</div>", ["before", "after"]),
    ("<p>no&nbsp;break\u2003em space\u3000ideographic</p>", ["no break em space ideographic"]),
    # control characters are dropped: a page decoded twice shows an em dash as "â" and two C1 controls
    ("<h1>itertools \u00e2\u0080\u0094 Functions\u0007</h1><p>a\u0001b \u007f\u009f c</p>",
     ["itertools \u00e2 Functions", "ab c"]),
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


def test_the_annotate_view_renders_the_rules_in_its_data_island(client, session):
    page_id = make_page(session).id
    sign_in(client)
    text = client.get(f"/pages/{page_id}").get_data(as_text=True)
    island = re.search(r'<script type="application/json" id="page-data"[^>]*>(.*?)</script>', text, re.S)
    assert json.loads(island.group(1))["blocks"] == browser_rules()
    script = (ROOT / "static" / "js" / "blocks.js").read_text(encoding="utf-8")
    assert not re.findall(r"['\"](p|div|li|h1|td|br|script)['\"]", script, re.IGNORECASE)  # no list of its own


@pytest.mark.corpus(READABILITY)
def test_the_readability_reader_reads_gold_with_the_same_definition():
    documents = [d for d in read_readability(str(READABILITY_PAGES), Limits()) if d.gold]
    assert len(documents) == 122
    for document in documents[:: len(documents) // 10]:
        expected = (READABILITY_PAGES / document.item / "expected.html").read_bytes()
        assert document.gold == "\n".join(block_lines(parse_html(decode(expected).text)))


# --- the same blocks in Chromium -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def blocks_tab(browser):
    """A tab on a made-up origin that serves only static/js/, with blocks.js imported as `window.blocks`;
    pages are parsed there with DOMParser, which neither runs nor loads anything, like the annotate
    view's sandboxed frame."""
    own = browser.new_context()
    tab = own.new_page()

    def serve(route):
        path = route.request.url.removeprefix(ORIGIN)
        if path == "/":
            route.fulfill(body="<!doctype html><title>blocks</title>", content_type="text/html")
        elif path.startswith("/static/js/") and ".." not in path:
            route.fulfill(path=str(ROOT / path.lstrip("/")), content_type="text/javascript")
        else:
            route.abort()

    tab.route(f"{ORIGIN}/**", serve)
    tab.goto(f"{ORIGIN}/")
    tab.evaluate("async () => { window.blocks = await import('/static/js/blocks.js');"
                 " window.align = await import('/static/js/align.js'); }")
    yield tab
    own.close()


def js_lines(tab, html: str) -> list[str]:
    return tab.evaluate(
        "([html, rules]) => window.blocks.blocksOf(new DOMParser().parseFromString(html, 'text/html'), rules)"
        ".map((block) => block.text)",
        [html, browser_rules()],
    )


def squeeze(lines: list[str]) -> list[str]:
    return [" ".join(line.split()) for line in lines]


@pytest.mark.browser
@pytest.mark.parametrize(("html", "lines"), CASES)
def test_blocks_js_finds_the_same_blocks(blocks_tab, html, lines):
    assert js_lines(blocks_tab, html) == lines


@pytest.mark.browser
@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("slug", SLUGS)
def test_blocks_js_and_block_lines_agree_on_the_readability_pages(blocks_tab, slug):
    """Every block of the saved page and of Readability's output, line for line. Nothing is excluded:
    neither side computes styles (a stylesheet's display:none counts on neither), and Chromium's HTML
    parser and lxml's build trees with the same text in the same blocks on all 260 documents."""
    for name in ("source.html", "expected.html"):
        path = READABILITY_PAGES / slug / name
        if not path.exists():
            continue
        html = decode(path.read_bytes()).text
        python, javascript = block_lines(parse_html(html)), js_lines(blocks_tab, html)
        assert javascript == python, name
        assert squeeze(javascript) == javascript  # already normalised: one space, no ends


@pytest.mark.browser
def test_blocks_js_collapses_exactly_the_whitespace_python_splits_on(blocks_tab):
    python = [c for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    javascript = blocks_tab.evaluate(
        "() => { const found = []; for (let c = 0; c <= 0x10ffff; c++) {"
        " if (window.blocks.normalise(`a${String.fromCodePoint(c)}b`) === 'a b') found.push(c); } return found; }"
    )
    assert javascript == python


@pytest.mark.browser
def test_blocks_js_drops_exactly_the_control_characters_python_drops(blocks_tab):
    python = [c for c in range(sys.maxunicode + 1) if normalise_line(f"a{chr(c)}b") == "ab"]
    javascript = blocks_tab.evaluate(
        "() => { const found = []; for (let c = 0; c <= 0x10ffff; c++) {"
        " if (window.blocks.normalise(`a${String.fromCodePoint(c)}b`) === 'ab') found.push(c); } return found; }"
    )
    assert javascript == python
    assert python == [*range(0x00, 0x09), *range(0x0E, 0x1C), *range(0x7F, 0x85), *range(0x86, 0xA0)]


# --- the alignment of gold lines to the blocks, the same in Chromium ---------------------------------------

ALIGNMENT_CASES = json.loads((ROOT / "tests" / "data" / "alignment" / "cases.json").read_text(encoding="utf-8"))


def js_align(tab, lines: list[str], blocks: list[str], pinned: list[int] = ()) -> list[int]:
    return tab.evaluate("([lines, blocks, pinned]) => window.align.align(lines, blocks, new Set(pinned))",
                        [lines, blocks, list(pinned)])


@pytest.mark.browser
def test_align_js_aligns_as_python_on_the_cases(blocks_tab):
    for case in ALIGNMENT_CASES:
        pinned = case.get("pinned", [])
        python = align(case["lines"], case["blocks"], set(pinned))
        assert js_align(blocks_tab, case["lines"], case["blocks"], pinned) == python == case["aligned"], case["case"]


@pytest.mark.browser
@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("slug", SLUGS[::4])
def test_align_js_and_python_align_readability_s_gold_to_the_page_alike(blocks_tab, slug):
    """Readability's expected text against the page's blocks, and the same lines shuffled by a fixed rule
    (every third line moved to the end), with every fifth block pinned, so that the runs, the pins and the
    choice between copies are exercised."""
    source, expected = READABILITY_PAGES / slug / "source.html", READABILITY_PAGES / slug / "expected.html"
    if not expected.exists():
        pytest.skip(f"{slug} has no expected.html")
    blocks = block_lines(parse_html(decode(source.read_bytes()).text))
    gold = block_lines(parse_html(decode(expected.read_bytes()).text))
    moved = [line for i, line in enumerate(gold) if i % 3] + gold[::3]
    pinned = list(range(0, len(blocks), 5))  # every fifth block, as if clicked
    for lines in (gold, moved):
        python = align(lines, blocks, set(pinned))
        assert js_align(blocks_tab, lines, blocks, pinned) == python
        assert [b for b in python if b >= 0] == sorted(b for b in python if b >= 0)


# WCXB pages whose gold has lines repeated elsewhere on the page (tables of contents, menus, repeated labels)
WCXB_REPEATS = ["0053", "0145", "0185", "0216", "0257", "0281", "0341", "0359"]


@pytest.mark.browser
@pytest.mark.corpus(WCXB)
@pytest.mark.parametrize("item", WCXB_REPEATS)
def test_align_js_and_python_align_wcxb_gold_with_repeated_lines_alike(blocks_tab, item):
    html = decode(gzip.decompress((WCXB_SAMPLE / "dev" / "html" / f"{item}.html.gz").read_bytes())).text
    truth = json.loads((WCXB_SAMPLE / "dev" / "ground-truth" / f"{item}.json").read_text(encoding="utf-8"))
    lines = truth["ground_truth"]["main_content"].split("\n")
    blocks = block_lines(parse_html(html))
    python = align(lines, blocks)
    assert any(b >= 0 and blocks.count(blocks[b]) > 1 for b in python)  # a repeated text is matched
    assert js_align(blocks_tab, lines, blocks) == python
    pinned = [b for b, text in enumerate(blocks) if blocks.count(text) > 1][::2]  # every other copy clicked
    assert js_align(blocks_tab, lines, blocks, pinned) == align(lines, blocks, set(pinned))


# --- the annotator's clicks on such blocks ----------------------------------------------------------------

RUNS = ("<html><body><div>Intro words<p>A paragraph</p>First run<br><br>Second <b>run</b><br><br>"
        "Third run</div></body></html>")


def click_text(tab, text: str) -> None:
    """Click the middle of the first text node of the frame that holds `text`."""
    x, y = tab.evaluate(
        """(text) => {
          const frame = document.getElementById('frame'), doc = frame.contentDocument;
          const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
          let node = walker.nextNode();
          while (node && !node.data.includes(text)) node = walker.nextNode();
          const range = doc.createRange();
          range.setStart(node, node.data.indexOf(text));
          range.setEnd(node, node.data.indexOf(text) + text.length);
          const box = range.getBoundingClientRect(), at = frame.getBoundingClientRect();
          return [at.left + frame.clientLeft + box.left + box.width / 2,
                  at.top + frame.clientTop + box.top + box.height / 2];
        }""",
        text,
    )
    tab.mouse.click(x, y)


def until(tab, expression: str) -> None:
    for _ in range(200):
        if tab.evaluate(expression):
            return
        tab.wait_for_timeout(50)
    raise AssertionError(f"still false: {expression}")


@pytest.mark.browser
def test_runs_between_brs_are_clicked_in_and_out_of_the_gold_one_by_one(session, live_server, context):
    page_id = make_page(session, RUNS).id
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/pages/{page_id}")
    until(tab, "document.getElementById('frame').contentDocument?.querySelector('style') !== null")
    editor = "document.getElementById('editor').value"
    shared = "(document.getElementById('frame').contentWindow.CSS.highlights.get('goldtext-in')?.size ?? 0)"
    marked = "document.getElementById('frame').contentDocument.querySelectorAll('.goldtext-in').length"
    click_text(tab, "Second")
    until(tab, f"{editor} === 'Second run'")
    click_text(tab, "Intro")
    click_text(tab, "paragraph")
    until(tab, f"{editor} === 'Intro words\\nA paragraph\\nSecond run'")
    until(tab, f"{shared} === 2 && {marked} === 1")  # two runs of the div marked on their text, the <p> whole
    click_text(tab, "Second")
    until(tab, f"{editor} === 'Intro words\\nA paragraph'")
    until(tab, f"{shared} === 1")
    tab.mouse.move(0, 0)
    click_text(tab, "Third")
    until(tab, f"{editor} === 'Intro words\\nA paragraph\\nThird run'")
    hovered = "(document.getElementById('frame').contentWindow.CSS.highlights.get('goldtext-hover')?.size ?? 0)"
    until(tab, f"{hovered} === 1")
