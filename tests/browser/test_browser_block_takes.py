"""Every line in its place, and fewer actions per page, in Chromium at 1366x768:
blocks whose text is repeated on the page (a sidebar's words as card titles, a heading in the breadcrumb,
two "Read more" links, menu items as content) land at their own place whatever the click order, only the
copies in the gold are highlighted and a click takes out its own line; Shift+click ranges, containers
widened by key, keyboard-only use, lines taken from a candidate; and a real WCXB page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_fixtures import signed_in, until
from corpora import WCXB, WCXB_SAMPLE
from sqlalchemy import select
from workbench import make_page

from webapp.corpus.decoding import decode
from webapp.corpus.visible_text import block_lines, parse_html, walk_blocks
from webapp.models import Gold, GoldRevision

pytestmark = pytest.mark.browser

DATA = Path(__file__).parents[1] / "data" / "alignment"
CATALOGUE = (DATA / "catalogue.html").read_text(encoding="utf-8")
SERVICE = (DATA / "service.html").read_text(encoding="utf-8")
EDITOR = "document.getElementById('editor').value"


@pytest.fixture
def context(laptop):
    return laptop


def open_page(context, base, page_id):
    tab = signed_in(context, base)
    tab.goto(f"{base}/pages/{page_id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    until(tab, "document.getElementById('frame').contentDocument?.querySelector('style') !== null")
    return tab


def gold(tab) -> list[str]:
    return tab.evaluate(EDITOR).split("\n") if tab.evaluate(EDITOR) else []


def saved_text(session, page_id) -> str:
    text = session.scalars(select(GoldRevision.text).join(Gold).where(Gold.page_id == page_id)
                           .order_by(GoldRevision.id.desc())).first()
    session.rollback()
    return text


def save(tab, session, page_id) -> list[str]:
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version')")
    return saved_text(session, page_id).split("\n")


# The nth (from 0) element of the frame whose own normalised text is `text`, by a CSS selector.
ELEMENT = """([selector, text, nth]) => {
  const doc = document.getElementById('frame').contentDocument;
  return [...doc.querySelectorAll(selector)].filter((e) => e.textContent.trim() === text)[nth];
}"""


def box(tab, selector: str, text: str, nth: int = 0) -> tuple[float, float]:
    """The viewport point at the middle of that element's text, scrolled into view."""
    return tuple(tab.evaluate(f"""(args) => {{
      const element = ({ELEMENT})(args);
      element.scrollIntoView({{block: 'center'}});
      const frame = document.getElementById('frame'), at = frame.getBoundingClientRect();
      const range = frame.contentDocument.createRange();
      range.selectNodeContents(element);
      const b = range.getClientRects()[0];
      return [at.left + frame.clientLeft + b.left + b.width / 2, at.top + frame.clientTop + b.top + b.height / 2];
    }}""", [selector, text, nth]))


def click(tab, selector: str, text: str, nth: int = 0, modifiers: list[str] | None = None) -> None:
    x, y = box(tab, selector, text, nth)
    tab.mouse.move(x, y)
    if modifiers:
        for key in modifiers:
            tab.keyboard.down(key)
    tab.mouse.click(x, y)
    for key in modifiers or []:
        tab.keyboard.up(key)


def highlighted(tab, selector: str, text: str, nth: int = 0) -> bool:
    """Whether that element's text is marked as in the gold: on its element (a block that is its element's
    whole text), or by the page's 'goldtext-in' highlight (a block sharing its element, as a card's link)."""
    return tab.evaluate(f"""(args) => {{
      const element = ({ELEMENT})(args);
      if (element.classList.contains('goldtext-in')) return true;
      const marks = document.getElementById('frame').contentWindow.CSS.highlights.get('goldtext-in');
      return [...(marks ?? [])].some((range) => range.intersectsNode(element.firstChild));
    }}""", [selector, text, nth])


CARDS = [("h1", "Widget catalogue", 0), ("h2", "Layout", 0), ("p", "Grids, stacks and flexible boxes.", 0),
         ("h2", "Accessibility", 0), ("a", "Read more", 1), ("h2", "Text", 0), ("a", "Read more", 3),
         ("a", "Read more", 0)]
