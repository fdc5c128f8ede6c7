"""Adjudication at 1366x768 in Chromium: the saved page's frame is a usable height (not the sliver left of a
flex column), and each annotator's block list is a box of its own that scrolls, so a long page's lists do
not stand between the reviewer and the result."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from workbench import make_page

from webapp.annotation.annotations import save_annotation

pytestmark = [pytest.mark.browser, pytest.mark.settings(OVERLAP=2)]

LINES = [f"Paragraph {i} of a long documentation page about ferries and harbours." for i in range(60)]


def test_the_frame_is_usable_and_the_block_lists_scroll_at_1366x768(laptop, live_server, session):
    page = make_page(session, "<html><body>" + "".join(f"<p>{line}</p>" for line in LINES) + "</body></html>")
    save_annotation(session, page, "Ann", base_version=0, text="\n".join(LINES[:50]), page_type="documentation",
                    status="done")
    save_annotation(session, page, "Bob", base_version=0, text="\n".join(LINES[5:]), page_type="documentation",
                    status="done")
    session.commit()
    tab = signed_in(laptop, live_server, "Rita")
    tab.goto(f"{live_server}/adjudication/{page.id}")
    until(tab, "document.querySelectorAll('#disputed-lines button').length === 15")
    assert tab.evaluate("document.getElementById('frame').getBoundingClientRect().height") >= 0.45 * 768
    lists = tab.evaluate("[...document.querySelectorAll('.annotation .lines')]"
                         ".map((list) => [list.clientHeight, list.scrollHeight])")
    assert len(lists) == 2
    for shown, whole in lists:
        assert shown <= 0.25 * 768 < whole  # a box of its own, scrolled, not the whole list in the page
