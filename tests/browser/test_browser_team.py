"""The team flow in Chromium at 1366x768: with OVERLAP 2, two annotators in two browser contexts
annotate the same page blind, a reviewer adjudicates by taking blocks from each (keyboard only) and saves
the gold with a note, and both annotators then see the reviewed diff from their text to the gold. Once the
page's places are full a third person's editor is read-only, and so is an annotator's once it is
adjudicated, each with the reason."""

from __future__ import annotations

import pytest
from browser_fixtures import logged_in_by_keyboard, signed_in, until
from sqlalchemy import select
from workbench import PASSWORD, add_account, make_page

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.models import Gold

pytestmark = [pytest.mark.browser, pytest.mark.settings(OVERLAP=2)]

HTML = ("<html><body><h1>Ferry timetable</h1><p>The ferry leaves at nine.</p><p>It returns at five.</p>"
        "<p>Tickets on board.</p></body></html>")
ANN = "The ferry leaves at nine.\nIt returns at five."
BOB = "The ferry leaves at nine.\nTickets on board."
EDITOR = "document.getElementById('editor')"


def context_of(browser):
    return browser.new_context(viewport={"width": 1366, "height": 768})


def enter(context, base: str, name: str, accounts: bool):
    """A new tab of the context as `name`: logged in through the login form (by keyboard) with accounts,
    else in local mode with the name typed once."""
    if not accounts:
        return signed_in(context, base, name)
    return logged_in_by_keyboard(context, base, name, PASSWORD)


def annotate(context, base, page_id, name, text, accounts):
    """The annotator opens the page from their own queue, types their text and saves (Ctrl+S)."""
    tab = enter(context, base, name, accounts)
    tab.goto(base + "/")
    tab.click(f"#own-queue a[href='/pages/{page_id}']")
    tab.wait_for_url(f"{base}/pages/{page_id}")
    until(tab, "document.body?.dataset.ready === 'yes'")
    assert tab.is_visible("#blind-notice")
    assert tab.evaluate(f"{EDITOR}.value") not in (ANN, BOB)  # nobody's annotation shows: the prefill
    tab.fill("#editor", text)
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version 1')")
    return tab


@pytest.mark.parametrize("accounts", [False, True], ids=["local-mode", "accounts"])
def test_two_annotators_blind_a_reviewer_adjudicates_both_see_the_reviewed_diff(app, browser, live_server, session,
                                                                                accounts):
    if accounts:
        for name, role in (("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rita", REVIEWER)):
            add_account(session, name, role)
    page_id = make_page(session, html=HTML, url="https://ferry.example/timetable",
                        candidates={"trafilatura": "Ferry timetable", "density": "Tickets on board."}).id
    ann_context, bob_context, rita_context = context_of(browser), context_of(browser), context_of(browser)
    try:
        ann = annotate(ann_context, live_server, page_id, "Ann", ANN, accounts)
        bob = annotate(bob_context, live_server, page_id, "Bob", BOB, accounts)
        if accounts:  # an annotator may not adjudicate
            assert ann.goto(f"{live_server}/adjudication/{page_id}").status == 403
        assert "It returns at five." not in bob.content()  # Bob never sees Ann's text
        bob.reload()
        until(bob, "document.body?.dataset.ready === 'yes'")
        assert bob.evaluate(f"{EDITOR}.value") == BOB  # his own annotation comes back, not Ann's

        rita = enter(rita_context, live_server, "Rita", accounts)
        rita.goto(f"{live_server}/adjudication")
        rita.click(f"a[href='/adjudication/{page_id}']")
        rita.wait_for_url(f"{live_server}/adjudication/{page_id}")  # the click starts the navigation; wait for it
        rita.wait_for_load_state()
        assert rita.is_visible("text=Ann → Bob")
        assert rita.locator(".pair-diff del").first.text_content().strip() == "It returns at five."
        # Take Ann's text (it fills the result), then Bob's block "Tickets on board." by keyboard:
        rita.focus(".annotation[data-index='0'] .take-all")
        rita.keyboard.press("Enter")
        block = rita.locator(".annotation[data-index='1'] .block-line", has_text="Tickets on board.")
        block.focus()
        rita.keyboard.press("Enter")
        result = rita.evaluate("document.getElementById('result-text').value")
        assert result == "The ferry leaves at nine.\nIt returns at five.\nTickets on board."
        assert block.get_attribute("aria-pressed") == "true"
        assert "must include none" in rita.text_content("#result-snippets-said")
        rita.fill("#result-note", "Both blocks are the timetable's text.")
        rita.keyboard.press("Control+s")
        rita.wait_for_url(f"{live_server}/adjudication")
        assert rita.is_visible("#review-empty")
        gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one()
        assert (gold.text, gold.author, gold.note) == (result, "Rita", "Both blocks are the timetable's text.")
        session.rollback()

        for tab, missing in ((ann, "Tickets on board."), (bob, "It returns at five.")):
            tab.goto(f"{live_server}/reviewed")
            assert tab.is_visible("text=Both blocks are the timetable's text.")
            diff = tab.locator(".reviewed-diff")
            until(tab, "document.querySelector('.reviewed-diff ins') !== null")
            assert diff.locator("ins").first.text_content().strip() == missing  # what the gold added to theirs
            assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # readable at 1366
    finally:
        for context in (ann_context, bob_context, rita_context):
            context.close()


def read_only(tab) -> bool:
    """The editor of the annotate view takes no typing and its save button is disabled."""
    before = tab.evaluate(f"{EDITOR}.value")
    tab.focus("#editor")
    tab.keyboard.type("typed anyway")
    return (tab.evaluate(f"{EDITOR}.value") == before and tab.evaluate(f"{EDITOR}.readOnly")
            and tab.is_disabled("#save"))


def test_a_third_person_and_an_annotator_of_an_adjudicated_page_see_a_read_only_editor_with_the_reason(
        app, browser, live_server, session):
    page_id = make_page(session, html=HTML, url="https://ferry.example/timetable",
                        candidates={"trafilatura": "Ferry timetable"}).id
    contexts = [context_of(browser) for _ in range(3)]
    try:
        ann = annotate(contexts[0], live_server, page_id, "Ann", ANN, False)
        bob = annotate(contexts[1], live_server, page_id, "Bob", BOB, False)
        cleo = enter(contexts[2], live_server, "Cleo", False)
        cleo.goto(f"{live_server}/pages/{page_id}")
        until(cleo, "document.body?.dataset.ready === 'yes'")
        assert "places are taken by other annotators" in cleo.text_content("#read-only-notice")
        assert read_only(cleo)
        bob.fill("#editor", ANN)
        bob.keyboard.press("Control+s")  # now both say the same: adjudicated automatically
        until(bob, "document.getElementById('save-state').textContent.startsWith('Saved version 2')")
        assert session.scalars(select(Gold.text).where(Gold.page_id == page_id)).one() == ANN
        session.rollback()
        ann.reload()
        until(ann, "document.body?.dataset.ready === 'yes'")
        assert "so it is read-only" in ann.text_content("#adjudicated-notice")
        assert read_only(ann)
    finally:
        for context in contexts:
            context.close()
