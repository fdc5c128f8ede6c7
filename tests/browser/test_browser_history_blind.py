"""The history and the queue as a blind team uses them, in Chromium: an annotator sees her own saved
versions in the page's History before adjudication (never another's); the queue's page-type filter reads
her own annotation's type before there is gold, a reviewer's reads anyone's, and a reviewer filters by
who annotated; on an adjudicated page Restore is not offered (the history says why) and a reviewer
adjudicates from an earlier gold version instead."""

from __future__ import annotations

import pytest
from browser_fixtures import until
from sqlalchemy import select
from workbench import PASSWORD, add_account, make_page

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.annotation.annotations import save_annotation
from webapp.annotation.review import adjudicate
from webapp.models import Gold

pytestmark = [pytest.mark.browser, pytest.mark.settings(OVERLAP=2)]

HTML = "<html><body><h1>Ferry timetable</h1><p>The ferry leaves at nine.</p><p>Tickets on board.</p></body></html>"


def log_in(context, base: str, name: str):
    tab = context.new_page()
    tab.goto(f"{base}/login")
    tab.fill("input[name=name]", name)
    tab.fill("input[name=password]", PASSWORD)
    tab.click("button[type=submit]")
    tab.wait_for_url(lambda url: "/login" not in url)
    return tab


def test_an_annotator_sees_her_own_versions_and_filters_by_her_own_type(browser, live_server, session):
    for name, role in (("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rita", REVIEWER)):
        add_account(session, name, role)
    page = make_page(session, HTML, url="https://ferry.example/timetable")
    other = make_page(session, HTML.replace("nine", "ten"), url="https://ferry.example/other")
    save_annotation(session, page, "Ann", base_version=0, text="The ferry leaves at nine.", page_type="service",
                    status="draft")
    save_annotation(session, page, "Ann", base_version=1, text="Ferry timetable\nThe ferry leaves at nine.",
                    page_type="service", status="done")
    save_annotation(session, page, "Bob", base_version=0, text="Bob's own secret text", page_type="article",
                    status="done")
    save_annotation(session, other, "Bob", base_version=0, text="x", page_type="service", status="draft")
    session.commit()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        ann = log_in(context, live_server, "Ann")
        ann.goto(f"{live_server}/pages/{page.id}/history")
        assert "only you see them" in ann.inner_text("#own-history")
        table = ann.inner_text("table.history")
        assert table.count("Ann") == 2 and "Bob" not in table
        assert "Bob's own secret text" not in ann.content()
        assert ann.locator("table.history button", has_text="Restore").count() == 0

        ann.goto(f"{live_server}/?type=service")  # no gold yet: her own annotation's type
        assert f"/pages/{page.id}" in ann.content() and f"/pages/{other.id}?" not in ann.content()
        ann.goto(f"{live_server}/?type=article")  # Bob's type of it is not hers
        assert f'href="/pages/{page.id}?' not in ann.content()
        assert ann.locator("input[name=annotated]").count() == 0  # annotators do not filter by who annotated
    finally:
        context.close()

    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        rita = log_in(context, live_server, "Rita")
        rita.goto(f"{live_server}/?type=article")  # a reviewer's filter reads anyone's annotation
        assert f'href="/pages/{page.id}?' in rita.content()
        rita.fill("input[name=annotated]", "Bob")
        rita.select_option("select[name=type]", "")
        rita.click("form.filters button[type=submit]")
        rita.wait_for_url(lambda url: "annotated=Bob" in url)  # content() while the form's page loads reads ''
        assert f'href="/pages/{page.id}?' in rita.content() and f'href="/pages/{other.id}?' in rita.content()
        rita.fill("input[name=annotated]", "Ann")
        rita.click("form.filters button[type=submit]")
        rita.wait_for_url(lambda url: "annotated=Ann" in url)
        assert f'href="/pages/{page.id}?' in rita.content() and f'href="/pages/{other.id}?' not in rita.content()
    finally:
        context.close()


def test_restore_is_not_offered_on_an_adjudicated_page_and_a_reviewer_adjudicates_from_an_earlier_version(
        browser, live_server, session):
    for name, role in (("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rita", REVIEWER)):
        add_account(session, name, role)
    page = make_page(session, HTML)
    for name in ("Ann", "Bob"):
        save_annotation(session, page, name, base_version=0, text=f"The ferry leaves at nine.\n{name}",
                        page_type="service", status="done")
    for version, text in enumerate(["First adjudication", "Second adjudication"]):
        adjudicate(session, page, "Rita", base_version=version, text=text, page_type="service", status="done",
                   note="")
    session.commit()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        for name in ("Ann", "Rita"):
            tab = log_in(context, live_server, name)
            tab.goto(f"{live_server}/pages/{page.id}/history")
            assert "Restore is not offered here: This page is adjudicated" in tab.inner_text("#no-restore")
            assert tab.locator("table.history button", has_text="Restore").count() == 0
            tab.close()
            context.clear_cookies()
        rita = log_in(context, live_server, "Rita")
        rita.goto(f"{live_server}/pages/{page.id}/history")
        links = rita.locator("a.adjudicate-from")
        assert links.count() == 2
        links.nth(1).click()  # the older one: version 1
        until(rita, "document.body.dataset.ready === 'yes'")  # Ctrl+S is bound once the module has run
        assert rita.input_value("#result-text") == "First adjudication"
        assert "starts from the earlier gold version 1" in rita.inner_text("#adjudicated")
        with rita.expect_navigation():
            rita.keyboard.press("Control+s")
        assert f"Page {page.id} adjudicated: its gold is version 3." in rita.content()
    finally:
        context.close()
    page_id = page.id
    session.rollback()  # a fresh read, after the browser's save
    gold = session.execute(select(Gold.version, Gold.text).where(Gold.page_id == page_id)).one()
    assert tuple(gold) == (3, "First adjudication")
    session.rollback()
