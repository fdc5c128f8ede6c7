"""The notices above the annotate view's editor in Chromium: they say what is true after a save or a type
change, and the newest one (with its Undo) is in sight at 1366x768."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from workbench import PASSWORD, add_account, make_page

from webapp.accounts.roles import ANNOTATOR

pytestmark = pytest.mark.browser

PARAGRAPHS = "".join(f"<p>Paragraph number {n} of the story.</p>" for n in range(1, 9))
PAGE = f"<html><body><h1>A headline</h1>{PARAGRAPHS}</body></html>"
CANDIDATES = {"trafilatura": "A headline\nParagraph number 1 of the story."}


def notices(tab) -> list[str]:
    return tab.evaluate("[...document.querySelectorAll('#notices .notice')].map((n) => n.textContent)")


def opened(session, live_server, context, url: str):
    """A tab of a signed-in annotator on the annotate view of a new page (PAGE, at `url`)."""
    page_id = make_page(session, PAGE, url=url, candidates=CANDIDATES).id
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/pages/{page_id}")
    return tab


def test_after_a_save_no_notice_says_nothing_is_saved_or_that_saving_confirms_the_type(
    session, live_server, context
):
    tab = opened(session, live_server, context, "https://news.example/a")
    tab.wait_for_selector("#editor")
    assert any("nothing is saved yet" in text for text in notices(tab))
    assert any("Saving confirms it" in text for text in notices(tab))
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version 1')")
    shown = " ".join(notices(tab))
    assert "nothing is saved yet" not in shown
    assert "Saving confirms it" not in shown


def test_choosing_another_type_takes_away_the_notice_explaining_the_suggested_one(
    session, live_server, context
):
    tab = opened(session, live_server, context, "https://news.example/b")
    tab.wait_for_selector("#editor")
    assert any("Page type article" in text for text in notices(tab))
    tab.keyboard.press("h")  # documentation
    assert tab.input_value("#type") == "documentation"
    assert not any("Page type article" in text for text in notices(tab))
    assert any("nothing is saved yet" in text for text in notices(tab))  # still true: nothing is saved


def test_the_newest_notice_and_its_undo_are_in_sight_beside_the_guideline_at_1366x768(
    session, live_server, laptop
):
    tab = opened(session, live_server, laptop, "https://news.example/c")
    tab.wait_for_selector("#editor")
    tab.keyboard.press("G")  # the guideline narrows the editor's column: the notices wrap to more lines
    for _ in range(4):
        tab.keyboard.press("]")
    for _ in range(3):
        tab.keyboard.press("]")
        tab.keyboard.press("t")
    assert "Added “Paragraph number 6 of the story.”" in notices(tab)[-1]
    box = tab.locator("#notices").bounding_box()
    undo = tab.locator("#notices .notice").last.get_by_role("button", name="Undo (Ctrl+Z)").bounding_box()
    assert box and undo
    assert box["y"] <= undo["y"] and undo["y"] + undo["height"] <= box["y"] + box["height"] + 1


def test_the_annotate_view_fits_the_window_under_the_menu_bar_at_1366x768(session, live_server, laptop):
    # Logged in, the bar was 46 pixels tall with its Log out button, and the view's panes counted 40: the
    # window scrolled by 6 pixels and the panes' bottoms (the editor's save state) went under its edge.
    page_id = make_page(session, PAGE, url="https://news.example/d", candidates=CANDIDATES).id
    add_account(session, "Ann", ANNOTATOR)
    tab = laptop.new_page()
    tab.goto(f"{live_server}/pages/{page_id}")
    tab.fill("input[name=name]", "Ann")
    tab.fill("input[name=password]", PASSWORD)
    tab.click("button[type=submit]")
    tab.wait_for_selector("#editor")
    assert tab.get_by_role("button", name="Log out").is_visible()
    assert tab.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    state = tab.locator("#save-state").bounding_box()
    assert state and state["y"] + state["height"] <= 768


IN_SIGHT = """(selector) => {
    // Whether the element is wholly inside the window and inside every box around it that clips (scrolls).
    const element = document.querySelector(selector);
    const rect = element.getBoundingClientRect();
    if (!rect.height) return false;
    let top = 0, bottom = window.innerHeight, left = 0, right = window.innerWidth;
    for (let box = element.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflow === "visible") continue;
        const clip = box.getBoundingClientRect();
        top = Math.max(top, clip.top); bottom = Math.min(bottom, clip.bottom);
        left = Math.max(left, clip.left); right = Math.min(right, clip.right);
    }
    return rect.top >= top - 1 && rect.bottom <= bottom + 1 && rect.left >= left - 1 && rect.right <= right + 1;
}"""


@pytest.mark.settings(OVERLAP=2)
def test_blind_annotation_says_so_in_sight_beside_the_prefill_and_type_notices_at_1366x768(
    session, live_server, laptop
):
    # With the prefill, the type signal and the blind notice at once, the blind one was under the notices
    # box's lower edge (cut off, and wholly hidden with the guideline open): the annotator never read it.
    tab = opened(session, live_server, laptop, "https://forum.example/thread/12")
    until(tab, "document.body?.dataset.ready === 'yes'")
    shown = ("#prefill-notice", "#type-signal", "#blind-notice")
    for selector in shown:
        assert tab.evaluate(IN_SIGHT, selector), f"{selector} is not wholly in sight"
    assert "nobody sees another's until a reviewer adjudicates" in tab.text_content("#blind-notice")
    tab.keyboard.press("G")  # the guideline narrows the editor's column: the notices wrap to more lines
    until(tab, "!document.getElementById('guideline-panel').hidden")
    for selector in shown:
        assert tab.evaluate(IN_SIGHT, selector), f"{selector} is not wholly in sight beside the guideline"
    assert tab.evaluate("document.documentElement.scrollHeight <= window.innerHeight")


def test_a_notice_offers_no_undo_once_its_change_is_undone_with_ctrl_z(session, live_server, laptop):
    # Two blocks taken, then Ctrl+Z twice: the newest notice still offered "Undo", which put back the text
    # from before its change, so it took the first block in again.
    tab = opened(session, live_server, laptop, "https://news.example/undo")
    until(tab, "document.body?.dataset.ready === 'yes'")
    prefill = tab.input_value("#editor")
    for _ in range(4):
        tab.keyboard.press("]")
    tab.keyboard.press("t")  # Paragraph number 3 in
    tab.keyboard.press("]")
    tab.keyboard.press("t")  # Paragraph number 4 in
    newest = tab.locator("#notices .notice").last
    assert "Added “Paragraph number 4 of the story.”" in newest.text_content()
    assert newest.get_by_role("button", name="Undo (Ctrl+Z)").count() == 1
    tab.keyboard.press("Control+z")
    tab.keyboard.press("Control+z")
    assert tab.input_value("#editor") == prefill
    assert newest.get_by_role("button", name="Undo (Ctrl+Z)").count() == 0
