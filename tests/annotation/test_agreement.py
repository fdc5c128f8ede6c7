"""Agreement between annotators against hand-computed cases: two and three annotators, types disagreeing,
empty texts, snippets, F1 against the gold, the annotators' noise; and the same figures from
`goldtext agreement --format json` and GET /api/agreement on annotations saved in the database."""

from __future__ import annotations

import json

import pytest
from pytest import approx
from workbench import make_page

from webapp.annotation.annotations import save_annotation
from webapp.annotation.gold import add_revision
from webapp.foundation.kept import Kept
from webapp.scoring.agreement_maths import (
    AnnotatedPage,
    Said,
    agreement,
    annotator_noise,
    page_agreement,
    snippet_jaccard,
    text_f1,
    type_alpha,
    within_noise,
)

# P1: two annotators. "the cat sat on the mat" (6 tokens) against "the cat sat" (3): 3 hits,
# P = 3/6, R = 3/3, F1 = 2/3. Snippets {with: cat} and {with: cat, without: ad}: Jaccard 1/2.
P1 = AnnotatedPage(1, (Said("A", "the cat sat on the mat", "article", {"with": ["cat"], "without": []}),
                       Said("B", "the cat sat", "article", {"with": ["cat"], "without": ["ad"]})),
                   gold="the cat sat on the mat", site="one.example", gold_page_type="article")
# P2: three annotators. X = Z = "a b c d", Y = "a b c e": XY 3/4, XZ 1, YZ 3/4 -> mean 5/6;
# types article, listing, article: one pair of three agrees.
P2 = AnnotatedPage(2, (Said("X", "a b c d", "article"), Said("Y", "a b c e", "listing"),
                       Said("Z", "a b c d", "article")), site="two.example")
# P3: two empty texts (a page with no main content) agree fully.
P3 = AnnotatedPage(3, (Said("A", "", "other"), Said("B", "", "other")), site="one.example")


@pytest.mark.parametrize(("a", "b", "f1"), [
    ("the cat sat on the mat", "the cat sat", 2 / 3),
    ("a b c d", "a b c e", 3 / 4),
    ("Same words", "same, WORDS!", 1.0),
    ("", "", 1.0),
    ("", "something", 0.0),
    ("one two", "three four", 0.0),
])
def test_pair_text_f1(a, b, f1):
    assert text_f1(a, b) == approx(f1) and text_f1(b, a) == approx(f1)


def test_two_annotators_on_one_page():
    found = page_agreement(P1)
    assert (found.pairs, found.text_f1, found.type_agreement, found.snippet_agreement) == (1, approx(2 / 3), 1.0, 0.5)


def test_three_annotators_whose_page_types_disagree():
    found = page_agreement(P2)
    assert found.pairs == 3
    assert found.text_f1 == approx((0.75 + 1 + 0.75) / 3)
    assert found.type_agreement == approx(1 / 3)
    assert found.snippet_agreement is None  # nobody gave snippets: no pair counted


def test_snippet_jaccard_counts_the_list_a_snippet_is_in():
    assert snippet_jaccard({"with": ["x"]}, {"without": ["x"]}) == 0.0
    assert snippet_jaccard({"with": ["x", "y"]}, {"with": ["y", "x"]}) == 1.0
    assert snippet_jaccard(None, {"with": []}) is None


def test_corpus_figures():
    result = agreement([P1, P2, P3])
    assert result["pages"] == 3 and result["pairs"] == 5
    assert result["text_f1"] == approx((2 / 3 + 5 / 6 + 1) / 3)
    assert result["type_agreement"] == approx(3 / 5)  # P1 1 of 1, P2 1 of 3, P3 1 of 1
    # Coincidences: article-article 2 (P1) + 1 (P2), article-listing 1 + 1 (P2), other 2 (P3);
    # n = 7, D_o = 2/7, D_e = 2 (4*1 + 4*2 + 1*2) / (7*6) = 2/3, alpha = 1 - (2/7)/(2/3) = 4/7.
    assert result["type_alpha"] == approx(4 / 7)
    assert (result["snippet_agreement"], result["snippet_pairs"]) == (0.5, 1)
    assert result["annotators"]["A"] == {"pages": 2, "adjudicated": 1, "f1_vs_gold": 1.0}
    assert result["annotators"]["B"] == {"pages": 2, "adjudicated": 1, "f1_vs_gold": approx(2 / 3)}
    assert result["annotators"]["Y"] == {"pages": 1, "adjudicated": 0, "f1_vs_gold": None}
    spread = result["text_f1_spread"]
    assert (spread["min"], spread["median"], spread["max"]) == (approx(2 / 3), approx(5 / 6), 1.0)


