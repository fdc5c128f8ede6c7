"""The page type a page's own signals suggest on a first visit (annotation/type_signals.py), each signal's vote
weighed per type, only types of the taxonomy in force, no type when no signal decides, and the annotate
view that preselects it and says which signals chose it (or names the guidelines)."""

from __future__ import annotations

import pytest
from workbench import add_gold, make_page, sign_in

from webapp.annotation.type_signals import Suggestion, suggest_type
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY, taxonomy


@pytest.mark.parametrize("facts, url, verdicts, page_type, signal", [
    ({"jsonld_types": ["WebPage", "Product"]}, None, (), "product", "JSON-LD @type Product"),
    ({"jsonld_types": ["DiscussionForumPosting"], "og_type": "article"}, None, (), "forum",
     "JSON-LD @type DiscussionForumPosting"),  # JSON-LD before og:type
    ({"jsonld_types": ["Organization"], "og_type": "product"}, None, (), "product", "og:type product"),
    ({"og_type": "website"}, "https://docs.example.org/en/docs/layout/grid", (), "documentation", "URL path /docs/"),
    ({}, "https://shop.example/category/shoes/", (), "collection", "URL path /category/"),
    ({}, "https://forum.example/t/why-is-the-sky-blue/42", (), "article", "none"),  # /t/ is too vague
    ({}, "https://app.example/", [(False, "too short"), (False, "too short")], "js-shell",
     "accept guard: every candidate rejected as too short"),
    ({}, "https://app.example/", [(False, "too short"), (True, None)], "article", "none"),
    ({"rs_trafilatura_type": {"type": "forum", "confidence": 0.93}}, "https://x.example/docs/a", (), "forum",
     "rs-trafilatura classifier (0.93)"),  # before the URL
    ({"rs_trafilatura_type": {"type": "service", "confidence": 0.45}}, "https://x.example/docs/a", (),
     "documentation", "URL path /docs/"),  # unsure: 0.45 x 4 weighs less than a URL's 2
    ({"rs_trafilatura_type": {"type": "service", "confidence": 0.3}}, None, (), "article", "none"),  # no vote
    ({"og_type": "article", "rs_trafilatura_type": {"type": "forum", "confidence": 0.99}}, None, (), "forum",
     "rs-trafilatura classifier (0.99)"),  # og:type article is set on any page: it weighs little
    ({"og_type": "article"}, "https://shop.example/product/karmin-dryer", (), "product",
     "URL path /product/karmin-dryer"),
    ({"og_type": "article"}, None, (), "article", "none"),  # alone, it decides nothing
    ({"jsonld_types": ["Question", "Product"], "rs_trafilatura_type": {"type": "product", "confidence": 0.95}},
     None, (), "product", "JSON-LD @type Product, rs-trafilatura classifier (0.95)"),  # a FAQ block weighs little
    ({"og_type": "article", "rs_trafilatura_type": {"type": "article", "confidence": 0.6}}, None, (), "article",
     "og:type article, rs-trafilatura classifier (0.60)"),  # the votes for one type add up
    ({"rendering": {"raw_text_chars": 31, "rendered_text_chars": 1204}, "og_type": "article"}, None, (), "js-shell",
     "rendering in Chromium: 1,204 characters of text, the raw response 31"),  # a captured JavaScript shell
    ({"rendering": {"raw_text_chars": 0, "rendered_text_chars": 150}}, None, (), "article", "none"),  # too few more
    ({"rendering": {"raw_text_chars": 900, "rendered_text_chars": 2400}}, None, (), "article", "none"),  # not 3 times
    ({"rendering": {"raw_text_chars": 600, "rendered_text_chars": 1800}, "jsonld_types": ["Product"]}, None, (),
     "js-shell", "rendering in Chromium: 1,800 characters of text, the raw response 600"),  # outweighs JSON-LD
    ({}, None, (), "article", "none"),
])
def test_the_weightiest_signals_choose_the_type(facts, url, verdicts, page_type, signal):
    found = suggest_type(facts, url, DEFAULT_TAXONOMY, verdicts)
    assert (found.page_type, found.signal) == (page_type, signal)


def test_only_types_of_the_taxonomy_in_force_are_suggested():
    small = taxonomy(["article", "forum", "other"], ["other"], ["article"])
    found = suggest_type({"jsonld_types": ["Product", "DiscussionForumPosting"]}, None, small)
    assert (found.page_type, found.signal) == ("forum", "JSON-LD @type DiscussionForumPosting")  # no product here
    assert suggest_type({"og_type": "product"}, None, small) == Suggestion("article", "none")  # its first type


def test_the_annotate_view_preselects_the_suggested_type_and_says_why(client, session):
    page = make_page(session, '<html><body><h1>Boots</h1><p>Leather boots.</p></body></html>',
                     url="https://shop.example/product/boots")
    page.facts = {"jsonld_types": ["Product"], "og_type": "product"}
    session.commit()
    page_id = page.id
    session.rollback()
    sign_in(client)
    html = client.get(f"/pages/{page_id}").get_data(as_text=True)
    assert '<option value="product" selected>' in html
    assert ("Page type product page:\n        suggested by its JSON-LD @type Product, og:type product, "
            "URL path /product/boots.") in html

    add_gold(session, session.get(type(page), page_id), text="Leather boots.", page_type="article", status="done",
             author="Ann")
    session.commit()
    saved = client.get(f"/pages/{page_id}").get_data(as_text=True)
    assert '<option value="article" selected>' in saved and 'id="type-signal"' not in saved  # the gold decides


def test_with_no_signal_deciding_the_annotate_view_names_the_guidelines_not_a_default(client, session):
    page_id = make_page(session, "<html><body><p>Hello there.</p></body></html>", url="https://x.example/").id
    session.commit()
    sign_in(client)
    html = client.get(f"/pages/{page_id}").get_data(as_text=True)
    assert "no signal of the page decides, so this is only the taxonomy's first type" in html
    assert 'the page types\' <a href="/guidelines">guidelines</a> say which fits' in html
