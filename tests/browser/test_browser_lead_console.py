"""The lead's console in Chromium at 1366x768, keyboard first: the lead assigns pages by number and undoes
it, requests changes of an annotator who then finds the page and the comment in her queue and answers by
saving it, and the candidate tabs: nineteen of them keep to one row that leaves the diff its room, each
has a key (two digits typed quickly past the tenth), and the team's pinned tab comes first."""

from __future__ import annotations

import pytest
from browser_fixtures import logged_in_by_keyboard, until
from sqlalchemy import select
from workbench import PASSWORD, add_account, make_page

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.annotation.annotations import annotation_of, save_annotation
from webapp.models import Assignment, Page

pytestmark = pytest.mark.browser

ANN_TEXT = "The ferry leaves at nine.\nIt returns at five."
READY = "document.body?.dataset.ready === 'yes'"


def logged_in(browser, base: str, name: str):
    """A tab of a new 1366x768 context, logged in as `name` by keyboard."""
    return logged_in_by_keyboard(browser.new_context(viewport={"width": 1366, "height": 768}), base, name, PASSWORD)


@pytest.fixture
def team(session):
    for name, role in (("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rita", REVIEWER)):
        add_account(session, name, role)


def submit(tab) -> None:
    """Press Enter on the focused form control and wait for the page the form leads to."""
    with tab.expect_navigation():
        tab.keyboard.press("Enter")


def flash(tab) -> str:
    return tab.text_content(".flashes") or ""


@pytest.mark.settings(OVERLAP=2)
def test_the_lead_assigns_two_pages_by_number_and_undoes_it(session, live_server, browser, team):
    pages = [make_page(session, url=f"https://news.example/{n}").id for n in range(3)]
    rita = logged_in(browser, live_server, "Rita")
    try:
        rita.goto(f"{live_server}/team")
        rita.focus("#assign-to")
        rita.keyboard.type("Ann")
        rita.keyboard.press("Tab")  # to the page numbers
        assert rita.evaluate("document.activeElement.id") == "assign-pages"
        rita.keyboard.type(f"{pages[0]}, {pages[2]}")
        submit(rita)
        assert "2 assignments made (Ann)." in flash(rita)
        assert set(session.scalars(select(Assignment.page_id).where(Assignment.author == "Ann"))) == {
            pages[0], pages[2]}
        session.rollback()
        ann = logged_in(browser, live_server, "Ann")
        assert ann.locator("#own-queue .hand-back").count() == 2
        assert ann.locator(f"#own-queue a[href='/pages/{pages[2]}']").count() == 1
        rita.focus("#undo")
        submit(rita)
        assert "Undone: 2 assignments removed" in flash(rita)
        assert rita.is_disabled("#undo")
        assert session.scalars(select(Assignment)).all() == []
        session.rollback()
        ann.reload()
        assert ann.locator("#own-queue .hand-back").count() == 0
    finally:
        rita.context.close()


