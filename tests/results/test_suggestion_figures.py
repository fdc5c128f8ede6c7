"""The page-type suggestion measured on the team's gold (results/suggestion_figures.py), counted by hand:
right per type of the gold, undecided pages, and the pull (the suggested type kept when the suggestion was
right, and when it was wrong); the leaderboard shows them beside anchoring."""

from __future__ import annotations

from workbench import add_gold, make_page

from webapp.foundation.vocabulary import DEFAULT_TAXONOMY
from webapp.results.suggestion_figures import suggestion_figures


def page_with(session, facts, url, saves):
    page = make_page(session, "<html><body><p>Text of the page.</p></body></html>", url=url)
    page.facts = facts
    for author, page_type in saves:
        add_gold(session, page, text="Text of the page.", page_type=page_type, status="done", author=author)
    return page


def test_right_per_type_undecided_and_the_pull_when_right_and_when_wrong(session, client):
    page_with(session, {"og_type": "article"}, "https://shop.example/product/boots", [("Ann", "product")])
    page_with(session, {"jsonld_types": ["Product"]}, "https://shop.example/a", [("Ann", "product"),
                                                                                  ("Rita", "collection")])
    page_with(session, {"jsonld_types": ["Product"]}, "https://shop.example/b", [("Bob", "collection")])
    page_with(session, {}, "https://x.example/", [("Bob", "article")])  # no signal decides
    page_with(session, {"jsonld_types": ["DiscussionForumPosting"]}, "https://f.example/1", [("import", "forum")])
    session.commit()
    found = suggestion_figures(session, DEFAULT_TAXONOMY)
    assert found == {
        "pages": 5, "undecided": 1,
        "by_type": {"article": {"pages": 1, "right": 0}, "collection": {"pages": 2, "right": 0},
                    "forum": {"pages": 1, "right": 1}, "product": {"pages": 1, "right": 1}},
        "pull": {"right": {"choices": 1, "followed": 1},  # the imported gold is nobody's choice
                 "wrong": {"choices": 2, "followed": 1}},
    }
    html = client.get("/leaderboard").get_data(as_text=True)
    assert 'id="type-suggestion"' in html and "On the 5 pages with\n    done gold" in html
    assert '<tr data-pull="wrong"><td>wrong</td><td>2</td><td>1</td>\n        <td>50.0%</td></tr>' in html
