"""The guideline in Chromium at 1366x768: G opens the page type's guideline beside the editor, it follows a
change of the type (by key and by the menu), G closes it; the adjudication view shows the chosen type's;
and a save records the version the annotator had in force."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from sqlalchemy import select
from workbench import make_page, sign_in

from webapp.models import GoldRevision

pytestmark = pytest.mark.browser

SHOWN = "[...document.querySelectorAll('#guideline-panel section.guideline')].filter((s) => !s.hidden)"


def box(tab, selector):
    return tab.locator(selector).bounding_box()


def shown_page_type(tab):
    return tab.evaluate(f"{SHOWN}.map((s) => s.dataset.type).join(',')")


def test_g_opens_the_types_guideline_beside_the_editor_and_it_follows_the_type(session, live_server, laptop):
    page_id = make_page(session, "<html><body><h1>Thread</h1><p>First reply</p></body></html>",
                        candidates={"trafilatura": "Thread\nFirst reply"}).id
    tab = signed_in(laptop, live_server)
    tab.goto(f"{live_server}/pages/{page_id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    assert tab.locator("#guideline-panel").is_hidden()
    tab.keyboard.press("m")  # page type: forum
    tab.keyboard.press("G")
    until(tab, "!document.getElementById('guideline-panel').hidden")
    assert shown_page_type(tab) == "forum"
    panel, editor = box(tab, "#guideline-panel"), box(tab, "#editor")
    assert panel["x"] >= editor["x"] + editor["width"]  # beside the editor, to its right
    assert panel["x"] + panel["width"] <= 1366 and panel["y"] + 40 < 768 and panel["height"] > 300
    assert editor["width"] > 250  # the editor stays usable
    assert "every reply" in tab.locator("#guideline-panel").inner_text()
    tab.keyboard.press("r")  # page type: product
    until(tab, f"{SHOWN}.map((s) => s.dataset.type).join(',') === 'product'")
    assert "specifications" in tab.locator("#guideline-panel").inner_text()
    tab.select_option("#type", "documentation")
    until(tab, f"{SHOWN}.map((s) => s.dataset.type).join(',') === 'documentation'")
    assert "version 1" in tab.locator("#guideline-panel").inner_text()
    tab.keyboard.press("?")
    assert "guideline" in tab.locator("#help-table").inner_text()
    tab.keyboard.press("Escape")
    tab.keyboard.press("G")
    until(tab, "document.getElementById('guideline-panel').hidden")
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version 1')")
    revision = session.scalars(select(GoldRevision)).one()
    assert (revision.page_type, revision.guideline_version) == ("documentation", 1)
    session.rollback()


@pytest.mark.settings(OVERLAP=2)
def test_the_adjudication_view_shows_the_chosen_types_guideline(app, session, live_server, laptop):
    page_id = make_page(session, "<html><body><p>Shoe</p><p>Size 42</p></body></html>").id
    for name, text, page_type in (("Ann", "Shoe\nSize 42", "product"), ("Bob", "Shoe", "forum")):
        client = app.test_client()
        token = sign_in(client, name)
        body = {"text": text, "type": page_type, "status": "done", "version": 0, "client_save_id": name}
        assert client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token}).status_code == 200
    tab = signed_in(laptop, live_server, "Rita")
    tab.goto(f"{live_server}/adjudication/{page_id}")
    tab.locator("#guideline-button").click()
    until(tab, "!document.getElementById('guideline-panel').hidden")
    assert shown_page_type(tab) == ""  # the annotators disagree on the type: none chosen yet
    assert tab.locator("#guideline-unchosen").is_visible()
    tab.select_option("#result-type", "product")
    until(tab, f"{SHOWN}.map((s) => s.dataset.type).join(',') === 'product'")
    assert "specifications" in tab.locator("#guideline-panel").inner_text()
    assert tab.locator("#guideline-unchosen").is_hidden()
    panel = box(tab, "#guideline-panel")
    assert panel["x"] + panel["width"] <= 1366 and panel["x"] > 1366 / 2
    tab.locator(".take-all").nth(1).click()  # Bob's text and type
    until(tab, f"{SHOWN}.map((s) => s.dataset.type).join(',') === 'forum'")
    tab.keyboard.press("G")  # the focus is on the button pressed: not typing
    until(tab, "document.getElementById('guideline-panel').hidden")