# The clicked blocks in the page's order: the first two cards' "Read more" follow "Accessibility".
IN_ORDER = ["Widget catalogue", "Accessibility", "Read more", "Read more", "Layout",
            "Grids, stacks and flexible boxes.", "Text", "Read more"]


@pytest.mark.parametrize("order", [[0, 1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1, 0], [3, 6, 0, 1, 7, 2, 5, 4]],
                         ids=["top-down", "bottom-up", "mixed"])
def test_repeated_texts_land_at_their_own_place_in_any_click_order(session, live_server, context, order):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    for i in order:
        click(tab, *CARDS[i])
    until(tab, f"{EDITOR}.split('\\n').length === 8")
    assert save(tab, session, page_id) == IN_ORDER
    # the copies clicked are highlighted, and none other: not the sidebar's, not the breadcrumb's, not the footer's
    assert all(highlighted(tab, "h2", text) for text in ("Layout", "Accessibility", "Text"))
    assert not any(highlighted(tab, "li", text) for text in ("Accessibility", "Layout", "Text"))
    assert not highlighted(tab, "li", "Widget catalogue") and highlighted(tab, "h1", "Widget catalogue")
    assert [highlighted(tab, "a", "Read more", n) for n in range(4)] == [True, True, False, True]
    tab.reload()  # the saved gold alone (no clicks remembered) marks the same copies
    until(tab, "document.body.dataset.ready === 'yes'")
    until(tab, "document.getElementById('frame').contentDocument?.querySelector('.goldtext-in') !== null")
    assert all(highlighted(tab, "h2", text) for text in ("Layout", "Accessibility", "Text"))
    assert not any(highlighted(tab, "li", text) for text in ("Accessibility", "Layout", "Text", "Widget catalogue"))
    assert [highlighted(tab, "a", "Read more", n) for n in range(4)] == [True, True, False, True]


def test_menu_items_clicked_as_content_land_under_their_heading_and_the_h1_goes_first(session, live_server, context):
    page_id = make_page(session, SERVICE).id
    tab = open_page(context, live_server, page_id)
    for text in ("Health", "Energy", "Banking", "Retail"):  # the list's items, bottom-up
        click(tab, "ul.industries li", text)
    click(tab, "h2", "Industries we serve")
    click(tab, "h1", "Consulting for regulated industries")
    until(tab, f"{EDITOR}.split('\\n').length === 6")
    assert save(tab, session, page_id) == ["Consulting for regulated industries", "Industries we serve", "Retail",
                                           "Banking", "Energy", "Health"]
    assert not any(highlighted(tab, "header li", text) for text in ("Retail", "Banking", "Energy", "Health"))
    assert all(highlighted(tab, "ul.industries li", text) for text in ("Retail", "Banking", "Energy", "Health"))


def test_a_click_takes_out_its_own_line_not_every_line_with_its_text(session, live_server, context):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    for nth in (0, 1, 2):
        click(tab, "a", "Read more", nth)
    click(tab, "h2", "Async")
    until(tab, f"{EDITOR} === 'Read more\\n## Async\\nRead more\\nRead more'")  # the h2 as a heading
    click(tab, "a", "Read more", 1)  # the Async card's: the line after "Async" goes, the others stay
    until(tab, f"{EDITOR} === 'Read more\\n## Async\\nRead more'")
    assert [highlighted(tab, "a", "Read more", n) for n in range(4)] == [True, False, True, False]
    click(tab, "h2", "Layout")  # between the two that are left
    until(tab, f"{EDITOR} === 'Read more\\n## Async\\n## Layout\\nRead more'")
    assert save(tab, session, page_id) == ["Read more", "Async", "Layout", "Read more"]


