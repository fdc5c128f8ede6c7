"""The page-type suggestion in Chromium: on a product page whose og:type says article, the annotate view
preselects product and names the signals that outweighed it; on a page no signal decides, it names the
guidelines rather than calling the page an article; the leaderboard shows the suggestion's accuracy per type
and its pull beside anchoring."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from workbench import add_gold, make_page

pytestmark = pytest.mark.browser

HTML = "<html><body><h1>Karmin dryer</h1><p>A light dryer with three heat settings.</p></body></html>"


def test_the_suggestion_weighs_its_signals_names_the_guidelines_and_is_measured(laptop, live_server, session):
    product = make_page(session, HTML, url="https://shop.example/product/karmin-dryer")
    product.facts = {"og_type": "article", "rs_trafilatura_type": {"type": "product", "confidence": 0.58}}
    plain = make_page(session, "<html><body><p>Hello there, reader.</p></body></html>", url="https://x.example/")
    add_gold(session, make_page(session, HTML.replace("dryer", "fan"), url="https://shop.example/product/fan"),
             text="Karmin fan", page_type="collection", status="done", author="Bob")
    session.commit()
    tab = signed_in(laptop, live_server)
    tab.goto(f"{live_server}/pages/{product.id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    assert tab.input_value("#type") == "product"
    assert "suggested by its rs-trafilatura classifier (0.58), URL path /product/karmin-dryer" in \
        tab.inner_text("#type-signal")
    tab.goto(f"{live_server}/pages/{plain.id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    said = tab.inner_text("#type-signal")
    assert "no signal of the page decides" in said and "guidelines say which fits" in said
    assert tab.get_attribute("#type-signal a", "href") == "/guidelines"

    tab.goto(f"{live_server}/leaderboard")
    assert tab.inner_text("#suggestion-by-type tr[data-type=collection]").split() == ["collection", "1", "0", "0.0%"]
    pull = tab.inner_text("#suggestion-pull tr[data-pull=wrong]").split()
    assert pull == ["wrong", "1", "0", "0.0%"]  # Bob chose otherwise
