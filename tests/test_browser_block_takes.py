"""Every line in its place, and fewer actions per page (issues 22 §1 and 24 §1-2), in Chromium at 1366x768:
blocks whose text is repeated on the page (a sidebar's words as card titles, a heading in the breadcrumb,
two "Read more" links, menu items as content) land at their own place whatever the click order, only the
copies in the gold are highlighted and a click takes out its own line; Shift+click ranges, containers
widened by key, keyboard-only use, lines taken from a candidate; and a real WCXB page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_fixtures import signed_in, until
from corpora import WCXB, WCXB_SAMPLE
from sqlalchemy import select
from workbench import make_page

from webapp.corpus.decoding import decode
from webapp.corpus.visible_text import block_lines, parse_html
from webapp.models import Gold, GoldRevision

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent / "data" / "alignment"
CATALOGUE = (DATA / "catalogue.html").read_text(encoding="utf-8")
SERVICE = (DATA / "service.html").read_text(encoding="utf-8")
EDITOR = "document.getElementById('editor').value"


@pytest.fixture
def context(browser):
    made = browser.new_context(viewport={"width": 1366, "height": 768})
    yield made
    made.close()


def open_page(context, base, page_id):
    tab = signed_in(context, base)
    tab.goto(f"{base}/pages/{page_id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    until(tab, "document.getElementById('frame').contentDocument?.querySelector('style') !== null")
    return tab


def gold(tab) -> list[str]:
    return tab.evaluate(EDITOR).split("\n") if tab.evaluate(EDITOR) else []


def saved_text(session, page_id) -> str:
    text = session.scalars(select(GoldRevision.text).join(Gold).where(Gold.page_id == page_id)
                           .order_by(GoldRevision.id.desc())).first()
    session.rollback()
    return text


def save(tab, session, page_id) -> list[str]:
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version')")
    return saved_text(session, page_id).split("\n")


# The nth (from 0) element of the frame whose own normalised text is `text`, by a CSS selector.
ELEMENT = """([selector, text, nth]) => {
  const doc = document.getElementById('frame').contentDocument;
  return [...doc.querySelectorAll(selector)].filter((e) => e.textContent.trim() === text)[nth];
}"""


def box(tab, selector: str, text: str, nth: int = 0) -> tuple[float, float]:
    """The viewport point at the middle of that element's text, scrolled into view."""
    return tuple(tab.evaluate(f"""(args) => {{
      const element = ({ELEMENT})(args);
      element.scrollIntoView({{block: 'center'}});
      const frame = document.getElementById('frame'), at = frame.getBoundingClientRect();
      const range = frame.contentDocument.createRange();
      range.selectNodeContents(element);
      const b = range.getClientRects()[0];
      return [at.left + frame.clientLeft + b.left + b.width / 2, at.top + frame.clientTop + b.top + b.height / 2];
    }}""", [selector, text, nth]))


def click(tab, selector: str, text: str, nth: int = 0, modifiers: list[str] | None = None) -> None:
    x, y = box(tab, selector, text, nth)
    tab.mouse.move(x, y)
    if modifiers:
        for key in modifiers:
            tab.keyboard.down(key)
    tab.mouse.click(x, y)
    for key in modifiers or []:
        tab.keyboard.up(key)


def highlighted(tab, selector: str, text: str, nth: int = 0) -> bool:
    """Whether that element's text is marked as in the gold: on its element (a block that is its element's
    whole text), or by the page's 'goldtext-in' highlight (a block sharing its element, as a card's link)."""
    return tab.evaluate(f"""(args) => {{
      const element = ({ELEMENT})(args);
      if (element.classList.contains('goldtext-in')) return true;
      const marks = document.getElementById('frame').contentWindow.CSS.highlights.get('goldtext-in');
      return [...(marks ?? [])].some((range) => range.intersectsNode(element.firstChild));
    }}""", [selector, text, nth])


CARDS = [("h1", "Widget catalogue", 0), ("h2", "Layout", 0), ("p", "Grids, stacks and flexible boxes.", 0),
         ("h2", "Accessibility", 0), ("a", "Read more", 1), ("h2", "Text", 0), ("a", "Read more", 3),
         ("a", "Read more", 0)]
# The clicked blocks in the page's order: the first two cards' "Read more" follow "Accessibility".
IN_ORDER = ["Widget catalogue", "Accessibility", "Read more", "Read more", "Layout",
            "Grids, stacks and flexible boxes.", "Text", "Read more"]


@pytest.mark.parametrize("order", [[0, 1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1, 0], [3, 6, 0, 1, 7, 2, 5, 4]],
                         ids=["top-down", "bottom-up", "mixed"])
def test_repeated_texts_land_at_their_own_place_in_any_click_order(session, live_server, context, order):
    page_id = make_page(session, CATALOGUE).id
    tab = open_page(context, live_server, page_id)
    for i in order:
        click(tab, *CARDS[i])
    until(tab, f"{EDITOR}.split('\\n').length === 8")
    assert save(tab, session, page_id) == IN_ORDER
    # the copies clicked are highlighted, and none other: not the sidebar's, not the breadcrumb's, not the footer's
    assert highlighted(tab, "h2", "Layout") and highlighted(tab, "h2", "Accessibility") and highlighted(tab, "h2", "Text")
    assert not any(highlighted(tab, "li", text) for text in ("Accessibility", "Layout", "Text"))
    assert not highlighted(tab, "li", "Widget catalogue") and highlighted(tab, "h1", "Widget catalogue")
    assert [highlighted(tab, "a", "Read more", n) for n in range(4)] == [True, True, False, True]
