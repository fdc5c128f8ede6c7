"""Compositions of extractors: a cascade takes the first accepted part, a route the part its table names, a union
every line of its parts once in page order (hand-computed cases); the best cascade of two and its leave-one-out
figure (hand-computed); and on real pages of the shared corpora, compositions stored by the command, derived from
their parts' stored extractions without running anything, scored, marked and compared like extractors, refused
where a part is missing, and a part they use refused removal."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from corpora import READABILITY, READABILITY_PAGES
from sqlalchemy import select
from workbench import csrf

from webapp.accounts.roles import ANNOTATOR
from webapp.corpus.visible_text import normalise_line
from webapp.extractors.composing import PartOutput, cascade, in_page_order, route, union
from webapp.foundation.settings import settings_of
from webapp.foundation.vocabulary import DONE
from webapp.models import Extraction, ExtractorComposition, Gold, Job
from webapp.scoring.cascade_choice import best_cascade
from webapp.scoring.token_overlap import METRIC as TOKENS
from webapp.usecases.manage_compositions import CompositionRequest, compose_extractors
from webapp.usecases.outcome import Actor, Refused


def part(name: str, text: str, accepted: bool = True, error: str | None = None, markdown: str | None = None,
         ms: float = 1.0) -> PartOutput:
    return PartOutput(name, text, text if markdown is None else markdown, accepted, error, ms, False, {"by": name})


# --- composing one page -----------------------------------------------------------------------------------


def test_a_cascade_takes_the_first_accepted_part_else_the_last():
    a, b, c = part("a", "A's text", accepted=False), part("b", "B's text"), part("c", "C's text")
    taken = cascade([a, b, c])
    assert (taken.text, taken.used, taken.duration_ms) == ("B's text", ("a", "b"), 2.0)
    assert taken.metadata == {"by": "b", "composed_of": ["a", "b"]}
    none = cascade([a, part("c", "C's", accepted=False)])
    assert (none.text, none.used) == ("C's", ("a", "c"))
    failed = cascade([part("a", "", accepted=False, error="worker crashed"), part("b", "", accepted=False,
                                                                                  error="timeout after 60 s")])
    assert (failed.text, failed.error) == ("", "timeout after 60 s")


def test_a_route_takes_the_part_its_table_names_for_the_key_else_every_other_pages_part():
    outputs = {"a": part("a", "A"), "b": part("b", "B")}
    table = {"forum": "b", "*": "a"}
    assert route(outputs, table, "forum").text == "B"
    assert route(outputs, table, "article").text == "A"


PAGE = ("<html><body><h1>Ferry returns</h1><p>Menu</p><p>The ferry sails again.</p><p>Tides allowing.</p>"
        "<p>Menu</p><p>Share</p></body></html>")


def test_a_union_keeps_each_line_once_in_the_order_of_the_page():
    # page block text: "Ferry returns\nMenu\nThe ferry sails again.\nTides allowing.\nMenu\nShare"
    a = part("a", "Ferry returns\nThe ferry  sails again.\nShare")
    b = part("b", "The ferry sails again.\nTides allowing.\nPhoto: the harbour")  # the caption is not in the page
    assert union([a, b], PAGE).text == (
        "Ferry returns\nThe ferry  sails again.\nTides allowing.\nPhoto: the harbour\nShare")
    # the caption follows the line before it in its own text; "The ferry sails again." is A's line (whitespace
    # compared collapsed, A first at equal places); the union of B and A is the same text but for that line
    assert union([b, a], PAGE).text == (
        "Ferry returns\nThe ferry sails again.\nTides allowing.\nPhoto: the harbour\nShare")


def test_a_line_a_part_repeats_is_kept_as_often_as_the_part_that_repeats_it_most_at_its_places():
    assert in_page_order([["Menu", "x"], ["Menu", "Share", "Menu"]], "Menu\nShare\nMenu", str) == [
        "Menu", "x", "Share", "Menu"]  # x: not in the page, after A's first Menu (A before B at that place)
    a = part("a", "Menu\nMenu")
    b = part("b", "Menu")
    assert union([a, b], PAGE).text == "Menu\nMenu"


def test_a_union_of_markdown_keeps_each_block_once_placed_by_its_first_line():
    a = part("a", "", markdown="# Ferry returns\n\nThe ferry sails again.")
    b = part("b", "", markdown="The *ferry* sails again.\n\n- Tides allowing.\n- Menu")
    assert union([a, b], PAGE).markdown == "# Ferry returns\n\nThe ferry sails again.\n\n- Tides allowing.\n- Menu"


def test_a_union_of_a_failed_part_is_the_other_parts_text():
    done = union([part("a", "", accepted=False, error="worker crashed"), part("b", "Share")], PAGE)
    assert (done.text, done.error) == ("Share", None)


# --- the best cascade of two --------------------------------------------------------------------------------


def fields(*pages: tuple[int, int, int]) -> dict[str, np.ndarray]:
    return {"hit": np.array([p[0] for p in pages], float), "extracted": np.array([p[1] for p in pages], float),
            "gold": np.array([p[2] for p in pages], float), "exact": np.zeros(len(pages))}


def test_the_best_cascade_of_two_and_its_leave_one_out_figure_by_hand():
    # per-page token F1 (macro): x 1, 0 (rejected), .5, 0 (accepted junk); y .5, .8, 1 (rejected), 1
    x = fields((10, 10, 10), (0, 0, 10), (5, 10, 10), (0, 10, 10))
    y = fields((5, 10, 10), (8, 10, 10), (10, 10, 10), (10, 10, 10))
    accepted = {"x": np.array([True, False, True, True]), "y": np.array([True, True, False, True])}
    found = best_cascade(TOKENS, "macro", {"x": x, "y": y}, accepted)
    # x then y: 1, .8, .5, 0 -> .575; y then x: .5, .8, .5, 1 -> .7
    assert (found["first"], found["then"], found["pairs"], found["pages"]) == ("y", "x", 2, 4)
    assert found["f1"] == pytest.approx(0.7) and found["mean_page_f1"] == pytest.approx(0.7)
    # leaving each page out: pages 0, 1, 2 choose y-then-x (2.3, 2.0, 2.3 against 1.3, 1.5, 1.8 on the others),
    # page 3 x-then-y (2.3 against 1.8): .5 + .8 + .5 + 0 over 4
    assert found["leave_one_out_f1"] == pytest.approx(0.45)
    assert found["leave_one_out_choices"] == 2
    assert found["best_alone"] == {"name": "y", "f1": pytest.approx(0.825)}  # x: .375
    assert "same gold pages it is scored on" in found["warning"]
    assert best_cascade(TOKENS, "macro", {"x": x}, {"x": accepted["x"]}) is None


# --- on real pages ------------------------------------------------------------------------------------------

PARTS = ("trafilatura", "justext", "resiliparse")


@pytest.fixture
def extracted(cli, tmp_path):
    """20 of Readability's test pages (their expected text as the gold) extracted by three extractors."""
    pages = tmp_path / "readability"
    pages.mkdir()
    for folder in sorted(p for p in READABILITY_PAGES.iterdir() if p.is_dir())[:20]:
        (pages / folder.name).symlink_to(folder)
    cli("import", str(pages))
    cli("extract", *(arg for name in PARTS for arg in ("--extractor", name)))


