"""Anchoring: each extractor's figures on the pages whose gold started from its text and on
the others, the unanchored leaderboard (`?unanchored=1`, `goldtext score --unanchored`), how far the gold
moved from its prefill, and site-rules shown as its fallback when it applied no rule (§3).

The hand-built corpus (`anchored`), tokens F1 per page (macro: the mean over pages):

    page  gold          trafilatura        density          gold started from
    A     a b c d       a b c d   1        a b    2/3       trafilatura (a later revision says density)
    B     e f g h q r   e         2/7      exact  1         density
    C     i j k         i j k z   6/7      i j    4/5       justext (its extraction gone); a voided annotation
                                                            started from trafilatura does not count
    D     m n o p s     m n       4/7      exact  1         trafilatura and density (one annotation each)
"""

from __future__ import annotations

import json

import pytest
from workbench import EAGER, METRICS, NO_CONTENT, add_page, fingerprint, new_batch, page_data, sign_in

from webapp import create_app
from webapp.annotation.annotations import VOID
from webapp.annotation.gold import add_revision
from webapp.annotation.gold_markdown import views_of
from webapp.annotation.prefill import FIXED, RANDOM, draw
from webapp.crawl.choice import PipelineRequest, pipeline_config
from webapp.foundation.settings import settings_of
from webapp.models import Annotation, AnnotationRevision, Extraction, Page
from webapp.results.anchoring import Anchored, Prefilled, moved_from, movement, started_from, with_twins
from webapp.results.cache import CachedRow
from webapp.results.store import refresh_scores


def prefill(name: str, fp: str, basis: str = "best") -> dict:
    return {"prefill": {"source": "extractor", "name": name, "fingerprint": fp, "basis": basis}, "lines": []}


def annotate(session, page: Page, author: str, text: str, provenance: dict, status: str = "done") -> None:
    views = views_of(text=text).fields()
    annotation = Annotation(page_id=page.id, author=author, **views, page_type="article", status=status, version=1)
    session.add(annotation)
    session.flush()
    session.add(AnnotationRevision(annotation_id=annotation.id, version=1, **views, page_type="article",
                                   status="done",
                                   author=author, provenance=provenance))


@pytest.fixture
def anchored(session) -> dict[str, int]:
    batch = new_batch(session)
    traf, dens = fingerprint(session, "trafilatura"), fingerprint(session, "density")
    pages = {
        "A": add_page(session, "a.example", batch, "a b c d", {"trafilatura": "a b c d", "density": "a b"}),
        "B": add_page(session, "a.example", batch, "e f g h q r", {"trafilatura": "e", "density": "e f g h q r"}),
        "C": add_page(session, "a.example", batch, "i j k", {"trafilatura": "i j k z", "density": "i j"}),
        "D": add_page(session, "a.example", batch, "m n o p s", {"trafilatura": "m n", "density": "m n o p s"}),
    }
    first = {key: page.gold.revisions[0] for key, page in pages.items()}
    first["A"].provenance = prefill("trafilatura", traf)
    first["B"].provenance = prefill("density", dens)
    first["C"].provenance = prefill("justext", "justext|gone")
    first["D"].provenance = {"prefill": {"source": "consensus"}, "lines": []}
    later = add_revision(session, pages["A"], text="a b c d", page_type="article", status="done", author="ann")
    later.provenance = prefill("density", dens)  # not the first revision: A did not start from density
    add_revision(session, pages["B"], text="e f g h q r", page_type="article", status="done",
                 author="ann").provenance = {"prefill": {"source": "gold", "version": 1}, "lines": []}
    annotate(session, pages["D"], "Ann", "m n o p s", prefill("trafilatura", traf))
    annotate(session, pages["D"], "Bob", "m n o p s", prefill("density", dens))
    annotate(session, pages["C"], "Cid", "i j k", prefill("trafilatura", traf), status=VOID)
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    return {key: page.id for key, page in pages.items()}


TRAF = {"A": 1.0, "B": 2 / 7, "C": 6 / 7, "D": 4 / 7}
DENS = {"A": 2 / 3, "B": 1.0, "C": 0.8, "D": 1.0}


def mean(values: dict[str, float], keys: str) -> float:
    return sum(values[k] for k in keys) / len(keys)


def board(client, **args) -> dict:
    query = {"bootstrap": 0, "extractor": ["trafilatura", "density"], **args}
    response = client.get("/api/leaderboard", query_string=query)
    assert response.status_code == 200, response.data
    return response.get_json()


