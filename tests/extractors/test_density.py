"""The density heuristic: scores computed by hand, word-ish hints, pruning, the demo night-train page."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

from webapp.extractors.density import hint_points, run_density

NIGHTTRAIN = Path(__file__).resolve().parents[2] / "webapp" / "demo_corpus" / "pages" / "nighttrain.html"

# 50 characters, one comma: 1 + 50/100 + 1 = 2.5 points.
FIFTY_ONE_COMMA = "x" * 24 + ", " + "y" * 24
# 50 characters, no comma, the first 25 inside a link: 1.5 points, link density 0.5.
FIFTY_HALF_LINK = "<a href='/'>" + "l" * 25 + "</a>" + "t" * 25


@pytest.mark.parametrize(
    ("body", "candidates"),
    [
        # parent: +10 (id "main") + 2.5 = 12.5; grandparent body: 2.5 / 2 = 1.25
        (
            f"<div id='main'><p>{FIFTY_ONE_COMMA}</p></div>",
            [{"path": "/html/body/div", "score": 12.5}, {"path": "/html/body", "score": 1.25}],
        ),
        # parent: (10 + 1.5) * (1 - 0.5) = 5.75; body: 0.75 * 0.5 = 0.375
        (
            f"<div class='story'><p>{FIFTY_HALF_LINK}</p></div>",
            [{"path": "/html/body/div", "score": 5.75}, {"path": "/html/body", "score": 0.375}],
        ),
        # two paragraphs add up: 2.5 + 2.5 = 5 and 2.5; a negative hint: -25 + 2.5 = -22.5
        (
            f"<section><p>{FIFTY_ONE_COMMA}</p><p>{FIFTY_ONE_COMMA}</p></section>"
            f"<div class='sidebar'><p>{FIFTY_ONE_COMMA}</p></div>",
            [
                {"path": "/html/body/section", "score": 5.0},
                {"path": "/html/body", "score": 3.75},
                {"path": "/html/body/div", "score": -22.5},
            ],
        ),
        # exactly 25 characters scores 1 + 0.25 = 1.25
        (
            "<div><p>" + "z" * 25 + "</p></div>",
            [{"path": "/html/body/div", "score": 1.25}, {"path": "/html/body", "score": 0.625}],
        ),
    ],
)
def test_scores_match_hand_computation(body, candidates):
    assert run_density(f"<html><body>{body}</body></html>", None).metadata == {"candidates": candidates}


@pytest.mark.parametrize(
    "html",
    [
        "<html><body><div>No paragraphs here at all, only a div.</div></body></html>",
        "<html><body><div><p>" + "z" * 24 + "</p></div></body></html>",
        "<html><body><nav><p>A long paragraph inside the navigation bar.</p></nav></body></html>",
        "",
    ],
)
def test_no_scoring_paragraph_gives_empty_text(html):
    assert run_density(html, None).text == ""
    assert run_density(html, None).metadata == {"candidates": []}


@pytest.mark.parametrize(
    ("attributes", "points"),
    [
        ('class="story"', 10),
        ('id="articleBody"', 10),
        ('class="entry-content"', 10),
        ('class="ad"', -25),
        ('class="ads"', -25),
        ('class="ad-slot"', -25),
        ('class="advert"', -25),
        ('class="advertisement"', -25),
        ('id="mainAd"', -15),
        ('class="post comments"', -15),
        ('class="header"', -25),
        ('class="read"', 0),
        ('class="shadow"', 0),
        ('class="masthead"', 0),
        ('class="load badge"', 0),
        ('class="byline"', 0),
        ('class="uploads"', 0),
        ("", 0),
    ],
)
def test_hints_are_word_ish(attributes, points):
    assert hint_points(lxml.html.fromstring(f"<div {attributes}>x</div>")) == points


def test_winner_children_with_links_or_negative_hints_are_pruned():
    links = "".join(f"<a href='/{i}'>another story number {i}</a> " for i in range(5))
    page = (
        "<html><body><div class='content'>"
        f"<p>{FIFTY_ONE_COMMA}</p><div class='promo'>Buy the paper today</div>"
        f"<div>{links}</div><p>{FIFTY_ONE_COMMA}</p><blockquote>kept quote</blockquote>"
        "</div></body></html>"
    )
    assert run_density(page, None).text.splitlines() == [FIFTY_ONE_COMMA, FIFTY_ONE_COMMA, "kept quote"]


def test_nighttrain_article_wins_keeps_byline_and_prunes_related_and_ad():
    html = NIGHTTRAIN.read_text(encoding="utf-8")
    extracted = run_density(html, None)
    winner = extracted.metadata["candidates"][0]["path"]
    assert lxml.html.document_fromstring(html).xpath(winner)[0].get("class") == "story"
    lines = extracted.text.splitlines()
    assert lines[:2] == ["Night train to the coast returns after eleven years", "By Maren Oyelaran, 14 March 2024"]
    assert len(lines) == 7  # headline, byline, five paragraphs
    assert lines[-1].startswith("The regional transport board has guaranteed the service")
    for pruned in ("Advertisement", "Spring breaks by the sea", "Related", "Northline leases sleeper coaches"):
        assert pruned not in extracted.text
    for outside in ("cookies", "Most read", "Join the discussion", "Weekly Timetable", "All rights reserved"):
        assert outside not in extracted.text
    assert len(extracted.metadata["candidates"]) == 5