def test_a_double_click_selects_a_word_and_leaves_the_gold_as_it_was(session, live_server, context):
    page_id = make_page(session, SERVICE).id
    tab = open_page(context, live_server, page_id)
    x, y = box(tab, "p", "We help firms meet the rules without slowing down.")
    tab.mouse.click(x, y, click_count=2)
    until(tab, "String(document.getElementById('frame').contentDocument.getSelection()).trim() !== ''")
    assert gold(tab) == []
    assert tab.locator("#notices .notice", has_text="Added").count() == 0
    click(tab, "h1", "Consulting for regulated industries")  # a plain click elsewhere right after takes its block
    until(tab, f"{EDITOR} === '# Consulting for regulated industries'")


def test_shift_click_takes_a_range_and_shift_click_on_a_taken_block_takes_it_out(session, live_server, context):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h2", "Async")
    click(tab, "p", "Grids, stacks and flexible boxes.", modifiers=["Shift"])
    until(tab, f"{EDITOR} === '## Async\\nFutures, streams and cancellation.\\nRead more\\n## Layout\\n"
               f"Grids, stacks and flexible boxes.'")
    assert tab.locator("#notices .notice", has_text="Added 4 blocks of the range").count() == 1
    click(tab, "h2", "Layout", modifiers=["Shift"])  # from the last one acted on (Grids…) back to Layout: out
    until(tab, f"{EDITOR} === '## Async\\nFutures, streams and cancellation.\\nRead more'")
    tab.keyboard.press("Control+z")  # one change, one undo
    until(tab, f"{EDITOR}.split('\\n').length === 5")


def outlined(tab) -> list[str]:
    return tab.evaluate("""[...document.getElementById('frame').contentDocument.querySelectorAll('.goldtext-container')]
      .map((e) => e.localName + '.' + e.className.split(' ')[0])""")


def test_plus_widens_the_hovered_block_to_its_card_then_the_section_and_a_click_takes_it(session, live_server, context):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    x, y = box(tab, "h2", "Async")
    tab.mouse.move(x, y)
    tab.keyboard.press("+")
    until(tab, "document.getElementById('save-state').textContent.includes('3 blocks')")
    assert outlined(tab) == ["div.card"]
    tab.keyboard.press("+")
    assert outlined(tab) == ["section.cards"]
    tab.keyboard.press("-")
    assert outlined(tab) == ["div.card"]
    tab.mouse.click(x, y)
    until(tab, f"{EDITOR} === '## Async\\nFutures, streams and cancellation.\\nRead more'")
    tab.keyboard.press("+")
    tab.mouse.click(x, y)  # the section, with the card in it already: the other three cards go in around it
    until(tab, f"{EDITOR}.split('\\n').length === 12")
    blocks = block_lines(parse_html(CATALOGUE))
    cards = blocks[blocks.index("Screen readers, focus order and labels.") - 1:blocks.index("Version Released")]
    assert save(tab, session, page_id) == cards
    tab.mouse.click(x, y)  # every block of the section in: a click takes them all out
    until(tab, f"{EDITOR} === ''")


def test_keyboard_alone_points_takes_ranges_and_containers(session, live_server, context):
    page_id = make_page(session, SERVICE).id
    tab = open_page(context, live_server, page_id)
    blocks = block_lines(parse_html(SERVICE))
    h1 = blocks.index("Consulting for regulated industries")
    for _ in range(h1 + 1):
        tab.keyboard.press("]")
    until(tab, "document.getElementById('save-state').textContent.includes('Consulting for regulated')")
    tab.keyboard.press("t")
    until(tab, f"{EDITOR} === '# Consulting for regulated industries'")
    for _ in range(3):
        tab.keyboard.press("]")  # the paragraph, the h2, the list's first item
    tab.keyboard.press("+")  # the list
    until(tab, "document.getElementById('save-state').textContent.includes('a ul with 4 blocks')")
    tab.keyboard.press("t")
    until(tab, f"{EDITOR} === '# Consulting for regulated industries\\n- Retail\\n- Banking\\n- Energy\\n- Health'")
    tab.keyboard.press("-")
    tab.keyboard.press("[")
    tab.keyboard.press("[")  # the paragraph under the h1
    tab.keyboard.press("T")  # from the list's first item (last acted on) back to here: both the p and the h2 go in
    until(tab, f"{EDITOR}.split('\\n').length === 7")
    assert save(tab, session, page_id) == blocks[h1:h1 + 7]