def test_alpha_is_undefined_when_every_annotation_has_one_page_type():
    assert type_alpha([P1]) is None
    assert agreement([])["type_alpha"] is None and agreement([])["text_f1"] is None


def test_figures_by_site_page_type_and_annotator():
    by_site = agreement([P1, P2, P3], "site")["groups"]
    assert by_site.keys() == {"one.example", "two.example"}
    assert by_site["one.example"]["text_f1"] == approx((2 / 3 + 1) / 2)
    by_page_type = agreement([P1, P2, P3], "type")["groups"]
    assert set(by_page_type) == {"article", "other"}  # P2, not adjudicated: the type most annotators chose
    assert by_page_type["article"]["pages"] == 2
    by_annotator = agreement([P1, P2, P3], "annotator")["groups"]
    assert by_annotator["Y"]["pairs"] == 2 and by_annotator["Y"]["text_f1"] == approx(0.75)
    assert by_annotator["Y"]["type_agreement"] == 0.0
    assert by_annotator["X"]["text_f1"] == approx((0.75 + 1) / 2)
    assert by_annotator["A"]["pages"] == 2 and by_annotator["A"]["annotators"].keys() == {"A"}


def test_annotator_noise_and_what_is_within_it():
    page_f1 = {1: 0.75, 2: 0.95}
    assert annotator_noise(page_f1, [1, 2, 3]) == approx(0.15)
    assert annotator_noise(page_f1, [3]) is None
    assert within_noise(0.1, 0.15) is True and within_noise(-0.2, 0.15) is False
    assert within_noise(0.1, None) is None


def annotate(session, page, name, text, page_type="article", status="done", snippets=None):
    found = save_annotation(session, page, name, base_version=0, text=text, page_type=page_type, status=status,
                            snippets=snippets)
    session.commit()
    return found


def test_cli_and_api_give_the_figures_of_the_stored_annotations(app, session, runner, client):
    first, second, third = (make_page(session, host=h) for h in ("one.example", "two.example", "one.example"))
    for page, said in ((first, P1.said), (second, P2.said), (third, P3.said)):
        for s in said:
            annotate(session, page, s.author, s.text, s.page_type, snippets=s.snippets)
    add_revision(session, first, text="the cat sat on the mat", page_type="article", status="done", author="Rev")
    annotate(session, make_page(session), "A", "a draft only", status="draft")  # work in progress: not counted
    session.commit()
    result = runner.invoke(args=["agreement", "--format", "json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    expected = json.loads(json.dumps(agreement([P1, P2, P3])))
    for key in ("pages", "pairs", "text_f1", "type_agreement", "type_alpha", "snippet_agreement", "annotators"):
        assert figures[key] == expected[key], key
    assert client.get("/api/agreement").get_json() == figures
    by_site = client.get("/api/agreement?by=site").get_json()
    assert by_site["groups"]["one.example"]["pages"] == 2
    assert client.get("/api/agreement?by=colour").status_code == 400
    table = runner.invoke(args=["agreement", "--by", "annotator"])
    assert table.exit_code == 0 and "f1_vs_gold" in table.output and "\nY " in table.output
    page = client.get("/agreement?by=type").get_data(as_text=True)
    assert "0.571" in page and "other" in page and "<svg" in page


def test_the_kept_pairs_stay_within_their_characters_and_an_edited_text_is_another_pair():
    kept: Kept[float] = Kept(10, size=lambda pair, _: len(pair[0]) + len(pair[1]))
    kept.put(("abc", "abc"), 1.0)
    kept.put(("defg", "de"), 0.5)  # 9 characters held
    kept.put(("xy", "z"), 0.0)  # 12 > 10: the least recently used pair goes
    assert kept.peek(("abc", "abc")) is None and kept.peek(("defg", "de")) == 0.5 and kept.held == 9
    kept.put(("a" * 11, ""), 0.0)  # larger than the whole: not kept, nothing else lost
    assert kept.peek(("a" * 11, "")) is None and kept.held == 9
    assert text_f1("one two three", "one two three") == 1.0
    assert text_f1("one two three", "one two four") == approx(2 / 3)  # the same first text, edited second
    assert text_f1("one two three", "one two three") == 1.0


def test_an_unknown_grouping_is_refused_before_any_page_is_annotated(client, runner):
    answer = client.get("/api/agreement?by=nope")
    assert answer.status_code == 400
    assert "site, type, annotator, guideline" in answer.get_json()["message"]
    assert runner.invoke(args=["agreement", "--by", "nope"]).exit_code != 0
