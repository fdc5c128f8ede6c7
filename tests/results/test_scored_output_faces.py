"""Every face reads the output scored for a page (extractors/scored_output.py): once a reviewer chooses to score a
captured page's rendering in Chromium, the leaderboard (tests/results/test_scored_rendering.py) and the CLI's
figures, the drill-down (an extractor's pages and the head-to-head's texts), the annotate view's candidates and
prefill, the exports' predictions, the API's structure tests, the checks and the disagreement all read each
extractor's output on the rendering, not on the raw response."""

from __future__ import annotations

import json

import pytest
from rendered_shell import ARTICLE, GOLD, MENU, captured_shell, score_rendering
from workbench import page_data, sign_in

from webapp.annotation.disagreement import refresh_disagreement
from webapp.models import Page


@pytest.fixture
def scored_shell(app, session):
    page_id = captured_shell(session, ("trafilatura", "html-text"))
    score_rendering(app, session, page_id)
    return page_id


def test_the_cli_figures_score_the_rendering(cli, scored_shell):
    board = json.loads(cli("score", "--extractor", "trafilatura", "--bootstrap", "0", "--format", "json"))
    assert board["extractors"]["trafilatura"]["f1"] == pytest.approx(1.0)


def test_the_drill_down_lists_the_page_with_its_score_on_the_rendering(client, scored_shell):
    rows = client.get("/api/leaderboard/pages", query_string={"extractor": "trafilatura"}).get_json()["rows"]
    assert [(row["page_id"], row["f1"]) for row in rows] == [(scored_shell, pytest.approx(1.0))]


def test_the_head_to_head_shows_the_texts_on_the_rendering(client, scored_shell):
    found = client.get("/api/compare", query_string={"a": "trafilatura", "b": "html-text", "bootstrap": 0}).get_json()
    change = next(c for c in found["changed"] if c["page_id"] == scored_shell)
    assert change["text_a"] == GOLD and change["text_b"] == f"{MENU}\n{ARTICLE[0]}"


def test_the_annotate_view_offers_the_output_scored_first_and_the_raw_one_beside_it(client, scored_shell):
    sign_in(client)
    candidates = {c["name"]: c for c in page_data(client.get(f"/pages/{scored_shell}"))["candidates"]}
    assert candidates["trafilatura"]["text"] == GOLD and candidates["trafilatura"]["on_rendering"]
    assert candidates["trafilatura"]["saved_scores"]["tokens"]["f1"] == pytest.approx(1.0)
    assert candidates["trafilatura on the raw response"]["text"] == MENU
    assert "trafilatura on the rendering" not in candidates


def test_the_prefill_starts_from_the_output_on_the_rendering(app, client, session):
    page_id = captured_shell(session, gold=False)
    score_rendering(app, session, page_id)
    sign_in(client)
    editor = page_data(client.get(f"/pages/{page_id}"))["editor"]
    assert editor["prefilled_from"] == "trafilatura" and ARTICLE[1] in editor["text"] and MENU not in editor["text"]


def test_the_exported_predictions_are_the_outputs_on_the_rendering(cli, scored_shell, tmp_path):
    out = tmp_path / "bench"
    cli("export", "--format", "scrapinghub", "--out", out, "--predictions")
    written = json.loads((out / "output" / "trafilatura.json").read_text())
    assert [entry["articleBody"] for entry in written.values()] == [GOLD]


def test_the_api_runs_the_structure_tests_on_the_rendering(client, scored_shell):
    tests = client.get(f"/api/pages/{scored_shell}/structure-tests",
                       query_string={"extractor": "trafilatura"}).get_json()["tests"]
    assert tests and all(test["passed"]["trafilatura"] for test in tests)


def test_the_checks_read_the_outputs_and_the_words_of_the_rendering(app, runner, session):
    page_id = captured_shell(session)
    checked = json.loads(runner.invoke(args=["check", "--page", str(page_id), "--format", "json"]).output)
    assert {"low-scores", "unknown-words"} <= set(_reasons(checked, page_id))  # the raw response: the menu only
    score_rendering(app, session, page_id)
    session.rollback()
    checked = json.loads(runner.invoke(args=["check", "--page", str(page_id), "--format", "json"]).output)
    assert not {"low-scores", "unknown-words"} & set(_reasons(checked, page_id))


def test_the_disagreement_the_queue_sorts_by_is_between_the_outputs_on_the_rendering(app, session):
    page_id = captured_shell(session, ("trafilatura", "html-text"))
    refresh_disagreement(session, [page_id])
    session.commit()
    session.expire_all()
    assert session.get(Page, page_id).disagreement == pytest.approx(1.0)  # mean F1 between them: the same menu
    score_rendering(app, session, page_id)
    session.expire_all()
    assert session.get(Page, page_id).disagreement < 0.8


def _reasons(checked, page_id: int) -> dict[str, str]:
    return {check: reason for failed in checked["failing"] if failed["page_id"] == page_id
            for check, reason in zip(failed["checks"], failed["reasons"])}