# --- a real page: WCXB's 0257, whose headings are repeated in its table of contents -------------------------

# The page's blocks as the annotate view finds them, and whether each is marked as in the gold.
FRAME_BLOCKS = """async () => {
  const { blocksOf } = await import('/static/js/blocks.js');
  const rules = JSON.parse(document.getElementById('page-data').textContent).blocks;
  const frame = document.getElementById('frame'), doc = frame.contentDocument;
  const marks = [...(frame.contentWindow.CSS.highlights.get('goldtext-in') ?? [])];
  return blocksOf(doc, rules).map((block) => block.whole ? block.owner.classList.contains('goldtext-in')
    : marks.some((range) => range.intersectsNode(block.nodes[0])));
}"""

CLICK_BLOCK = """async (index) => {
  const { blocksOf } = await import('/static/js/blocks.js');
  const rules = JSON.parse(document.getElementById('page-data').textContent).blocks;
  const frame = document.getElementById('frame'), doc = frame.contentDocument;
  const node = blocksOf(doc, rules)[index].nodes.find((n) => n.data.trim());
  node.parentElement.scrollIntoView({block: 'center'});
  const range = doc.createRange();
  range.selectNodeContents(node);
  const b = [...range.getClientRects()].find((r) => r.width > 0), at = frame.getBoundingClientRect();
  return [at.left + frame.clientLeft + b.left + Math.min(b.width / 2, 20),
          at.top + frame.clientTop + b.top + b.height / 2];
}"""


@pytest.mark.corpus(WCXB)
def test_on_a_real_page_headings_repeated_in_its_contents_land_at_their_place(session, live_server, context):
    import gzip

    from webapp.corpus.alignment import align

    html = decode(gzip.decompress((WCXB_SAMPLE / "dev" / "html" / "0257.html.gz").read_bytes())).text
    truth = json.loads((WCXB_SAMPLE / "dev" / "ground-truth" / "0257.json").read_text())["ground_truth"]
    blocks, spans = walk_blocks(parse_html(html))
    # a table's rows are left out: a click on one takes the whole table (test_browser_markdown_editor.py)
    in_tables = {k for element, (start, end) in spans.items() if element.tag == "table" for k in range(start, end)}
    lines = [line for line in truth["main_content"].split("\n") if line.strip()]
    aligned = align(lines, blocks)
    repeated = [i for i, b in enumerate(aligned) if b >= 0 and b not in in_tables and blocks.count(blocks[b]) > 1][:4]
    chosen = sorted({i for r in repeated for i in (r, r + 1) if aligned[i] >= 0 and aligned[i] not in in_tables})
    assert len(chosen) >= 6
    page_id = make_page(session, html).id
    tab = open_page(context, live_server, page_id)
    for i in sorted(chosen, key=lambda i: -aligned[i]):  # bottom-up: every click lands above the lines in
        x, y = tab.evaluate(CLICK_BLOCK, aligned[i])
        tab.mouse.click(x, y)
        tab.mouse.move(0, 0)
    # one line per block clicked (a blank line apart where Markdown needs one: a paragraph after a list item)
    until(tab, f"{EDITOR}.split('\\n').filter((line) => line.trim()).length === {len(chosen)}")
    assert save(tab, session, page_id) == [blocks[aligned[i]] for i in chosen]  # the gold's lines, normalised
    marked = tab.evaluate(FRAME_BLOCKS)
    assert [b for b, on in enumerate(marked) if on] == [aligned[i] for i in chosen]  # not the contents' copies


# --- lines taken from a candidate ------------------------------------------------------------------------

PREFILL = "Consulting for regulated industries\nWe help firms meet the rules without slowing down.\n" \
          "Talk to us about your project."
OTHER = "Industries we serve\nRetail\nBanking\nEnergy\nHealth\nTalk to us about your project.\nCall 555-0100 today"


