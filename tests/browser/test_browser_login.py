"""Logging in and out in Chromium: by mouse to the page asked for, the login form at 1366x768, and by
keyboard alone."""

from __future__ import annotations

import pytest
from browser_fixtures import until
from workbench import PASSWORD, add_account, make_page

from webapp.accounts.roles import ADMIN, ANNOTATOR

pytestmark = pytest.mark.browser


@pytest.fixture
def team(session):
    page = make_page(session, "<html><body><p>Harbour news</p></body></html>", url="https://a.example/1")
    add_account(session, "Ada", ADMIN)
    add_account(session, "Ann", ANNOTATOR)
    return page.id


@pytest.fixture
def tab(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    yield context.new_page()
    context.close()


def test_logging_in_leads_to_the_page_asked_for_and_logging_out_ends_it(tab, live_server, team):
    tab.goto(f"{live_server}/pages/{team}")
    assert "/login?next=" in tab.url
    tab.fill("input[name=name]", "Ann")
    tab.fill("input[name=password]", "wrong password")
    tab.click("button[type=submit]")
    assert tab.get_by_role("alert").inner_text() == "Wrong name or password."
    tab.fill("input[name=password]", PASSWORD)
    tab.click("button[type=submit]")
    tab.wait_for_url(f"{live_server}/pages/{team}")
    assert tab.locator(".who span").inner_text() == "Ann (annotator)"
    assert tab.get_by_role("link", name="Users").count() == 0  # an annotator is shown no admin pages
    tab.get_by_role("button", name="Log out").click()
    assert tab.url == f"{live_server}/login"
    tab.goto(f"{live_server}/")
    assert "/login?next=" in tab.url


def test_the_login_form_fits_1366x768(tab, live_server, team):
    tab.goto(f"{live_server}/login")
    assert tab.evaluate("document.documentElement.scrollWidth") <= 1366
    for control in (tab.get_by_label("Name"), tab.get_by_label("Password"), tab.get_by_role("button", name="Log in")):
        box = control.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 768 and box["x"] + box["width"] <= 1366
    assert tab.get_by_role("link", name="Queue").count() == 0  # nothing to follow before logging in


def test_logging_in_and_out_by_keyboard_alone(tab, live_server, team):
    tab.goto(f"{live_server}/login")
    until(tab, "document.activeElement?.name === 'name'")  # the form starts in the name field (autofocus)
    tab.keyboard.type("Ada")
    tab.keyboard.press("Tab")
    assert tab.evaluate("document.activeElement.name") == "password"
    tab.keyboard.type(PASSWORD)
    tab.keyboard.press("Enter")
    tab.wait_for_url(f"{live_server}/")
    assert tab.locator(".who span").inner_text() == "Ada (admin)"
    for _ in range(30):
        tab.keyboard.press("Tab")
        if tab.evaluate("document.activeElement.textContent") == "Log out":
            break
    else:
        pytest.fail("Tab never reached the Log out button")
    tab.keyboard.press("Enter")
    tab.wait_for_url(f"{live_server}/login")


def test_an_annotator_changes_their_own_password_in_the_browser(tab, live_server, team):
    """From the Account link beside their name: the current password, the new one twice; the browser stays
    logged in, and the old password no longer opens a session."""
    tab.goto(f"{live_server}/login")
    tab.fill("input[name=name]", "Ann")
    tab.fill("input[name=password]", PASSWORD)
    tab.click("button[type=submit]")
    tab.get_by_role("link", name="Account").click()
    assert tab.url == f"{live_server}/account"
    tab.get_by_label("Current password").fill(PASSWORD)
    tab.get_by_label("New password", exact=True).fill("a brand new password")
    tab.get_by_label("New password again").fill("a brand new password")
    tab.get_by_role("button", name="Change password").click()
    assert "Password changed" in tab.locator(".flashes").inner_text()
    tab.goto(f"{live_server}/pages/{team}")
    assert tab.url == f"{live_server}/pages/{team}"  # still logged in
    tab.get_by_role("button", name="Log out").click()
    tab.fill("input[name=name]", "Ann")
    tab.fill("input[name=password]", PASSWORD)
    tab.click("button[type=submit]")
    assert tab.get_by_role("alert").inner_text() == "Wrong name or password."
    tab.fill("input[name=password]", "a brand new password")
    tab.click("button[type=submit]")
    assert tab.locator(".who span").inner_text() == "Ann (annotator)"
