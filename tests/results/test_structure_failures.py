"""A page's failing structure tests reach the drill-down: the page's scores (GET /api/pages/ID/scores, the
annotate view's candidates) list them beside the page's pass rate, as its cached counts hold them."""

from __future__ import annotations

from sqlalchemy import select
from workbench import add_gold, make_page

from webapp.models import Extraction, Gold, Score
from webapp.results.leaderboard_figures import page_scores
from webapp.scoring.structure_metric import METRIC

GOLD = "# Guide\n\n## Install\n\n- pip\n- conda\n"
FLAT = "Guide\n\nInstall\n\npip conda\n"


def test_the_page_scores_list_the_failing_structure_tests(session):
    page = make_page(session, candidates={"trafilatura": "Guide Install pip conda"})
    add_gold(session, page, text="Guide Install pip conda", page_type="article", status="done", author="Ann")
    gold = session.scalars(select(Gold).where(Gold.page_id == page.id)).one()
    extraction = session.scalars(select(Extraction).where(Extraction.page_id == page.id)).one()
    session.add(Score(extraction_id=extraction.id, page_id=page.id, metric=METRIC.name,
                      metric_version=METRIC.version, gold_version=gold.version, counts=METRIC.counts(FLAT, GOLD)))
    session.flush()

    scores = page_scores(session, {METRIC.name: METRIC}, page.id)[extraction.fingerprint]["metrics"][METRIC.name]
    # two headings lost their level, the list its items; the order of the two sections holds
    assert scores["f1"] == 1 / 4
    assert scores["failed"] == [
        {"id": "heading-1", "kind": "heading", "description": "heading level 1 'Guide'"},
        {"id": "heading-2", "kind": "heading", "description": "heading level 2 'Install'"},
        {"id": "list-1", "kind": "list", "description": "list of 2 items from 'pip'"},
    ]
