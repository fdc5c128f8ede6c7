"""Control pages (annotation/control.py, usecases/control_pages.py, results/control_figures.py): a page with
known gold given blind to an annotator comes in her queue as any assigned page, the annotate view, the
queue, the history, the API and the reviewed list never show her its gold, her save goes to her own
annotation and leaves the gold as it was, and her answer is scored against the known gold in the
leaderboard's own metric, with an alert below CONTROL_ALERT_F1 on the lead's console."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from workbench import add_account, add_gold, log_in, make_page, page_data

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.annotation.annotations import save_annotation
from webapp.foundation.settings import settings_of
from webapp.models import Annotation, Gold, Page
from webapp.results.control_figures import control_scores
from webapp.usecases.assign import undo_assignment
from webapp.usecases.control_pages import end_control, give_control, make_control
from webapp.usecases.outcome import Actor, Refused

KNOWN = "alpha beta gamma delta"
ANSWER = "alpha beta gamma epsilon"  # 3 of 4 tokens each way: tokens P = R = F1 = 0.75
PREFILL = "alpha beta zeta"
RITA = Actor("rita", REVIEWER)


@pytest.fixture
def control(app, session):
    for name, role in (("ann", ANNOTATOR), ("bob", ANNOTATOR), ("rita", REVIEWER)):
        add_account(session, name, role)
    page = make_page(session, url="https://docs.example/known", candidates={"trafilatura": PREFILL})
    add_gold(session, page, text=KNOWN, page_type="documentation", status="done", author="benchmark")
    make_control(session, RITA, page.id)
    assert give_control(session, RITA, page.id, ("ann",)) == 1
    session.commit()
    client = app.test_client()
    return page.id, client, log_in(client, "ann")


@pytest.mark.parametrize("overlap", [1, pytest.param(2, marks=pytest.mark.settings(OVERLAP=2))])
def test_a_control_page_is_blind_to_its_annotator_and_her_save_leaves_the_gold(app, session, control, overlap):
    page_id, ann, token = control
    queue = ann.get("/").get_data(as_text=True)
    own = queue.split('id="own-queue"')[1].split("</section>")[0]
    assert f"/pages/{page_id}" in own and "assigned to you" in own
    row = queue.split(f"<td>{page_id}</td>")[-1].split("</tr>")[0]
    assert "benchmark" not in row and "documentation" not in row  # the queue lists it as to do
    view = ann.get(f"/pages/{page_id}")
    data = page_data(view)
    assert data["editor"]["text"] == PREFILL and data["editor"]["version"] == 0
    assert all(c["saved_scores"] == {} for c in data["candidates"])
    body = view.get_data(as_text=True)
    assert KNOWN not in body and "adjudicated-notice" not in body and "read-only-notice" not in body
    assert ("blind-notice" in body) == (overlap == 2)  # as on any page of that overlap
    assert KNOWN not in ann.get(f"/pages/{page_id}/history").get_data(as_text=True)
    assert ann.get(f"/api/pages/{page_id}/gold").json["text"] == ""  # no annotation of hers yet, not the gold
    assert ann.get(f"/api/pages/{page_id}/scores").json == {}
    saved = ann.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                     json={"text": ANSWER, "type": "article", "status": "done", "version": 0, "client_save_id": "a1"})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    session.expire_all()
    gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one()
    assert (gold.text, gold.version, gold.author) == (KNOWN, 1, "benchmark")
    assert session.scalars(select(Annotation.text).where(Annotation.author == "ann")).all() == [ANSWER]
    session.rollback()
    assert KNOWN not in ann.get("/reviewed").get_data(as_text=True)
    assert f"/pages/{page_id}" not in ann.get("/").get_data(as_text=True).split('id="own-queue"')[1].split(
        "</section>")[0]  # finished: out of her queue
    bob = app.test_client()
    log_in(bob, "bob")
    assert page_data(bob.get(f"/pages/{page_id}"))["editor"]["text"] == KNOWN  # everyone else sees the gold


def test_her_answer_is_scored_in_the_leaderboards_metric_with_an_alert_below_the_setting(app, session, control):
    page_id, ann, token = control
    ann.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
             json={"text": ANSWER, "type": "article", "status": "done", "version": 0, "client_save_id": "a1"})
    metric = settings_of(app).metrics["tokens"]
    scores = control_scores(session, metric, 0.8)
    assert scores["ann"]["f1"] == pytest.approx(0.75) and scores["ann"]["precision"] == pytest.approx(0.75)
    assert scores["ann"]["alert"] and scores["ann"]["given"] == 1 and scores["ann"]["scored"] == 1
    assert not control_scores(session, metric, 0.7)["ann"]["alert"]
    session.rollback()
    rita = app.test_client()
    log_in(rita, "rita")
    console = rita.get("/team").get_data(as_text=True)
    row = console.split('data-annotator="ann"')[1].split("</tr>")[0]
    assert "75.0% (1 of 1)" in row and "below 80.0%" in row


def test_control_pages_need_known_gold_and_an_annotator_who_has_not_seen_it(app, session, control):
    page_id, _, _ = control
    fresh = make_page(session).id
    for call, status in ((lambda: make_control(session, RITA, fresh), 409),
                         (lambda: make_control(session, RITA, page_id), 409),
                         (lambda: give_control(session, RITA, fresh, ("bob",)), 404),
                         (lambda: give_control(session, RITA, page_id, ("benchmark",)), 400),
                         (lambda: give_control(session, Actor("ann", ANNOTATOR), page_id, ("bob",)), 403)):
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.status == status
    session.rollback()
    save_annotation(session, session.get(Page, page_id), "rita", base_version=0, text=KNOWN, page_type="article",
                    status="done")
    with pytest.raises(Refused) as seen:
        give_control(session, RITA, page_id, ("rita",))
    assert seen.value.status == 409 and "rita has seen page" in seen.value.reason
    session.rollback()
    give_control(session, RITA, page_id, ("bob",))
    assert undo_assignment(session, RITA) == (1, 0)  # giving it is an assignment change, undone
    end_control(session, RITA, page_id)
    session.flush()
    assert not [a for a in session.get(Page, page_id).annotations]
    assert control_scores(session, settings_of(app).metrics["tokens"], 0.8) == {}
