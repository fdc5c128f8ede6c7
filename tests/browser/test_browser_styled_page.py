"""A captured page in the annotate view, in Chromium: Shift+V shows it styled with its captured stylesheets,
font and image while the frame still reaches nothing outside the app (the hostile CSS's leak by attribute
selector, @import, fonts, image-set), Shift+R shows its rendering in Chromium, blocks are clicked into the
gold in either, and the screenshot opens beside the frame on demand; a page whose team scores its rendering
opens on it."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from capture_server import Handler, capture_server
from styled_pages import styled_page

from webapp.accounts.roles import REVIEWER
from webapp.foundation.settings import settings_of
from webapp.usecases.choose_rendering import choose_scored_rendering
from webapp.usecases.outcome import Actor

pytestmark = [pytest.mark.browser, pytest.mark.security]

LEAD = "The ferry runs again."


def open_annotate(context, live_server, page_id):
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/pages/{page_id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    until(tab, "document.getElementById('frame').contentDocument?.getElementById('lead') !== null")
    return tab


def frame_shows(tab, query: str) -> None:
    until(tab, f"new URL(document.getElementById('frame').contentWindow.location.href).search === '{query}'"
               " && document.getElementById('frame').contentDocument.readyState === 'complete'")


def test_styled_the_page_looks_as_captured_and_loads_nothing_from_outside(session, live_server, context):
    with capture_server() as remote:
        page_id = styled_page(session, remote, rendered=True)
        tab = open_annotate(context, live_server, page_id)
        lead = "getComputedStyle(document.getElementById('frame').contentDocument.getElementById('lead')).color"
        assert tab.evaluate(lead) != "rgb(200, 0, 0)"  # plain: no stylesheet
        tab.keyboard.press("Shift+V")
        frame_shows(tab, "?styled=1")
        until(tab, f"{lead} === 'rgb(200, 0, 0)'")
        menu = "getComputedStyle(document.getElementById('frame').contentDocument.querySelector('.menu')).float"
        assert tab.evaluate(menu) == "right"
        assert tab.locator("#variant-shown").inner_text() == "Raw response, styled"
        tab.frame_locator("#frame").locator("#lead").click()  # a block clicked in the styled page
        until(tab, f"!document.getElementById('editor').value.includes({LEAD!r})")
        tab.wait_for_timeout(1500)  # time for any load to reach the remote server
        assert Handler.log == []


def test_the_rendering_and_the_screenshot_are_a_key_and_a_click_away(session, live_server, context):
    with capture_server() as remote:
        page_id = styled_page(session, remote, rendered=True)
        tab = open_annotate(context, live_server, page_id)
        tab.keyboard.press("Shift+R")
        frame_shows(tab, "?rendering=rendered")
        assert tab.locator("#variant-shown").inner_text() == "Rendering in Chromium, plain"
        tab.frame_locator("#frame").locator("#written").click()
        until(tab, "document.getElementById('editor').value.includes(\"Written by the page's script.\")")
        tab.keyboard.press("Escape")
        tab.keyboard.press("Shift+V")
        frame_shows(tab, "?rendering=rendered&styled=1")
        tab.keyboard.press("Shift+R")
        frame_shows(tab, "?styled=1")
        tab.click("#show-screenshot")
        until(tab, "document.querySelector('#screenshot img')?.naturalWidth === 1")
        assert tab.locator("#screenshot").is_visible()
        tab.click("#help-button")
        help_text = tab.locator("#help-table").inner_text()
        assert "rendering in Chromium" in help_text and "styled with its captured stylesheets" in help_text
        assert Handler.log == []


def test_the_view_opens_on_the_rendering_where_the_team_scores_it(app, session, live_server, context):
    with capture_server() as remote:
        page_id = styled_page(session, remote, rendered=True)
        choose_scored_rendering(session, settings_of(app), Actor("rita", REVIEWER), page_id, "rendered")
        session.commit()
        tab = open_annotate(context, live_server, page_id)
        frame_shows(tab, "?rendering=rendered")
        until(tab, "document.getElementById('frame').contentDocument.getElementById('written') !== null")
        assert tab.locator("#variant-shown").inner_text() == "Rendering in Chromium, plain"
        assert tab.locator("#show-rendering").get_attribute("aria-pressed") == "true"
        assert tab.locator("#scored-rendering").inner_text() == "the rendering"
        tab.frame_locator("#frame").locator("#written").click()  # a block of the rendering taken into the gold
        until(tab, "document.getElementById('editor').value.includes(\"Written by the page's script.\")")
        tab.keyboard.press("Escape")
        tab.keyboard.press("Shift+R")  # the raw response one key away, as on any page
        frame_shows(tab, "")
        assert tab.locator("#variant-shown").inner_text() == "Raw response, plain"
        tab.keyboard.press("Shift+V")
        frame_shows(tab, "?styled=1")
        assert Handler.log == []
