"""Content, not form, in Chromium: a candidate's line whose content the gold holds in another form is
marked "already in the gold" in Lines to take, and taking it asks first (declined: nothing changes); a gold
that takes the content twice anyway fails the repeated-text check on the Checks page. In adjudication,
lines that differ in list markers or spacing around punctuation are agreed, lines split otherwise are
marked as differing in form only, and a line whose content the result already holds asks before it goes
in twice."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from workbench import make_page

from webapp.annotation.annotations import save_annotation

pytestmark = pytest.mark.browser

FIRST = "The harbour opened a new quay for ferries this week, after two years of works"
SECOND = "and ferries to the islands will leave from the new quay from Monday on."
HTML = (f"<html><body><h1>Harbour news</h1><p>{FIRST} {SECOND}</p><ul><li>Monday to Friday: 9 to 17</li>"
        "<li>Saturday: 10 to 14</li></ul><p>Closed on Sundays.</p></body></html>")
PREFILL = f"Harbour news\n{FIRST} {SECOND}\nMonday to Friday: 9 to 17"
OTHER = f"Harbour news\n{FIRST},\n{SECOND}\n- Monday to Friday : 9 to 17\nClosed on Sundays."
EDITOR = "document.getElementById('editor').value"


def line_button(tab, text: str):
    return tab.locator("#lines .take-line", has_text=text)


def test_a_line_already_in_the_gold_in_another_form_is_marked_and_taking_it_asks_first(
        laptop, live_server, session, run_jobs):
    page_id = make_page(session, HTML, candidates={"trafilatura": PREFILL, "density": OTHER}).id
    session.commit()
    tab = signed_in(laptop, live_server)
    tab.goto(f"{live_server}/pages/{page_id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    assert tab.evaluate(EDITOR) == PREFILL
    tab.keyboard.press("2")
    tab.keyboard.press("y")
    until(tab, "document.activeElement?.classList.contains('take-line')")
    hours = line_button(tab, "Monday to Friday : 9 to 17")
    assert "already in the gold" in hours.inner_text()
    assert "already in the gold" not in line_button(tab, "Closed on Sundays.").inner_text()

    asked: list[str] = []
    tab.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    hours.click()
    until(tab, "document.querySelectorAll('#lines .take-line').length === 4")
    assert asked == ["“- Monday to Friday : 9 to 17” is already in the gold in another form. Take it again?"]
    assert tab.evaluate(EDITOR) == PREFILL  # declined: nothing went in

    line_button(tab, "Closed on Sundays.").click()  # new content: taken without a question
    until(tab, f"{EDITOR}.endsWith('Closed on Sundays.')")
    assert len(asked) == 1

    tab.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    tab.locator("#lines .take-run", has_text="Take these 3 lines").click()  # the paragraph split in two, the hours
    until(tab, f"{EDITOR}.split('\\n').length === 7")
    assert asked[1] == "3 of these lines are already in the gold in another form. Take them again?"
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version 1')")

    run_jobs()  # the checks that follow the save
    tab.goto(f"{live_server}/checks")
    failing = tab.inner_text("#check-pages")
    assert "repeated-text" in failing and "words repeat content it already has" in failing


ANN = "Opening hours\nMonday to Friday: 9 to 17\nSaturday: 10 to 14"
BOB = "Opening hours\n- Monday to Friday : 9 to 17\n- Saturday:\n10 to 14"
HOURS = ("<html><body><h2>Opening hours</h2><ul><li>Monday to Friday: 9 to 17</li><li>Saturday: 10 to 14</li></ul>"
         "</body></html>")


@pytest.mark.settings(OVERLAP=2)
def test_adjudication_disputes_content_not_form(laptop, live_server, session):
    page = make_page(session, HOURS)
    for name, text in (("Ann", ANN), ("Bob", BOB)):
        save_annotation(session, page, name, base_version=0, text=text, page_type="service", status="done")
    session.commit()
    tab = signed_in(laptop, live_server, "Rita")
    tab.goto(f"{live_server}/adjudication/{page.id}")
    until(tab, "document.querySelectorAll('#disputed-lines button').length === 3")
    notice = tab.inner_text("#consensus-notice")
    assert "2 lines all annotators agree on" in notice and "0 lines are disputed" in notice
    assert "3 more lines differ in form only" in notice
    assert tab.input_value("#result-text") == "Opening hours\nMonday to Friday: 9 to 17"
    disputed = tab.locator("#disputed-lines button")
    assert all("other form" in disputed.nth(i).inner_text() for i in range(3))

    tab.locator("#disputed-lines button", has_text="Saturday: 10 to 14").click()  # Ann's form
    until(tab, "document.getElementById('result-text').value.endsWith('Saturday: 10 to 14')")
    later = tab.locator("#disputed-lines button", has_text="10 to 14").first  # Bob's second line
    assert "already in the result" in later.inner_text()
    asked: list[str] = []
    tab.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    later.click()
    tab.wait_for_timeout(200)
    assert asked == ["“10 to 14” is already in the result in another form. Take it again?"]
    assert tab.input_value("#result-text") == "Opening hours\nMonday to Friday: 9 to 17\nSaturday: 10 to 14"