def test_a_candidate_s_lines_are_taken_one_by_key_a_run_at_once_and_each_lands_at_its_place(
        session, live_server, context):
    page_id = make_page(session, SERVICE, candidates={"trafilatura": PREFILL, "density": OTHER}).id
    tab = open_page(context, live_server, page_id)
    assert tab.evaluate(EDITOR) == PREFILL
    tab.keyboard.press("2")
    tab.keyboard.press("y")
    until(tab, "document.activeElement?.classList.contains('take-line')")
    assert tab.evaluate("document.activeElement.textContent") == "Industries we serve"
    tab.keyboard.press("Enter")  # lands after the paragraph it follows on the page, not at the end
    until(tab, f"{EDITOR}.split('\\n').length === 4")
    assert gold(tab) == ["Consulting for regulated industries", "We help firms meet the rules without slowing down.",
                         "Industries we serve", "Talk to us about your project."]
    assert tab.locator("#notices .notice", has_text="Took “Industries we serve” from density").count() == 1
    tab.locator("#lines .take-run", has_text="Take these 4 lines").click()
    until(tab, f"{EDITOR}.split('\\n').length === 8")
    tab.locator("#lines .take-line", has_text="Call 555-0100 today").click()  # not on the page: after its neighbour
    until(tab, f"{EDITOR}.split('\\n').length === 9")
    assert tab.locator("#lines").inner_text() == "Every line of density is in the gold."
    tab.keyboard.press("Control+z")
    until(tab, f"{EDITOR}.split('\\n').length === 8")
    until(tab, "[...document.querySelectorAll('#lines .take-line')].map((b) => b.textContent).join('|')"
               " === 'Call 555-0100 today'")  # the list follows the gold
    tab.locator("#lines .take-line").click()
    until(tab, f"{EDITOR}.split('\\n').length === 9")
    assert save(tab, session, page_id) == [
        "Consulting for regulated industries", "We help firms meet the rules without slowing down.",
        "Industries we serve", "Retail", "Banking", "Energy", "Health", "Talk to us about your project.",
        "Call 555-0100 today"]


def test_a_candidate_s_version_of_a_region_replaces_the_gold_s_in_one_action(session, live_server, context):
    prefill = "Consulting for regulated industries\nWe help firms.\nTalk to us about your project."
    theirs = "Consulting for regulated industries\nWe help firms meet the rules without slowing down.\n" \
             "Industries we serve\nTalk to us about your project."
    page_id = make_page(session, SERVICE, candidates={"trafilatura": prefill, "density": theirs}).id
    tab = open_page(context, live_server, page_id)
    tab.keyboard.press("2")
    tab.locator("#show-lines").click()
    tab.locator("#lines .take-replace", has_text="Replace the gold's 1 line here with these").click()
    until(tab, f"{EDITOR} === {json.dumps(theirs)}")
    assert tab.locator("#notices .notice", has_text="Replaced 1 line of the gold with density's 2 lines").count() == 1
    tab.keyboard.press("Control+z")
    until(tab, f"{EDITOR} === {json.dumps(prefill)}")


def test_a_heading_with_control_characters_is_matched_to_the_extractors_line_and_clicked_out(
    session, live_server, context
):
    # A page decoded twice shows its em dash as "â" and two C1 controls; the extractor's prefill drops the
    # controls. The heading never matched its line: a click added it a second time, controls and all.
    html = "<html><body><h1>Ferry \u00e2\u0080\u0094 timetable</h1><p>The ferry leaves at nine.</p></body></html>"
    page_id = make_page(session, html, url="https://ferry.example/mojibake",
                        candidates={"trafilatura": "Ferry \u00e2 timetable\nThe ferry leaves at nine."}).id
    tab = open_page(context, live_server, page_id)
    assert gold(tab) == ["Ferry \u00e2 timetable", "The ferry leaves at nine."]
    click(tab, "h1", "Ferry \u00e2\u0080\u0094 timetable")
    until(tab, f"{EDITOR} === 'The ferry leaves at nine.'")
    click(tab, "h1", "Ferry \u00e2\u0080\u0094 timetable")
    until(tab, f"{EDITOR}.split('\\n').length === 2")
    # in its place, as a heading, no controls
    assert gold(tab) == ["# Ferry \u00e2 timetable", "The ferry leaves at nine."]