def lines_of(text: str) -> Counter[str]:
    return Counter(line for line in map(normalise_line, text.splitlines()) if line)


def stored(session, name: str) -> dict[int, Extraction]:
    session.expire_all()
    return {row.page_id: row for row in session.scalars(select(Extraction).where(Extraction.extractor == name))}


def board(cli, *args: str) -> dict:
    return json.loads(cli("score", "--bootstrap", "0", "--format", "json", *args))


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_compositions_are_derived_from_stored_extractions_and_scored_like_extractors(cli, session, client, extracted):
    before = {name: {p: (r.id, r.created_at) for p, r in stored(session, name).items()} for name in PARTS}
    out = cli("extractors", "compose", "jt", "--cascade", "justext,trafilatura")
    assert out.startswith("composition jt saved: cascade of justext, trafilatura\nfingerprint: jt|cascade sha256:")
    assert "20 extractions" in out
    cli("extractors", "compose", "tr-union", "--union", "trafilatura,resiliparse")
    cli("extractors", "compose", "by-site", "--route", "site", "--table", "unknown=resiliparse",
        "--table", "*=trafilatura")
    # nothing was run again: the parts' extractions are the same rows
    assert {name: {p: (r.id, r.created_at) for p, r in stored(session, name).items()} for name in PARTS} == before

    trafilatura, justext, resiliparse = (stored(session, name) for name in PARTS)
    casc, joined, routed = stored(session, "jt"), stored(session, "tr-union"), stored(session, "by-site")
    assert set(casc) == set(joined) == set(routed) == set(trafilatura) and len(casc) == 20
    for page_id, row in casc.items():
        first = justext[page_id]
        assert row.text == (first.text if first.accepted else trafilatura[page_id].text)
        assert row.meta["composed_of"] == (["justext"] if first.accepted else ["justext", "trafilatura"])
        assert routed[page_id].text == resiliparse[page_id].text  # Readability's pages have no URL: site unknown
        # the union: each line as often as the part that gives it most often (lines compared as the union does)
        assert lines_of(joined[page_id].text) == lines_of(trafilatura[page_id].text) | lines_of(
            resiliparse[page_id].text), page_id
    assert any(not justext[p].accepted for p in casc) and any(justext[p].accepted for p in casc)

    listed = cli("extractors", "list").splitlines()
    assert [line.split()[0] for line in listed[-3:]] == ["by-site", "jt", "tr-union"]
    assert listed[-2].endswith("cascade of justext, trafilatura")

    figures = board(cli)
    assert set(figures["compositions"]) == {"jt", "tr-union", "by-site"}
    assert figures["compositions"]["jt"] == {"kind": "cascade", "parts": ["justext", "trafilatura"],
                                             "description": "cascade of justext, trafilatura", "missing_pages": 0,
                                             "missing_by_part": {}}
    assert figures["extractors"]["by-site"]["f1"] == pytest.approx(figures["extractors"]["resiliparse"]["f1"])
    best = figures["best_cascade"]
    assert best["pairs"] == 6  # ordered pairs of the three extractors; compositions are not among them
    assert cli("extractors", "compose", "best", "--cascade", f"{best['first']},{best['then']}")
    # the best cascade's figure is its composition's, scored from the derived texts
    assert board(cli)["extractors"]["best"]["f1"] == pytest.approx(best["f1"])
    text = cli("score", "--bootstrap", "0")
    assert f"best cascade of two: {best['first']}, then {best['then']}: F1 {best['f1']:.4f}" in text
    assert "composition jt: cascade of justext, trafilatura" in text

    # the API, the head-to-head and the drill-down mark a composition with its parts
    api = client.get("/api/leaderboard", query_string={"bootstrap": 0}).get_json()
    assert api["compositions"]["tr-union"]["parts"] == ["trafilatura", "resiliparse"]
    compared = client.get("/api/compare", query_string={"a": "jt", "b": "justext", "bootstrap": 0}).get_json()
    assert compared["a"]["composition"]["parts"] == ["justext", "trafilatura"] and compared["b"]["composition"] is None
    drill = client.get("/api/leaderboard/pages", query_string={"extractor": "tr-union"}).get_json()
    assert drill["composition"]["description"] == "union of trafilatura, resiliparse" and drill["pages"] == 19
    page = client.get("/leaderboard").get_data(as_text=True)
    assert "composition: union of trafilatura, resiliparse" in page and 'id="best-cascade"' in page
    assert "chosen on the same gold pages it is scored on" in page or "same gold pages it is scored on" in page


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_a_composition_lacks_the_pages_a_part_lacks_and_a_part_in_use_is_not_removed(cli, runner, session,
                                                                                    extracted):
    cli("extractors", "add", "traf-precise", "--base", "trafilatura", "--option", "favor_precision=true")
    out = cli("extractors", "compose", "careful", "--cascade", "traf-precise,resiliparse")
    assert "0 extractions" in out  # the variant never ran: nothing is run to compose
    assert stored(session, "traf-precise") == {} and stored(session, "careful") == {}
    gold = len(session.scalars(select(Gold.page_id).where(Gold.status == DONE)).all())
    figures = board(cli, "--extractor", "careful", "--extractor", "resiliparse")
    assert figures["compositions"]["careful"]["missing_pages"] == gold
    assert figures["compositions"]["careful"]["missing_by_part"] == {"traf-precise": gold}
    assert f"no extraction on {gold} gold pages where a part has none (traf-precise: {gold})" in cli(
        "score", "--bootstrap", "0", "--extractor", "resiliparse", "--extractor", "careful")

    refused = runner.invoke(args=["extractors", "remove", "traf-precise"])
    assert refused.exit_code == 1
    assert "The variant traf-precise is a part of the composition careful: remove it first." in refused.output

    # running the composition runs its parts, then derives it
    cli("extract", "--extractor", "careful")
    assert len(stored(session, "traf-precise")) == 20 and len(stored(session, "careful")) == 20
    assert cli("extractors", "remove", "careful") == "composition careful removed\n"
    assert cli("extractors", "remove", "traf-precise") == "variant traf-precise removed\n"

    for args, message in [
        (("jt", "--cascade", "justext"), "a cascade takes at least two parts, not 1"),
        (("jt", "--cascade", "justext,nothing"), "unknown part 'nothing'"),
        (("trafilatura", "--union", "justext,resiliparse"), "an extractor named 'trafilatura' already exists"),
        (("jt", "--route", "type", "--table", "forum=justext"), "a route's table names the part of every other page"),
        (("jt", "--route", "type", "--table", "poem=justext", "--table", "*=resiliparse"), "unknown page type 'poem'"),
        (("jt", "--union", "a,b", "--cascade", "c,d"), "give one of --cascade A,B, --union A,B or --route type|site"),
    ]:
        result = runner.invoke(args=["extractors", "compose", *args])
        assert result.exit_code != 0 and message in result.output, (args, result.output)
    assert session.scalars(select(ExtractorComposition)).all() == []


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_an_admin_composes_from_the_extractors_page_and_an_annotator_cannot(app, client, session, extracted,
                                                                              run_jobs):
    token = csrf(client)
    sent = {"name": "tr-union", "kind": "union", "parts": "trafilatura\r\nresiliparse", "by": "type", "table": "",
            "csrf_token": token}
    response = client.post("/extractors/compositions", data=sent)
    assert response.status_code == 302
    run_jobs()
    assert len(stored(session, "tr-union")) == 20
    page = client.get("/extractors").get_data(as_text=True)
    assert "Composition tr-union saved (union of trafilatura, resiliparse)" in page
    assert 'data-extractor="tr-union"' in page and "composition:</span> union of trafilatura, resiliparse" in page
    session.rollback()
    bad = client.post("/extractors/compositions", data={**sent, "name": "again", "parts": "trafilatura"})
    assert bad.status_code == 400 and "a union takes at least two parts, not 1" in bad.get_data(as_text=True)
    session.rollback()
    assert client.post("/extractors/compositions/tr-union/remove", data={"csrf_token": token}).status_code == 302
    assert session.scalars(select(ExtractorComposition)).all() == []
    jobs = session.scalars(select(Job)).all()
    assert any(job.params.get("derive_only") for job in jobs)
    with pytest.raises(Refused) as refused:
        compose_extractors(session, settings_of(app), Actor("Ann", ANNOTATOR),
                           CompositionRequest("mine", "union", ("trafilatura", "resiliparse")))
    assert (refused.value.status, refused.value.reason) == (403, "Only an admin stores compositions of extractors.")
