"""The adjudication view at 1366x768 on a real, long page (WCXB's 0021, 88 lines of gold): the page frame
keeps a usable height, and the result editor is reached within one screen below the start of the
annotators' lists however long those lists are (issue 31: it sat below both full lists); each list scrolls
in its own box and every one of its blocks stays reachable by Tab."""

from __future__ import annotations

import gzip
import json

import pytest
from browser_fixtures import until
from corpora import WCXB, WCXB_SAMPLE
from workbench import PASSWORD, add_account, make_page

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.annotation.annotations import save_annotation
from webapp.corpus.decoding import decode

pytestmark = [pytest.mark.browser, pytest.mark.settings(OVERLAP=2), pytest.mark.corpus(WCXB)]

BOXES = """() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  const lists = [...document.querySelectorAll('.annotation .lines')];
  return {frame: box('#frame').height, annotations: box('#annotations').top + scrollY,
          result: box('#result-text').top + scrollY,
          scrolling: lists.map((list) => list.scrollHeight > list.clientHeight)};
}"""


def test_the_result_is_one_screen_below_the_lists_and_the_frame_stays_usable(browser, live_server, session):
    html = decode(gzip.decompress((WCXB_SAMPLE / "dev" / "html" / "0021.html.gz").read_bytes())).text
    truth = json.loads((WCXB_SAMPLE / "dev" / "ground-truth" / "0021.json").read_text())["ground_truth"]
    lines = [line for line in truth["main_content"].split("\n") if line.strip()]
    assert len(lines) > 80
    for name, role in (("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rita", REVIEWER)):
        add_account(session, name, role)
    page = make_page(session, html)
    save_annotation(session, page, "Ann", base_version=0, text="\n".join(lines), page_type="article", status="done")
    save_annotation(session, page, "Bob", base_version=0, text="\n".join(lines[5:-5]), page_type="article",
                    status="done")
    session.commit()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        tab = context.new_page()
        tab.goto(f"{live_server}/login")
        tab.fill("input[name=name]", "Rita")
        tab.fill("input[name=password]", PASSWORD)
        tab.click("button[type=submit]")
        tab.wait_for_url(lambda url: "/login" not in url)
        tab.goto(f"{live_server}/adjudication/{page.id}")
        until(tab, "document.body.dataset.ready === 'yes'")
        until(tab, "document.querySelectorAll('.annotation .lines li').length > 150")
        boxes = tab.evaluate(BOXES)
        assert boxes["frame"] >= 300
        assert boxes["result"] - boxes["annotations"] <= 768, boxes
        assert boxes["scrolling"] == [True, True]  # each list scrolls in its box rather than pushing the result
        last = tab.locator(".annotation[data-index='1'] .block-line").last
        last.focus()  # the list's last block is reachable and scrolled into its box
        assert tab.evaluate("document.activeElement.textContent") == last.text_content()
        assert last.is_visible()
    finally:
        context.close()
