"""The annotate view in Chromium at 1366x768, as an annotator uses it: selections never change the
gold, every change from the page is visible and undoable, the newest selection makes the snippet, focus
never traps the shortcuts, unsaved work is shown and never lost or shown over newer text, a clobbering
saved page cannot break the page script, and a page goes from the queue to saved, typed gold by keyboard."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from sqlalchemy import select
from workbench import add_gold, make_page

from webapp.models import Gold, GoldRevision

pytestmark = pytest.mark.browser

PARAS = [f"Paragraph number {i} of the story" for i in range(1, 41)]
LONG = "<html><body>" + "".join(f"<p>{p}</p>" for p in PARAS) + "</body></html>"
HARBOUR = "<html><body><h1>Harbour news</h1><p>Harbour reopens today after the storm</p><p>Menu</p></body></html>"
CANDIDATES = {"trafilatura": "Harbour reopens today after the storm", "density": "Menu Harbour reopens"}
EDITOR = "document.getElementById('editor').value"


@pytest.fixture
def context(laptop):
    return laptop


def open_page(context, base, page_id, name="Ann"):
    tab = signed_in(context, base, name)
    tab.goto(f"{base}/pages/{page_id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    return tab


def revisions(session, page_id):
    rows = session.execute(
        select(GoldRevision.text, GoldRevision.page_type, GoldRevision.status).order_by(GoldRevision.id)
    ).all()
    session.rollback()
    return [tuple(row) for row in rows]


def text_box(tab, text: str, in_frame: bool = True) -> dict:
    """The viewport box of `text` (in the frame or in the app page)."""
    return tab.evaluate(
        """([text, inFrame]) => {
          const frame = document.getElementById('frame');
          const doc = inFrame ? frame.contentDocument : document;
          const walker = Document.prototype.createTreeWalker.call(doc, doc.body, NodeFilter.SHOW_TEXT);
          let node = walker.nextNode();
          while (node && !node.data.includes(text)) node = walker.nextNode();
          node.parentElement.scrollIntoView({block: 'center'});
          const range = Document.prototype.createRange.call(doc);  // the page may clobber doc.createRange
          range.setStart(node, node.data.indexOf(text));
          range.setEnd(node, node.data.indexOf(text) + text.length);
          const box = range.getBoundingClientRect();
          const at = inFrame ? frame.getBoundingClientRect() : {left: 0, top: 0};
          const dx = inFrame ? at.left + frame.clientLeft : 0, dy = inFrame ? at.top + frame.clientTop : 0;
          return {left: dx + box.left, right: dx + box.right, y: dy + box.top + box.height / 2};
        }""",
        [text, in_frame],
    )


def click_text(tab, text: str, count: int = 1, in_frame: bool = True) -> None:
    box = text_box(tab, text, in_frame)
    tab.mouse.click((box["left"] + box["right"]) / 2, box["y"], click_count=count)


def drag(tab, start: float, end: float, y: float) -> None:
    """Press, move and release the mouse as a hand does, through the DevTools protocol (Playwright's own
    mouse waits for a drag and drop that never comes when the press starts in the sandboxed frame)."""
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": start, "y": y, "button": "left",
                                          "buttons": 1, "clickCount": 1})
    for step in range(1, 6):
        cdp.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": start + (end - start) * step / 5, "y": y,
                                              "button": "left", "buttons": 1})
    cdp.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": end, "y": y, "button": "left",
                                          "buttons": 0, "clickCount": 1})
    cdp.detach()


# --- defect 1: selecting never toggles; a click's change is visible and undoable -----------------------

def test_selecting_text_in_the_page_never_changes_the_gold_and_a_click_is_shown_and_undone(
    session, live_server, context
):
    page_id = make_page(session, LONG, candidates={"trafilatura": "\n".join(PARAS[:-1])}).id
    tab = open_page(context, live_server, page_id)
    before = tab.input_value("#editor")
    box = text_box(tab, PARAS[5])  # a drag inside one paragraph
    drag(tab, box["left"] + 2, box["right"] - 2, box["y"])
    click_text(tab, "story", count=2)  # a double click selects a word
    click_text(tab, PARAS[7], count=3)  # a triple click selects the paragraph
    tab.wait_for_timeout(800)
    assert tab.input_value("#editor") == before
    click_text(tab, PARAS[-1])  # a plain click takes the last paragraph in
    until(tab, f"{EDITOR}.endsWith({PARAS[-1]!r})")
    assert "Added" in tab.inner_text("#notices") and PARAS[-1] in tab.inner_text("#notices")
    assert tab.evaluate("document.getElementById('editor').scrollTop") > 0  # scrolled to the new line
    tab.keyboard.press("Control+z")  # the focus is in the frame
    until(tab, f"{EDITOR} === {before!r}")
    click_text(tab, PARAS[0])  # and out again, with a notice
    until(tab, f"!{EDITOR}.includes({PARAS[0]!r})")
    assert "Took out" in tab.inner_text("#notices")
    tab.evaluate("document.activeElement.blur()")
    tab.keyboard.press("Control+z")  # the focus is nowhere in particular
    until(tab, f"{EDITOR} === {before!r}")


# --- defect 2: the newest selection counts; a snippet is in one list only -----------------------------

def snippet_lists(tab):
    return tab.evaluate("""() => Object.fromEntries(['with', 'without'].map((k) =>
      [k, [...document.querySelectorAll(`#snippets-${k} input`)].map((i) => i.value)]))""")


def test_the_newest_selection_is_the_snippet_and_a_snippet_is_in_one_list_only(session, live_server, context):
    page_id = make_page(session, HARBOUR, candidates=CANDIDATES).id
    tab = open_page(context, live_server, page_id)
    tab.keyboard.press("2")  # density: its diff shows "storm" as missing
    click_text(tab, "Harbour news", count=2)  # an older selection in the page
    click_text(tab, "storm", count=2, in_frame=False)  # the newer one, in the candidate diff
    tab.keyboard.press("i")
    assert snippet_lists(tab) == {"with": ["storm"], "without": []}
    click_text(tab, "storm", count=2, in_frame=False)
    tab.keyboard.press("e")
    assert snippet_lists(tab) == {"with": [], "without": ["storm"]}
    assert "must-include" in tab.inner_text("#notices")


def test_a_word_double_clicked_in_a_block_outside_the_gold_is_the_snippet(session, live_server, context):
    # The double click's first press adds the block (the editor selects its line to show it), its second
    # takes it out again: the word selected in the page is the newest selection, not the editor's line.
    page_id = make_page(session, LONG, candidates={"trafilatura": "\n".join(PARAS[:5])}).id
    tab = open_page(context, live_server, page_id)
    before = tab.input_value("#editor")
    click_text(tab, "30", count=2)
    until(tab, "document.getElementById('frame').contentDocument.getSelection().toString().trim() === '30'")
    tab.keyboard.press("e")
    assert snippet_lists(tab) == {"with": [], "without": ["30"]}
    assert tab.input_value("#editor") == before


# --- defect 4: focus goes back after a dropdown -----------------------------------------------------

def test_after_choosing_a_page_type_with_the_mouse_n_goes_to_the_next_page(session, live_server, context):
    first = make_page(session, HARBOUR, candidates=CANDIDATES).id
    second = make_page(session, HARBOUR, candidates=CANDIDATES).id
    tab = open_page(context, live_server, first)
    tab.click("#type")
    tab.select_option("#type", "listing")
    tab.keyboard.press("n")
    tab.wait_for_url(f"**/pages/{second}")
    assert revisions(session, first)[-1][1] == "listing"  # n saved the change before moving


# --- defect 5: unsaved work is shown, saved before moving, and an older draft never hides newer text -------

def test_unsaved_changes_are_shown_and_n_saves_them_before_moving(session, live_server, context):
    first = make_page(session, HARBOUR, candidates=CANDIDATES).id
    second = make_page(session, HARBOUR, candidates=CANDIDATES).id
    tab = open_page(context, live_server, first)
    assert not tab.is_visible("#unsaved")
    tab.keyboard.press("Enter")  # into the editor
    tab.keyboard.press("End")
    tab.keyboard.type(" again")
    assert tab.is_visible("#unsaved") and tab.title().startswith("*")
    tab.keyboard.press("Escape")  # out of the editor
    tab.keyboard.press("n")
    tab.wait_for_url(f"**/pages/{second}")
    assert revisions(session, first) == [("Harbour reopens today after the storm again", "article", "done")]


def test_an_older_draft_is_offered_with_a_diff_never_shown_over_newer_text(session, live_server, context):
    page = make_page(session, HARBOUR, candidates=CANDIDATES)
    add_gold(session, page, text="Version one", page_type="article", status="done", author="Bob")
    session.commit()
    tab = open_page(context, live_server, page.id)
    tab.fill("#editor", "My draft words")
    until(tab, f"localStorage.getItem('goldtext:draft:{page.id}') !== null")
    add_gold(session, page, text="Version two elsewhere", page_type="article", status="done", author="Bob")
    session.commit()
    tab.on("dialog", lambda dialog: dialog.accept())
    tab.reload()
    until(tab, "document.body.dataset.ready === 'yes'")
    assert tab.input_value("#editor") == "Version two elsewhere"
    assert tab.is_visible("#old-draft")
    assert "My draft words" in tab.inner_text("#old-draft-diff")
    tab.click("#old-draft-use")
    assert tab.input_value("#editor") == "My draft words"
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version 3')")
    assert not tab.is_visible("#conflict")


# --- defect 7: a clobbering saved page -------------------------------------------------------------------

CLOBBER = """<html><body><img name="addEventListener"><img name="getSelection"><img name="createElement">
<img name="defaultView"><img name="head"><img name="createRange"><img name="URL">
<p id="para">Clobbered paragraph</p><a id="away" href="https://elsewhere.example/">away</a></body></html>"""


def test_a_clobbering_page_keeps_block_clicks_and_click_cancelling(session, live_server, context):
    page_id = make_page(session, CLOBBER).id
    tab = open_page(context, live_server, page_id)
    click_text(tab, "Clobbered")
    until(tab, f"{EDITOR} === 'Clobbered paragraph'")
    raw = tab.evaluate("document.getElementById('frame').contentWindow.location.href")
    tab.frame_locator("#frame").locator("#away").click()
    tab.wait_for_timeout(500)
    assert tab.evaluate("document.getElementById('frame').contentWindow.location.href") == raw


def test_form_controls_named_like_node_properties_do_not_derail_the_block_walk(session, live_server, context):
    html = ('<html><body><form><input name="nextSibling"><input name="firstChild"><input name="parentNode">'
            '<input name="classList"></form><p>After the form</p></body></html>')
    page_id = make_page(session, html).id
    tab = open_page(context, live_server, page_id)
    click_text(tab, "After the form")
    until(tab, f"{EDITOR} === 'After the form'")


# --- 11: the conflict panel, the help overlay, the active tab, notices -----------------------------------

def test_the_conflict_panel_leaves_the_editor_room_and_names_the_version_once(session, live_server, browser):
    page_id = make_page(session, HARBOUR, candidates={"trafilatura": "\n".join(PARAS)}).id
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in range(2)]
    try:
        ann = open_page(contexts[0], live_server, page_id, "Ann")
        bob = open_page(contexts[1], live_server, page_id, "Bob")
        ann.fill("#editor", "\n".join(PARAS[:30]))
        ann.click("#save")
        until(ann, "document.getElementById('save-state').textContent.startsWith('Saved')")
        bob.fill("#editor", "\n".join(PARAS[10:]))
        bob.click("#save")
        bob.wait_for_selector("#conflict:not([hidden])")
        assert bob.evaluate("document.getElementById('editor').clientHeight") >= 8 * 21  # eight lines at least
        bob.click("#keep-theirs")
        assert bob.inner_text("#save-state") == "Showing version 1 by Ann."
    finally:
        for made in contexts:
            made.close()


def test_the_help_is_modal(session, live_server, context):
    page_id = make_page(session, HARBOUR, candidates=CANDIDATES).id
    tab = open_page(context, live_server, page_id)
    tab.keyboard.press("?")
    assert tab.is_visible("#help")
    for _ in range(8):
        tab.keyboard.press("Tab")
        assert tab.evaluate("document.getElementById('help').contains(document.activeElement)")
    tab.keyboard.press("n")
    tab.keyboard.press("x")
    assert tab.url.endswith(f"/pages/{page_id}") and tab.input_value("#type") == "article"
    tab.keyboard.press("Escape")
    assert not tab.is_visible("#help")
    tab.keyboard.press("x")
    assert tab.input_value("#type") == "error"


def contrast(tab, selector: str) -> float:
    return tab.evaluate("""(selector) => {
      const lum = (css) => { const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
        v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const style = getComputedStyle(document.querySelector(selector));
      const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }""", selector)


def test_the_active_tab_number_is_readable(session, live_server, context):
    page_id = make_page(session, HARBOUR, candidates=CANDIDATES).id
    tab = open_page(context, live_server, page_id)
    assert contrast(tab, "#tabs .tab.active kbd") >= 4.5
    assert contrast(tab, "#tabs .tab:not(.active) kbd") >= 4.5


def test_notices_do_not_pile_up(session, live_server, context):
    page_id = make_page(session, HARBOUR, candidates=CANDIDATES).id
    tab = open_page(context, live_server, page_id)
    for key in "1u2u1u2u1u":
        tab.keyboard.press(key)
    notices = tab.locator("#notices .notice").all_inner_texts()
    assert len(notices) <= 3
    assert sum("Replaced" in n for n in notices) == 1


# --- keys for everything ------------------------------------------------------------------------------

def test_a_page_from_the_queue_to_saved_typed_gold_by_keyboard_alone(session, live_server, context):
    first = make_page(session, HARBOUR, url="https://news.example/a", candidates=CANDIDATES).id
    second = make_page(session, HARBOUR, url="https://news.example/b", candidates=CANDIDATES).id
    tab = signed_in(context, live_server)
    tab.goto(live_server + "/")
    tab.keyboard.press("Enter")
    tab.wait_for_url(f"**/pages/{first}")
    until(tab, "document.body.dataset.ready === 'yes'")
    tab.keyboard.press("l")  # page type: listing
    assert tab.input_value("#type") == "listing"
    tab.keyboard.press("f")  # the saved page
    assert tab.evaluate("document.activeElement.id") == "frame"
    tab.keyboard.press("c")  # the candidates' diff, from inside the frame
    assert tab.evaluate("document.activeElement.id") == "diff"
    tab.keyboard.press("Enter")  # into the editor
    assert tab.evaluate("document.activeElement.id") == "editor"
    tab.keyboard.press("Control+End")
    tab.keyboard.type(" Now.")
    tab.keyboard.press("Escape")  # out of the editor
    assert tab.evaluate("document.activeElement.id") != "editor"
    tab.keyboard.press("D")  # done and next
    tab.wait_for_url(f"**/pages/{second}")
    assert revisions(session, first) == [("Harbour reopens today after the storm Now.", "listing", "done")]


def test_c_goes_to_the_lines_to_take_while_they_are_shown_and_arrow_keys_scroll_them(session, live_server, context):
    # With Lines to take shown, c focused the hidden word diff: nothing had the focus and the arrows scrolled
    # nothing.
    lines = "\n".join(PARAS)
    page_id = make_page(session, LONG, url="https://news.example/long",
                        candidates={"trafilatura": PARAS[0], "density": lines}).id
    tab = open_page(context, live_server, page_id)
    tab.keyboard.press("2")  # density: 39 lines the gold lacks
    tab.click("#show-lines")
    until(tab, "!document.getElementById('lines').hidden")
    tab.keyboard.press("Escape")
    tab.keyboard.press("c")
    assert tab.evaluate("document.activeElement.id") == "lines"
    tab.keyboard.press("PageDown")
    until(tab, "document.getElementById('lines').scrollTop > 0")
    tab.click("#show-lines")  # back to the word diff: c goes there again
    tab.keyboard.press("c")
    assert tab.evaluate("document.activeElement.id") == "diff"


def test_every_page_type_has_its_key_in_the_help_and_the_guide(session, live_server, context):
    from pathlib import Path

    from webapp.foundation.vocabulary import DEFAULT_PAGE_TYPES

    page_id = make_page(session, HARBOUR, candidates=CANDIDATES).id
    tab = open_page(context, live_server, page_id)
    rows = tab.evaluate("""[...document.querySelectorAll('#help-table tr')].map((row) =>
      [[...row.cells[0].querySelectorAll('kbd')].map((k) => k.textContent), row.cells[1].textContent])""")
    guide = (Path(__file__).resolve().parents[2] / "docs" / "annotating.md").read_text()
    for key, label in DEFAULT_PAGE_TYPES.items():
        row = next((r for r in rows if r[1] == f"page type: {label}"), None)
        assert row is not None, f"no key for the page type {label}"
        tab.keyboard.press(row[0][0])
        assert tab.input_value("#type") == key
    for keys, label in rows:  # the guide lists every key the overlay lists, with the same words
        cells = " ".join(f"<kbd>{k}</kbd>" for k in keys)
        assert f"| {cells} | {label} |" in guide, f"{cells} | {label}"
    assert session.scalars(select(Gold)).all() == []


# --- repeated boilerplate: outlined in the page, one key takes it out of the gold ------------------------

CLUB = ("<html><body><nav><p>Club menu</p></nav><h1>Story {n}</h1><p>Story {n} is here, in its own words.</p>"
        "<footer><p>Club footer</p></footer></body></html>")


def test_repeated_blocks_are_outlined_and_b_takes_every_such_line_out_of_the_gold(session, live_server, context):
    pages = [make_page(session, CLUB.format(n=n), url=f"https://club.example/{n}", host="club.example",
                       candidates={"trafilatura": f"Story {n} is here, in its own words."}).id for n in range(4)]
    tab = open_page(context, live_server, pages[0])
    marked = ("[...document.getElementById('frame').contentDocument.querySelectorAll('.goldtext-repeated')]"
              ".map((e) => e.textContent.trim()).sort()")
    until(tab, f"{marked}.length === 2")
    assert tab.evaluate(marked) == ["Club footer", "Club menu"]
    assert tab.evaluate(EDITOR) == "Story 0 is here, in its own words."  # left out of the prefill

    tab.evaluate("""() => { const editor = document.getElementById('editor');
      editor.value = 'Club menu\\nStory 0\\nStory 0 is here, in its own words.\\nClub footer';
      editor.dispatchEvent(new Event('input')); editor.blur(); }""")
    tab.keyboard.press("b")
    until(tab, f"{EDITOR} === 'Story 0\\nStory 0 is here, in its own words.'")
    assert "Took out 2 lines repeated on this site's pages." in tab.inner_text("#notices")
    tab.keyboard.press("Control+z")
    until(tab, f"{EDITOR}.startsWith('Club menu')")
    tab.keyboard.press("b")
    tab.keyboard.press("b")  # nothing left to take out: said so, nothing changed
    until(tab, "document.getElementById('notices').innerText.includes('No line of the gold is repeated')")
    assert tab.evaluate(EDITOR) == "Story 0\nStory 0 is here, in its own words."
