"""The lead's console's progress per annotator (results/progress_figures.py), against figures computed by
hand: open assignments, pages done and in draft, active time, median and pace from the efforts their saves
recorded, and the tokens F1 of their finished annotations against the adjudicated gold."""

from __future__ import annotations

import pytest
from workbench import make_page

from webapp.annotation.annotations import save_annotation
from webapp.annotation.review import adjudicate
from webapp.models import Assignment, Page
from webapp.results.progress_figures import progress


def annotate(session, page_id, name, text, status, seconds):
    save_annotation(session, session.get(Page, page_id), name, base_version=0, text=text, page_type="article",
                    status=status, effort={"active_seconds": seconds, "actions": {}})


def test_progress_per_annotator_against_hand_computed_figures(session):
    first, second, third = (make_page(session).id for _ in range(3))
    annotate(session, first, "ann", "alpha beta gamma delta", "done", 120.0)
    annotate(session, first, "bob", "alpha beta gamma", "done", 30.0)
    adjudicate(session, session.get(Page, first), "rita", base_version=0, text="alpha beta gamma delta",
               page_type="article", status="done", note="", effort={"active_seconds": 45.0, "actions": {}})
    annotate(session, second, "ann", "draft words", "draft", 60.0)
    session.add(Assignment(page_id=third, author="ann"))
    session.add(Assignment(page_id=first, author="bob"))  # finished: not open
    session.flush()
    found = progress(session, ["ann", "bob", "cleo"], overlap=2)
    assert list(found) == ["ann", "bob", "cleo"]
    assert found["ann"] == {"assigned": 1, "done": 1, "drafts": 1, "seconds": 180.0, "median_seconds": 90.0,
                            "pages_per_hour": 40.0, "adjudicated": 1, "f1_vs_gold": 1.0}
    assert found["bob"]["f1_vs_gold"] == pytest.approx(2 * 0.75 / 1.75)  # P 3/3, R 3/4
    assert (found["bob"]["assigned"], found["bob"]["pages_per_hour"]) == (0, 120.0)
    assert found["cleo"] == {"assigned": 0, "done": 0, "drafts": 0, "seconds": 0.0, "median_seconds": None,
                             "pages_per_hour": None, "adjudicated": 0, "f1_vs_gold": None}
    assert "rita" not in found  # the reviewer's gold (and the time it took) is no annotator's work with overlap 2