@pytest.mark.settings(OVERLAP=2)
def test_a_request_for_changes_reaches_the_annotator_who_answers_by_saving(session, live_server, browser, team):
    page = make_page(session, url="https://ferry.example/t", candidates={"trafilatura": ANN_TEXT})
    for name, text in (("Ann", ANN_TEXT), ("Bob", "The ferry leaves at nine.")):
        save_annotation(session, session.get(Page, page.id), name, base_version=0, text=text, page_type="article",
                        status="done")
    session.commit()
    rita = logged_in(browser, live_server, "Rita")
    ann = logged_in(browser, live_server, "Ann")
    try:
        assert f"/pages/{page.id}" not in (ann.text_content("#own-queue") or "")  # done: not in her queue
        rita.goto(f"{live_server}/team")
        rita.focus("#thread-page")
        rita.keyboard.type(str(page.id))
        rita.keyboard.press("Enter")
        rita.wait_for_url(f"{live_server}/pages/{page.id}/comments")
        assert "It returns at five." in rita.text_content("#disputed")  # the lead sees the disputed line
        rita.focus("#changes-annotator")
        rita.keyboard.press("Home")  # Ann, the first
        rita.keyboard.press("Tab")
        rita.keyboard.type("The return time is not main content: take it out.")
        rita.keyboard.press("Tab")
        submit(rita)
        assert "Changes requested of Ann" in flash(rita)

        ann.goto(f"{live_server}/")
        assert "The return time is not main content" in ann.text_content("#changes-requested")
        ann.click(f"#own-queue a[href='/pages/{page.id}']")
        ann.wait_for_url(f"{live_server}/pages/{page.id}")
        until(ann, READY)
        assert "Rita asks you to change your annotation" in " ".join(ann.text_content("#changes-requested").split())
        assert not ann.evaluate("document.getElementById('editor').readOnly")
        ann.focus("#editor")
        ann.keyboard.press("Control+End")
        ann.keyboard.press("Shift+Home")
        ann.keyboard.press("Backspace")
        ann.keyboard.press("Control+s")
        until(ann, "document.getElementById('save-state').textContent.startsWith('Saved version 3')")
        assert annotation_of(session, page.id, "Ann").text.strip() == "The ferry leaves at nine."
        session.rollback()
        ann.goto(f"{live_server}/")
        assert ann.locator("#changes-requested").count() == 0
        ann.goto(f"{live_server}/pages/{page.id}/comments")
        assert "take it out" in ann.text_content("#comments")  # the request, about her own work
    finally:
        rita.context.close()
        ann.context.close()


def test_nineteen_tabs_keep_to_one_row_each_with_a_key_and_the_pinned_one_first(session, live_server, browser,
                                                                                team):
    names = [f"extractor{n:02d}" for n in range(19)]
    page = make_page(session, candidates={name: f"Words of {name} only." for name in names})
    rita = logged_in(browser, live_server, "Rita")
    try:
        rita.goto(f"{live_server}/team")
        rita.select_option("select[aria-label=\"extractor17's tab\"]", "pinned")
        rita.select_option("select[aria-label=\"extractor03's tab\"]", "hidden")
        rita.focus("#tabs-save")
        submit(rita)
        assert "Candidate tabs arranged: 2 tabs hidden or pinned." in flash(rita)

        rita.goto(f"{live_server}/pages/{page.id}")
        until(rita, READY)
        tabs = rita.locator("#tabs .tab")
        assert tabs.count() == 18 and "extractor17" in tabs.nth(0).text_content()
        assert "extractor03" not in rita.text_content("#tabs")
        bar = rita.evaluate("""(() => {
          const tabs = document.getElementById('tabs').getBoundingClientRect();
          const pane = document.querySelector('.pane-candidates').getBoundingClientRect();
          const diff = document.getElementById('diff').getBoundingClientRect();
          return {tabs: tabs.height, pane: pane.height, diffTop: diff.top - pane.top};
        })()""")
        assert bar["tabs"] <= 0.1 * bar["pane"], bar  # one row, not a third of the pane
        assert bar["diffTop"] <= 0.3 * bar["pane"], bar
        active = "document.querySelector('#tabs .tab.active').textContent"
        rita.focus("#diff")
        rita.keyboard.press("Escape")
        rita.keyboard.press("1")
        rita.keyboard.press("6")  # quickly: the sixteenth
        until(rita, f"{active}.includes('extractor15')")  # 16th: 17 pinned first, 03 hidden
        rita.wait_for_timeout(900)
        rita.keyboard.press("0")
        until(rita, f"{active}.includes('extractor09')")  # the tenth
        rita.wait_for_timeout(900)
        rita.keyboard.press("1")
        rita.keyboard.press("8")
        until(rita, f"{active}.includes('extractor18')")
        visible = rita.evaluate("""(() => {
          const tab = document.querySelector('#tabs .tab.active').getBoundingClientRect();
          const bar = document.getElementById('tabs').getBoundingClientRect();
          return tab.left >= bar.left - 1 && tab.right <= bar.right + 1;
        })()""")
        assert visible  # the selected tab is scrolled into view
        assert rita.text_content("#tabs .tab.active kbd") == "18"
    finally:
        rita.context.close()
