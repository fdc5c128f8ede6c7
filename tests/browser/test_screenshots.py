"""The README's screenshots: the annotate view of one page and the leaderboard, taken from the demo corpus
in Chromium at 1366x768 on every run (the views are checked each time), and written to docs/images/ only
when asked (GOLDTEXT_RETAKE_SCREENSHOTS=1): the picture depends on which extractors are installed, so an
ordinary run never changes the checkout. What varies from run to run (extraction times) is masked, and an
image is rewritten only when it differs from the one there."""

from __future__ import annotations

import pytest
from browser_fixtures import serve, signed_in, until
from screenshots import HEIGHT, WIDTH, shoot
from sqlalchemy import func, select

from webapp.extractors.registry import METADATA_ONLY, build_registry, runnable
from webapp.models import Extraction, Gold, Page

pytestmark = pytest.mark.browser

SHOWN_PAGE = "https://transit-times.example/rail/2024/03/night-train-coast-returns"  # an article with gold
SHOWN_CANDIDATE = "whole-page"  # the baseline: its diff shows the boilerplate the gold leaves out


@pytest.fixture
def demo(app, runner, session, run_jobs):
    """The app holding the demo corpus as `goldtext demo` leaves it: imported, extracted by every
    extractor, scores cached. The demo runs its extraction job in the foreground; anything it queued
    besides is run here."""
    result = runner.invoke(args=["demo", "--no-serve"])
    assert result.exit_code == 0, result.output + repr(result.exception)
    run_jobs()
    extractors = len(runnable(build_registry()))
    assert session.scalar(select(func.count()).select_from(Extraction)) == 15 * extractors
    assert session.scalar(select(func.count()).select_from(Gold)) > 0
    session.rollback()
    return app


@pytest.fixture
def live_demo(demo):
    yield from serve(demo)


@pytest.fixture
def tab(browser, live_demo):
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1)
    yield signed_in(context, live_demo)
    context.close()


def test_the_annotate_view_screenshot(session, live_demo, tab, tmp_path):
    page_id = session.scalar(select(Page.id).where(Page.url == SHOWN_PAGE))
    session.rollback()
    tab.goto(f"{live_demo}/pages/{page_id}#candidate={SHOWN_CANDIDATE}")
    tab.wait_for_selector("#tabs .tab.active")
    until(tab, "document.getElementById('frame').contentDocument?.readyState === 'complete'")
    until(tab, "document.querySelectorAll('#diff del, #diff ins').length > 0")
    until(tab, "[...document.querySelectorAll('.tab-f1')].every((f) => f.textContent.startsWith('F1 '))")

    assert tab.locator("#tabs .tab").count() == len(runnable(build_registry()))
    assert SHOWN_CANDIDATE in tab.inner_text("#tabs .tab.active")
    assert tab.input_value("#editor").startswith("Night train to the coast")
    assert tab.is_visible("#editor") and tab.is_visible("#diff") and tab.is_visible("#frame")
    # the active tab is brought into view by scrolling the row alone: nothing else moved sideways
    moved = "[document.scrollingElement, ...document.querySelectorAll('main, main *')].filter((e) => e.scrollLeft > 0)"
    assert set(tab.evaluate(f"{moved}.map((e) => e.id || e.className)")) <= {"tabs"}
    assert tab.evaluate("""(() => { const row = document.getElementById('tabs').getBoundingClientRect(),
      at = document.querySelector('#tabs .tab.active').getBoundingClientRect();
      return at.left >= row.left && at.right <= row.right; })()""")  # the active tab is in the row's view
    # the three panes share the width: the long row of tabs widens none of them, the editor is on the screen
    widths = tab.eval_on_selector_all(
        ".panes > .pane", "(panes) => panes.map((p) => p.getBoundingClientRect().width).filter((w) => w > 0)")
    assert len(widths) == 3 and max(widths) - min(widths) < 2, widths
    assert tab.evaluate("document.getElementById('editor').getBoundingClientRect().right") <= WIDTH
    assert tab.frame_locator("#frame").locator("h1").first.inner_text()
    shoot(tab, "annotate.png", tmp_path, masked="#candidate-info .duration")


def test_the_leaderboard_screenshot(live_demo, tab, tmp_path):
    tab.goto(f"{live_demo}/leaderboard")
    rows = "#board tbody tr[data-extractor]"
    texts = [e.name for e in runnable(build_registry()) if e.name not in METADATA_ONLY]  # those that give text
    until(tab, f"document.querySelectorAll('{rows}').length === {len(texts)}")
    until(tab, "!document.getElementById('pending')")  # every extraction's counts are cached

    shown = tab.eval_on_selector_all(rows, "(rows) => rows.map((r) => r.dataset.extractor)")
    assert sorted(shown) == sorted(texts)
    f1 = tab.eval_on_selector_all(f"{rows} td[data-key=f1]", "(cells) => cells.map((c) => c.dataset.value)")
    assert all(value != "" and 0 <= float(value) <= 1 for value in f1)
    assert int(tab.get_attribute(f"{rows} td[data-key=pages]", "data-value")) > 0
    assert tab.is_visible("#board table")
    shoot(tab, "leaderboard.png", tmp_path, masked="td[data-key=median_ms]")
