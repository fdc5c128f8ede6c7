"""Add URLs in Chromium, keyboard first, at 1366x768: an admin pastes URLs, the capture's page shows each
one fetched, refused or failed with its reason once the job has run, and offers the WARC."""

from __future__ import annotations

import pytest
from browser_fixtures import until
from capture_server import capture_server

pytestmark = [pytest.mark.browser,
              pytest.mark.settings(CAPTURE_ALLOWED_NETWORKS=["127.0.0.1/32"], CAPTURE_ALLOWED_PORTS=["1024-65535"],
                                   CAPTURE_DELAY_SECONDS=0.0, EXTRACT_PROCESSES=1)]


def test_an_admin_captures_pasted_urls_and_reads_the_report(live_server, browser, run_jobs):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    tab = context.new_page()
    with capture_server() as base:
        tab.goto(f"{live_server}/capture")
        assert tab.evaluate("document.activeElement.id") == "capture-urls"  # the form starts in the list
        tab.keyboard.type(f"{base}/page\n{base}/private/secret\n{base}/data.json\n")
        tab.keyboard.press("Tab")  # the render box, left unticked
        tab.keyboard.press("Tab")  # the robots.txt box, left unticked
        tab.keyboard.press("Tab")
        tab.keyboard.press("Enter")
        tab.wait_for_url(f"{live_server}/capture/*")
        run_jobs()
    tab.reload()
    until(tab, "document.querySelector('#job .job-text').textContent.startsWith('done')")
    rows = tab.locator("table.capture-report tbody tr")
    assert rows.count() == 3
    text = tab.locator("table.capture-report").inner_text()
    assert "refused by robots: Disallow: /private (user-agent: *)" in text
    assert "not HTML: Content-Type application/json" in text
    assert tab.locator("#capture-warc").is_visible()
    with tab.expect_download() as download:
        tab.click("#capture-warc")
    assert download.value.suggested_filename.endswith(".warc.gz")
    assert tab.evaluate("document.documentElement.scrollWidth") <= 1366
    context.close()


def test_a_list_that_cannot_be_captured_is_shown_again_with_the_reason(live_server, context):
    tab = context.new_page()
    tab.goto(f"{live_server}/capture")
    tab.fill("#capture-urls", "ftp://files.example/report.pdf")
    tab.click("button[type=submit]")
    assert "is not an http or https URL" in tab.get_by_role("alert").inner_text()
    assert tab.input_value("#capture-urls") == "ftp://files.example/report.pdf"