def test_the_split_shows_each_extractor_on_its_own_pages_and_on_the_others(client, anchored):
    data = board(client)
    assert data["unanchored"] is False and data["pages"] == 4
    assert data["extractors"]["trafilatura"]["f1"] == pytest.approx(mean(TRAF, "ABCD"))
    anchoring = data["anchoring"]
    assert anchoring["pages_started"] == 4  # C started from justext
    traf, dens = anchoring["split"]["trafilatura"], anchoring["split"]["density"]
    assert (traf["anchored"]["pages"], traf["other"]["pages"]) == (2, 2)
    assert traf["anchored"]["f1"] == pytest.approx(mean(TRAF, "AD"))  # 11/14
    assert traf["other"]["f1"] == pytest.approx(mean(TRAF, "BC"))  # 4/7
    assert traf["anchored"]["accuracy"] == pytest.approx(0.5) and traf["other"]["accuracy"] == pytest.approx(0.0)
    assert dens["anchored"]["pages"] == 2 and dens["anchored"]["f1"] == pytest.approx(1.0)  # B, D
    assert dens["other"]["f1"] == pytest.approx(mean(DENS, "AC"))  # 11/15


def test_unanchored_leaves_out_exactly_each_extractors_own_pages(client, anchored):
    data = board(client, unanchored=1)
    assert data["unanchored"] is True
    traf, dens = data["extractors"]["trafilatura"], data["extractors"]["density"]
    # trafilatura keeps B and C (A and D started from it); density keeps A and C (B and D started from it):
    # every other pair of pages gives another F1 (see the module's table)
    assert (traf["pages"], traf["left_out"], traf["f1"]) == (2, 2, pytest.approx(4 / 7))
    assert (dens["pages"], dens["left_out"], dens["f1"]) == (2, 2, pytest.approx(11 / 15))
    assert data["anchoring"]["split"]["trafilatura"]["other"]["f1"] == pytest.approx(traf["f1"])


