"""Effort recorded in the browser: block clicks, a Shift+click range, a container widened,
a candidate's line taken and words typed are counted, and the save's revision records them with a
positive active time; the next save records only what came after; the adjudication's save records the
reviewer's takes and typing."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from sqlalchemy import select
from test_browser_block_takes import CATALOGUE, EDITOR, box, click, open_page
from workbench import add_gold, make_page

from webapp.annotation.effort_record import ACTIONS
from webapp.models import Gold, GoldRevision

pytestmark = pytest.mark.browser


@pytest.fixture
def context(laptop):
    return laptop


def saved_efforts(session, page_id) -> list[dict]:
    found = session.scalars(select(GoldRevision.effort).join(Gold).where(Gold.page_id == page_id)
                            .order_by(GoldRevision.id)).all()
    session.rollback()
    return found


def save(tab, version: int) -> None:
    tab.keyboard.press("Control+s")
    until(tab, f"document.getElementById('save-state').textContent.startsWith('Saved version {version}')")


def test_clicks_and_typed_words_are_in_the_saved_revisions_effort(session, live_server, context):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h1", "Widget catalogue")
    click(tab, "h2", "Layout")
    click(tab, "h2", "Text", modifiers=["Shift"])  # Layout to Text: one range
    x, y = box(tab, "h2", "Async")
    tab.mouse.move(x, y)
    tab.keyboard.press("+")  # the Async card outlined: one widen
    until(tab, "document.getElementById('save-state').textContent.includes('3 blocks')")
    tab.mouse.click(x, y)  # the card taken: one click
    until(tab, f"{EDITOR}.includes('Futures, streams and cancellation.')")
    tab.click("#editor")
    tab.keyboard.press("Control+End")
    tab.keyboard.type("\nThree typed words", delay=30)
    tab.keyboard.press("Home")
    tab.keyboard.type("Four ", delay=30)  # "Four Three typed words": four words typed
    until(tab, "document.getElementById('pace').textContent.startsWith('this page 0:0')")
    save(tab, 1)
    [first] = saved_efforts(session, page_id)
    assert first["actions"] == {"block": 3, "range": 1, "widen": 1, "typed_words": 4}
    assert first["active_seconds"] > 0

    tab.keyboard.press("Control+Home")
    tab.keyboard.press("Shift+ArrowDown")
    tab.keyboard.press("Delete")  # the first line, deleted whole
    save(tab, 2)
    assert saved_efforts(session, page_id)[1]["actions"] == {"line_deletions": 1}
    tab.reload()  # the pace: this page's saved time, and the median over the annotator's pages
    pace = "/^this page 0:\\d\\d · your median 0:\\d\\d over 1 page$/"
    until(tab, f"{pace}.test(document.getElementById('pace').textContent)")


def test_the_unsaved_effort_of_a_reloaded_page_is_kept_with_its_draft(session, live_server, context):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h1", "Widget catalogue")
    tab.click("#editor")
    tab.keyboard.press("Control+End")
    tab.keyboard.type(" and two", delay=30)
    until(tab, f"JSON.parse(localStorage.getItem('goldtext:draft:{page_id}'))?.text?.endsWith('and two')")
    tab.reload()
    until(tab, "document.body.dataset.ready === 'yes'")
    until(tab, f"{EDITOR} === '# Widget catalogue and two'")  # the draft, restored (the h1 as a heading)
    click(tab, "h2", "Layout")
    save(tab, 1)
    [effort] = saved_efforts(session, page_id)
    assert effort["actions"] == {"block": 2, "typed_words": 2}
    assert effort["active_seconds"] > 0


def test_a_candidates_line_taken_counts_as_a_take(session, live_server, context):
    page_id = make_page(session, CATALOGUE, candidates={"trafilatura": "Widget catalogue\nAsync"}).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h1", "Widget catalogue")  # out of the prefilled text
    tab.keyboard.press("Escape")
    tab.keyboard.press("y")
    until(tab, "document.activeElement?.classList.contains('take-line')")
    tab.keyboard.press("Enter")
    until(tab, f"{EDITOR} === 'Widget catalogue\\nAsync'")
    save(tab, 1)
    assert saved_efforts(session, page_id)[0]["actions"] == {"block": 1, "take": 1}


@pytest.mark.settings(OVERLAP=2)
def test_the_adjudication_records_the_reviewers_effort(session, live_server, context, app):
    page_id = make_page(session, CATALOGUE).id
    for name, text in (("Ann", "Widget catalogue\nLayout"), ("Bob", "Widget catalogue\nText")):
        tab = signed_in(context, live_server, name)
        tab.goto(f"{live_server}/pages/{page_id}")
        until(tab, "document.body.dataset.ready === 'yes'")
        tab.evaluate(f"document.getElementById('editor').value = {text!r}")
        tab.keyboard.press("Control+s")
        until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version')")
        tab.close()
    tab = signed_in(context, live_server, "Rita")
    tab.goto(f"{live_server}/adjudication/{page_id}")
    until(tab, "document.querySelectorAll('#disputed-lines button').length === 2")
    tab.click("#disputed-lines button >> nth=0")
    tab.click("#result-text")
    tab.keyboard.press("Control+End")
    tab.keyboard.type("\nChecked by Rita", delay=30)
    tab.click("#save-gold")
    until(tab, f"location.pathname !== '/adjudication/{page_id}' || document.querySelector('.flashes') !== null")
    [effort] = saved_efforts(session, page_id)
    assert effort["actions"] == {"take": 1, "typed_words": 3}
    assert effort["active_seconds"] > 0


def test_the_effort_page_fits_a_1366_window_with_every_action_counted(session, live_server, context):
    # Each action's column once said "(median · total)" in its head: the tables ran past the window's right
    # edge and the last actions' columns were cut off.
    page = make_page(session, url="https://news.example/effort")
    revision = add_gold(session, page, text="Some gold", page_type="article", status="done", author="Ann")
    revision.effort = {"active_seconds": 3600, "actions": {name: 1234 for name in ACTIONS}}
    session.commit()
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/effort")
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for table in ("effort-all", "effort-by-annotator", "effort-by-type", "effort-by-prefill"):
        right = tab.evaluate(f"document.getElementById('{table}').getBoundingClientRect().right")
        assert right <= 1366, f"{table} ends at {right}"
    heads = tab.locator("#effort-by-annotator thead th").all_inner_texts()
    assert heads[-len(ACTIONS):] == [name.replace("_", " ") for name in ACTIONS]


def test_a_double_click_that_selects_a_word_counts_no_block_click(session, live_server, context):
    # The double click's first click took the block and its second took it back (the gold unchanged, a word
    # selected), but the effort kept the block click: the effort page counted reading as work.
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h1", "Widget catalogue")  # one real click
    x, y = box(tab, "h2", "Layout")
    tab.mouse.dblclick(x, y)
    until(tab, "document.getElementById('frame').contentDocument.getSelection().toString().trim() === 'Layout'")
    assert "Layout" not in tab.evaluate(EDITOR).split("\n")
    save(tab, 1)
    assert saved_efforts(session, page_id)[0]["actions"] == {"block": 1}
