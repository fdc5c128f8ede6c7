"""The replay's operations (annotation/operations.py) do in Chromium what the replay counts: the gold the
interface reaches in the counted number of actions is the gold the count was made for."""

from __future__ import annotations

import pytest
from browser_fixtures import until
from test_browser_block_takes import CATALOGUE, EDITOR, OTHER, PREFILL, SERVICE, click, open_page, save
from workbench import make_page

from webapp.annotation.operations import Page, count, lines_of
from webapp.corpus.visible_text import visible_text

pytestmark = pytest.mark.browser


@pytest.fixture
def context(laptop):
    return laptop


def test_a_click_and_a_shift_click_reach_the_range_the_replay_counts_as_two(session, live_server, context):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    start = tab.evaluate(EDITOR)
    click(tab, "h2", "Async")
    click(tab, "p", "Grids, stacks and flexible boxes.", modifiers=["Shift"])
    until(tab, f"{EDITOR} !== {start!r}")
    reached = "\n".join(save(tab, session, page_id))
    assert count(start, reached, Page(lines_of(visible_text(CATALOGUE)))).workbench == 2


def test_a_region_take_and_a_line_take_reach_the_gold_the_replay_counts_as_two(session, live_server, context):
    page_id = make_page(session, SERVICE, candidates={"trafilatura": PREFILL, "density": OTHER}).id
    tab = open_page(context, live_server, page_id)
    tab.keyboard.press("2")
    tab.keyboard.press("y")
    until(tab, "document.activeElement?.classList.contains('take-line')")
    tab.locator("#lines .take-run", has_text="Take these 5 lines").click()
    until(tab, f"{EDITOR}.split('\\n').length === 8")
    tab.locator("#lines .take-line", has_text="Call 555-0100 today").click()
    until(tab, f"{EDITOR}.split('\\n').length === 9")
    reached = "\n".join(save(tab, session, page_id))
    page = Page(lines_of(visible_text(SERVICE)), [lines_of(PREFILL), lines_of(OTHER)])
    found = count(PREFILL, reached, page)
    assert found.workbench == 2
    assert found.typing == 10  # the same lines typed: 7 words, then 3