def test_score_unanchored_on_the_command_line(runner, session, anchored):
    session.rollback()
    args = ["score", "--bootstrap", "0", "--extractor", "trafilatura", "--extractor", "density"]
    plain = json.loads(runner.invoke(args=[*args, "--format", "json"]).output)
    result = runner.invoke(args=[*args, "--unanchored", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert plain["extractors"]["trafilatura"]["pages"] == 4
    assert {name: (f["pages"], f["left_out"]) for name, f in data["extractors"].items()} == {
        "trafilatura": (2, 2), "density": (2, 2)}
    assert data["extractors"]["trafilatura"]["f1"] == pytest.approx(4 / 7)
    assert data["extractors"]["density"]["f1"] == pytest.approx(11 / 15)

    table = runner.invoke(args=[*args, "--unanchored"]).output
    assert "leaves out the pages whose gold started from its own text" in table
    assert "left_out" in table and "4 of 4 pages started from an extractor" in table

    refused = runner.invoke(args=[*args, "--unanchored", "--by", "site"])
    assert refused.exit_code == 2 and "--unanchored and --by cannot be combined" in refused.output


def test_the_unanchored_tiers_pair_each_extractor_with_the_best_on_pages_started_from_neither(client, anchored):
    tiers = board(client, unanchored=1, bootstrap=200)["tiers"]
    assert tiers["best"] == "density"
    assert tiers["extractors"]["trafilatura"]["pages"] == 1  # only C started from neither
    assert tiers["extractors"]["trafilatura"]["tied"]  # one page cannot separate them


def test_the_movement_from_the_prefill_per_source(client, session, anchored):
    moved = board(client)["anchoring"]["movement"]
    # A: trafilatura's text is the gold (0); D: Ann's annotation moved from "m n" to "m n o p s" (1 - 4/7);
    # B and Bob's annotation of D kept density's text (0); C's justext extraction is gone; the voided
    # annotation does not count
    assert moved["extractors"]["trafilatura"] == {"count": 2, "mean": pytest.approx(3 / 14),
                                                  "median": pytest.approx(3 / 14)}
    assert moved["extractors"]["density"] == {"count": 2, "mean": 0.0, "median": 0.0}
    assert moved["missing"] == {"justext": 1} and moved["missing_total"] == 1

    token = sign_in(client)  # A's gold edited: "a b" only; trafilatura's "a b c d" is now at F1 2/3 of it
    saved = client.post(f"/api/pages/{anchored['A']}/gold", headers={"X-CSRF-Token": token},
                        json={"text": "a b", "type": "article", "status": "done", "version": 2, "client_save_id": "m1"})
    assert saved.status_code == 200, saved.data
    moved = board(client)["anchoring"]["movement"]
    assert moved["extractors"]["trafilatura"]["mean"] == pytest.approx((1 / 3 + 3 / 7) / 2)


def test_the_leaderboard_page_shows_the_split_and_the_unanchored_option(client, anchored):
    html = client.get("/leaderboard", query_string={"bootstrap": 0}).get_data(as_text=True)
    assert 'id="anchoring-split"' in html and 'name="unanchored"' in html
    assert 'id="unanchored-notice"' not in html
    html = client.get("/leaderboard", query_string={"bootstrap": 0, "unanchored": 1}).get_data(as_text=True)
    assert 'id="unanchored-notice"' in html and "checked" in html
    assert "unanchored=1" in html  # the live table the page polls keeps the option
    row = html[html.index('<tr data-extractor="trafilatura">'):]
    assert '<td data-key="left_out" data-value="2">2</td>' in row[:row.index("</tr>")]


def row(page: int, fps: list[str], f1: list[float]) -> tuple[int, list[CachedRow]]:
    """An aligned page whose extractors (in `fps` order) have these per-page F1 as tokens counts."""
    def counts(value: float) -> dict:  # gold of 100 words, a precise extraction of round(100 * value) words
        hit = round(100 * value)
        return {"hit": hit, "extracted": hit, "gold": 100, "exact": hit == 100, "errored": False}
    return page, [CachedRow(page, fp, counts(v), "s", "article", 1, "ann") for fp, v in zip(fps, f1)]


def test_the_pure_split_and_unanchored_leaderboard_agree_with_a_hand_count():
    aligned = [row(1, ["x", "y"], [1.0, 0.9]), row(2, ["x", "y"], [0.5, 1.0]), row(3, ["x", "y"], [0.5, 0.5])]
    started = {1: frozenset({"x"}), 2: frozenset({"y", "x"})}
    board = Anchored.of_rows(METRICS["tokens"], aligned, ["x", "y"], started, "micro")
    parts = board.split()
    assert parts["x"]["anchored"]["pages"] == 2 and parts["x"]["other"]["pages"] == 1
    assert parts["x"]["anchored"]["recall"] == pytest.approx(0.75)  # (100 + 50) / 200
    assert parts["y"]["other"]["recall"] == pytest.approx(0.7)  # pages 1 and 3: (90 + 50) / 200
    figures = board.unanchored(bootstrap=0)
    assert (figures["x"]["pages"], figures["x"]["left_out"], figures["x"]["recall"]) == (1, 2, pytest.approx(0.5))
    assert (figures["y"]["pages"], figures["y"]["left_out"], figures["y"]["recall"]) == (2, 1, pytest.approx(0.7))
    assert board.tiers({"x": 0.5, "y": 0.7}, bootstrap=0) is None


def test_the_unanchored_spreads_come_from_the_leaderboards_resamples_restricted_to_each_rows_pages():
    # 40 pages: x perfect on the 20 pages started from it and at half elsewhere; y at 0.9 everywhere
    aligned = [row(p, ["x", "y"], [1.0 if p < 20 else 0.5, 0.9]) for p in range(40)]
    board = Anchored.of_rows(METRICS["tokens"], aligned, ["x", "y"], {p: frozenset({"x"}) for p in range(20)}, "micro")
    figures = board.unanchored(bootstrap=200)
    assert figures["x"]["recall"] == pytest.approx(0.5) and figures["x"]["recall_std"] == pytest.approx(0.0)
    assert figures["y"]["pages"] == 40 and figures["y"]["recall_std"] == pytest.approx(0.0)
    tiers = board.tiers({"x": figures["x"]["f1"], "y": figures["y"]["f1"]}, bootstrap=200)
    # y against x on the 20 pages started from neither: 0.9 against 0.5 on every resample
    assert tiers["best"] == "y" and tiers["extractors"]["x"]["pages"] == 20
    assert tiers["extractors"]["x"]["p_holm"] == pytest.approx(1 / 201) and tiers["separable"]


def test_the_movement_of_records_by_hand():
    tokens = METRICS["tokens"]
    a = Prefilled(1, "gold", 1, 3, "x", "fx")
    b = Prefilled(2, "annotation", 7, 1, "x", "fx")
    gone = Prefilled(3, "gold", 3, 1, "y", "fy")
    moved = {a.key: moved_from(tokens, "one two", "one two"), b.key: moved_from(tokens, "one", "one two three four"),
             gone.key: moved_from(tokens, None, "z")}
    found = movement([a, b, gone], moved)
    # b: precision 1, recall 1/4, F1 0.4: moved 0.6
    assert found["extractors"] == {"x": {"count": 2, "mean": pytest.approx(0.3), "median": pytest.approx(0.3)}}
    assert found["missing"] == {"y": 1}
    assert started_from([a, b, gone]) == {1: frozenset({"x"}), 2: frozenset({"x"}), 3: frozenset({"y"})}


def test_a_page_started_from_site_rules_shown_as_trafilatura_started_from_both():
    started = {1: frozenset({"site-rules"}), 2: frozenset({"trafilatura"}), 3: frozenset({"density"})}
    assert with_twins(started, {"site-rules": "trafilatura"}) == {
        1: frozenset({"site-rules", "trafilatura"}), 2: frozenset({"site-rules", "trafilatura"}),
        3: frozenset({"density"})}
    assert with_twins(started, {}) == started


# ---- PREFILL ----------------------------------------------------------------------------------------


def test_random_draws_are_the_same_for_an_annotator_and_page_and_vary_across_them():
    names = {"trafilatura", "density", "justext"}
    assert all(draw(7, "Ann", names) == draw(7, "Ann", set(names)) for _ in range(3))
    assert len({draw(7, f"annotator {n}", names) for n in range(30)}) == 3
    assert len({draw(page, "Ann", names) for page in range(30)}) == 3
    assert draw(7, "Ann", set()) is None


def candidate_page(session) -> Page:
    page = add_page(session, "r.example", new_batch(session), None,
                    {"trafilatura": "Trafilatura text", "density": "Density text", "justext": "Justext text",
                     "readability": ""})
    session.commit()
    return page


@pytest.mark.settings(PREFILL="random")
def test_prefill_random_in_the_annotate_view(client, session):
    page = candidate_page(session)
    usable = {"trafilatura", "density", "justext"}  # readability has no text: never drawn
    seen = set()
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"):
        sign_in(client, name)
        data = page_data(client.get(f"/pages/{page.id}"))
        expected = draw(page.id, name, usable)
        assert data["prefill"]["extractor"] == data["editor"]["prefilled_from"] == expected
        assert data["prefill"]["basis"] == RANDOM
        assert "drawn at random among the 3 candidates" in data["prefill"]["reason"]
        assert page_data(client.get(f"/pages/{page.id}"))["prefill"]["extractor"] == expected  # a reload: the same
        seen.add(expected)
    assert len(seen) > 1 and seen <= usable


@pytest.mark.settings(PREFILL="random")
def test_a_randomly_prefilled_save_records_its_basis_and_anchors_the_page_to_the_drawn_extractor(client, session):
    page = candidate_page(session)
    token = sign_in(client, "Ann")
    editor = page_data(client.get(f"/pages/{page.id}"))["editor"]
    drawn = draw(page.id, "Ann", {"trafilatura", "density", "justext"})
    expected = fingerprint(session, drawn)
    session.commit()  # let go of the database before the save (SQLite)
    assert editor["start"]["prefill"] == {"source": "extractor", "name": drawn, "basis": RANDOM,
                                          "fingerprint": expected}
    saved = client.post(f"/api/pages/{page.id}/gold", headers={"X-CSRF-Token": token},
                        json={"text": editor["text"], "type": "article", "status": "done", "version": 0,
                              "client_save_id": "r1", "provenance": editor["start"]})
    assert saved.status_code == 200, saved.data
    split = board(client, extractor=["trafilatura", "density", "justext"])["anchoring"]["split"]
    assert {name: parts["anchored"]["pages"] for name, parts in split.items()} == {
        name: int(name == drawn) for name in ("trafilatura", "density", "justext")}
    assert split[drawn]["anchored"]["f1"] == 1.0  # the untouched prefill is its extractor's exact match


@pytest.mark.settings(PREFILL="fixed")
def test_prefill_fixed_is_always_the_default(client, session):
    page = candidate_page(session)
    sign_in(client)
    data = page_data(client.get(f"/pages/{page.id}"))
    assert (data["prefill"]["extractor"], data["prefill"]["basis"]) == ("trafilatura", FIXED)
    assert data["editor"]["text"] == "Trafilatura text"
    assert data["prefill"]["reason"] == "prefilled from trafilatura, the default: PREFILL is fixed"


def test_an_unknown_prefill_mode_is_refused_at_start(tmp_path):
    with pytest.raises(ValueError, match="the setting PREFILL is 'best', not one of site-best, fixed, random"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "PREFILL": "best",
                    "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite'}"})


# ---- site-rules as its fallback (§3) -----------------------------------------------------------------


def rules_leaderboard(session, ruled: bool) -> None:
    """Six pages where trafilatura is exact and density poor; site-rules fell back to trafilatura on all,
    or used its rule on the first (`ruled`)."""
    batch = new_batch(session)
    for i in range(6):
        gold = f"word{i} alpha beta gamma delta epsilon"
        page = add_page(session, "rules.example", batch, gold, {"trafilatura": gold, "density": f"word{i}"})
        path = "rules" if ruled and i == 0 else "fallback"
        session.add(Extraction(page_id=page.id, extractor="site-rules", fingerprint=fingerprint(session, "site-rules"),
                               text=gold, meta={"path": path}, accepted=True))
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()


def test_site_rules_with_no_rule_applied_is_its_fallback_not_a_winner(client, session):
    rules_leaderboard(session, ruled=False)
    query = {"bootstrap": 200, "extractor": ["site-rules", "trafilatura", "density"]}
    data = client.get("/api/leaderboard", query_string=query).get_json()
    assert data["extractors"]["site-rules"]["f1"] == data["extractors"]["trafilatura"]["f1"] == 1.0
    assert data["same_as"] == {"site-rules": "trafilatura"}
    tiers = data["tiers"]
    assert tiers["best"] == "trafilatura" and tiers["separable"]  # the twin does not block the ★
    assert tiers["extractors"]["site-rules"]["same_as"] == "trafilatura"
    html = client.get("/leaderboard", query_string=query).get_data(as_text=True)
    twin = html[html.index('<tr data-extractor="site-rules">'):]
    twin = twin[:twin.index("</tr>")]
    assert "= trafilatura (no rule applied)" in twin and "★" not in twin and "not distinguishable" not in twin
    best = html[html.index('<tr data-extractor="trafilatura">'):]
    assert "★ best" in best[:best.index("</tr>")]
    assert html.index('<tr data-extractor="trafilatura">') < html.index('<tr data-extractor="site-rules">')

    session.rollback()
    verdict = client.application.test_cli_runner().invoke(
        args=["score", "--bootstrap", "200", "--extractor", "site-rules", "--extractor", "trafilatura",
              "--extractor", "density"]).output
    assert "site-rules = trafilatura (no rule applied on these pages" in verdict
    assert verdict.splitlines()[-1].startswith("best: trafilatura, separated from every other extractor")


@pytest.mark.parametrize(("ruled", "chosen"), [(False, "trafilatura"), (True, "site-rules")])
def test_the_crawl_chooses_site_rules_only_where_it_applied_a_rule(app, session, ruled, chosen):
    """Tied at F1 1.0 with trafilatura, site-rules (first by name) is the crawl's choice only where a rule
    made its text; where none did it is trafilatura itself, and the pipeline names trafilatura."""
    rules_leaderboard(session, ruled)
    settings = settings_of(app)
    with settings.shared.synced(session) as cache:
        config = pipeline_config(session, settings.registry, cache, PipelineRequest(by="type"), settings.run,
                                 settings.taxonomy.page_types)
    assert config["extractor"] == config["routes"]["article"]["extractor"] == chosen
    assert config["challenger"] == ("density" if chosen == "trafilatura" else "trafilatura")
    assert ("site-rules" in config["leaderboard"]["f1"]) is ruled


def test_site_rules_that_applied_a_rule_is_ranked_as_itself(client, session):
    rules_leaderboard(session, ruled=True)
    data = client.get("/api/leaderboard", query_string={
        "bootstrap": 200, "extractor": ["site-rules", "trafilatura", "density"]}).get_json()
    assert data["same_as"] == {}
    assert "same_as" not in data["tiers"]["extractors"]["site-rules"]
    assert not data["tiers"]["separable"]  # identical figures: the data cannot tell them apart
