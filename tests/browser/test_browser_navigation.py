"""The top navigation in Chromium: the pages grouped by what a person comes to do, the current section
open and its page marked, the other sections as menus, by keyboard and by mouse, on one 40 px line at
1366x768 and at 1920x1080."""

from __future__ import annotations

import pytest
from workbench import PASSWORD, add_account

from webapp.accounts.roles import ADMIN, ANNOTATOR

pytestmark = pytest.mark.browser


@pytest.fixture
def team(session):
    add_account(session, "Ada", ADMIN)
    add_account(session, "Ann", ANNOTATOR)


def logged_in(browser, live_server, name, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    tab.goto(f"{live_server}/login")
    tab.fill("input[name=name]", name)
    tab.fill("input[name=password]", PASSWORD)
    tab.click("button[type=submit]")
    tab.wait_for_url(lambda url: "/login" not in url)  # a goto before the session cookie lands meets the login
    return context, tab


def sections(tab) -> list[str]:
    return tab.evaluate("[...document.querySelectorAll('nav.sections .nav-label')].map(e => e.textContent.trim())")


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1920, 1080)])
def test_an_admin_sees_every_section_on_one_line(browser, live_server, team, width, height):
    context, tab = logged_in(browser, live_server, "Ada", width, height)
    tab.goto(f"{live_server}/leaderboard")
    assert sections(tab) == ["Annotate", "Review", "Results", "Data", "Team"]
    assert tab.locator("header.top").bounding_box()["height"] == 40
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    current = tab.locator(".nav-section.current")
    assert current.locator(".nav-label").inner_text().lower() == "results"
    assert current.locator("[aria-current=page]").inner_text() == "Leaderboard"
    context.close()


def test_an_annotator_sees_no_section_of_admins_only(browser, live_server, team):
    context, tab = logged_in(browser, live_server, "Ann", 1366, 768)
    assert sections(tab) == ["Annotate", "Review", "Results", "Data"]  # no Team: users and audit are admins'
    tab.locator("details.nav-section", has_text="Review").locator("summary").click()
    assert tab.get_by_role("link", name="Reviewed").is_visible()
    assert tab.get_by_role("link", name="Adjudicate").count() == 0
    context.close()


def test_a_section_menu_by_keyboard_alone(browser, live_server, team):
    context, tab = logged_in(browser, live_server, "Ada", 1366, 768)
    tab.goto(f"{live_server}/leaderboard")
    data = tab.locator("details.nav-section", has_text="Data")
    data.locator("summary").focus()
    tab.keyboard.press("Enter")
    assert data.evaluate("d => d.open")
    tab.keyboard.press("Escape")  # closes it, focus back on its name
    assert not data.evaluate("d => d.open")
    assert tab.evaluate("document.activeElement.textContent.trim()") == "Data"
    tab.keyboard.press("Enter")
    for _ in range(5):
        tab.keyboard.press("Tab")
        if tab.evaluate("document.activeElement.textContent") == "Extractors":
            break
    tab.keyboard.press("Enter")
    tab.wait_for_url(f"{live_server}/extractors")
    assert tab.locator(".nav-section.current [aria-current=page]").inner_text() == "Extractors"
    assert tab.locator(".nav-section.current .nav-label").inner_text().lower() == "data"
    context.close()


def test_one_menu_open_at_a_time_and_a_click_outside_closes_it(browser, live_server, team):
    context, tab = logged_in(browser, live_server, "Ada", 1366, 768)
    tab.goto(f"{live_server}/leaderboard")
    review = tab.locator("details.nav-section", has_text="Review")
    team_menu = tab.locator("details.nav-section", has_text="Team")
    review.locator("summary").click()
    team_menu.locator("summary").click()
    assert team_menu.evaluate("d => d.open") and not review.evaluate("d => d.open")
    tab.locator("main h1").click()
    assert not team_menu.evaluate("d => d.open")
    review.locator("summary").click()
    tab.get_by_role("link", name="Checks").click()
    tab.wait_for_url(f"{live_server}/checks")
    context.close()
