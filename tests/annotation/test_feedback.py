"""Comments and requests for changes (usecases/feedback.py, annotation/comments.py), through the browser's
forms and on the database: a lead's request sends the annotator's annotation back to draft and into their
queue with the comment until they save again; blind annotation holds in every thread (an annotator never
reads a comment about another's work, nor the page's own comments before adjudication)."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from workbench import add_account, log_in, make_page

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.annotation.annotations import annotation_of
from webapp.annotation.comments import open_requests
from webapp.foundation.settings import settings_of
from webapp.models import Annotation, AuditEvent, Page, PageComment
from webapp.usecases.feedback import add_comment, request_changes
from webapp.usecases.outcome import Actor, Refused

pytestmark = pytest.mark.settings(OVERLAP=2)

ANN_TEXT = "The ferry leaves at nine.\nIt returns at five."
BOB_TEXT = "The ferry leaves at nine.\nTickets on board."
RITA = Actor("rita", REVIEWER)


def save(client, token, page_id, text, version, save_id, status="done"):
    body = {"text": text, "type": "article", "status": status, "version": version, "client_save_id": save_id}
    response = client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})
    assert response.status_code == 200, response.get_data(as_text=True)


@pytest.fixture
def team(app, session):
    for name, role in (("ann", ANNOTATOR), ("bob", ANNOTATOR), ("rita", REVIEWER)):
        add_account(session, name, role)
    page_id = make_page(session, url="https://ferry.example/t", candidates={"trafilatura": ANN_TEXT}).id
    clients = {}
    for name, text in (("ann", ANN_TEXT), ("bob", BOB_TEXT)):
        client = app.test_client()
        clients[name] = (client, log_in(client, name))
        save(*clients[name], page_id, text, 0, f"{name}-1")
    rita = app.test_client()
    clients["rita"] = (rita, log_in(rita, "rita"))
    return page_id, clients


def test_a_request_for_changes_sends_the_page_back_to_its_annotator_until_she_saves(app, session, team):
    page_id, clients = team
    rita, token = clients["rita"]
    sent = rita.post(f"/team/pages/{page_id}/changes",
                     data={"csrf_token": token, "annotator": "ann", "body": "Drop the <b>return</b> time."},
                     follow_redirects=True)
    assert sent.status_code == 200 and "Changes requested of ann" in sent.get_data(as_text=True)
    session.expire_all()
    assert annotation_of(session, page_id, "ann").status == "draft"
    assert annotation_of(session, page_id, "bob").status == "done"
    session.rollback()  # the test's session writes (BEGIN IMMEDIATE): it must not hold the lock
    ann, ann_token = clients["ann"]
    queue = ann.get("/").get_data(as_text=True)
    assert 'id="changes-requested"' in queue and "Drop the &lt;b&gt;return&lt;/b&gt; time." in queue
    assert f"/pages/{page_id}" in queue.split('id="own-queue"')[1]  # back in her own queue
    view = ann.get(f"/pages/{page_id}").get_data(as_text=True)
    assert "rita asks you to change your" in view and "<b>return</b>" not in view
    assert "changes-requested" not in clients["bob"][0].get("/").get_data(as_text=True)
    save(ann, ann_token, page_id, "The ferry leaves at nine.", 2, "ann-2")
    assert open_requests(session) == []
    assert "changes-requested" not in ann.get("/").get_data(as_text=True)


def test_only_a_lead_requests_changes_and_only_of_work_not_adjudicated(app, session, team):
    page_id, clients = team
    ann, token = clients["ann"]
    refused = ann.post(f"/team/pages/{page_id}/changes", data={"csrf_token": token, "annotator": "bob", "body": "x"})
    assert refused.status_code == 403
    no_csrf = clients["rita"][0].post(f"/team/pages/{page_id}/changes", data={"annotator": "ann", "body": "x"})
    assert no_csrf.status_code == 400
    settings = settings_of(app)
    for annotator, body, status in (("cleo", "Redo it.", 409), ("ann", "   ", 400)):
        with pytest.raises(Refused) as error:
            request_changes(session, settings, RITA, page_id, annotator, body)
        assert error.value.status == status
    session.rollback()
    assert session.scalars(select(PageComment)).all() == []
    assert {a.status for a in session.scalars(select(Annotation))} == {"done"}


def test_blind_threads_an_annotator_reads_only_what_is_about_her_own_work(app, session, team):
    page_id, clients = team
    settings = settings_of(app)
    add_comment(session, settings, RITA, page_id, "Bob kept the tickets line.", line="Tickets on board.",
                about="bob")
    add_comment(session, settings, RITA, page_id, "Is the schedule main content?")
    add_comment(session, settings, RITA, page_id, "Ann: good start.", about="ann")
    session.commit()
    ann, token = clients["ann"]
    thread = ann.get(f"/pages/{page_id}/comments").get_data(as_text=True)
    assert "Ann: good start." in thread
    assert "Tickets on board." not in thread and "Bob kept" not in thread and "schedule" not in thread
    assert 'name="about" value="ann"' in thread  # she replies about her own work only
    reply = ann.post(f"/team/pages/{page_id}/comments", data={"csrf_token": token, "body": "Thanks!", "about": "ann"})
    assert reply.status_code == 302
    for about, status in (("", 403), ("bob", 403)):
        sneaky = ann.post(f"/team/pages/{page_id}/comments", data={"csrf_token": token, "body": "x", "about": about})
        assert sneaky.status_code == status
    lead_view = clients["rita"][0].get(f"/pages/{page_id}/comments").get_data(as_text=True)
    for text in ("Bob kept", "schedule", "Thanks!", "Tickets on board."):
        assert text in lead_view
    assert 'id="disputed"' in lead_view and "It returns at five." in lead_view  # the disputed lines, for a lead

    page = session.get(Page, page_id)  # adjudicated: the page's own comments open to her, bob's stay closed
    from webapp.annotation.gold import add_revision
    add_revision(session, page, text=ANN_TEXT, page_type="article", status="done", author="rita")
    session.commit()
    thread = ann.get(f"/pages/{page_id}/comments").get_data(as_text=True)
    assert "schedule" in thread and "Bob kept" not in thread and "Tickets on board." not in thread
    assert session.scalars(select(AuditEvent.action).where(AuditEvent.action == "comment")).all() == ["comment"] * 4


@pytest.mark.settings(OVERLAP=1)
def test_with_overlap_1_a_request_sends_the_gold_she_saved_back_to_draft(app, session):
    add_account(session, "ann", ANNOTATOR)
    page_id = make_page(session, candidates={"trafilatura": ANN_TEXT}).id
    ann = app.test_client()
    token = log_in(ann, "ann")
    save(ann, token, page_id, ANN_TEXT, 0, "a1")
    settings = settings_of(app)
    with pytest.raises(Refused) as refused:
        request_changes(session, settings, RITA, page_id, "bob", "Not his.")
    assert refused.value.status == 409
    request_changes(session, settings, RITA, page_id, "ann", "Take out the return time.")
    session.commit()
    gold = session.get(Page, page_id).gold
    assert (gold.status, gold.version, gold.text) == ("draft", 2, ANN_TEXT)
    assert [r.annotator for r in open_requests(session)] == ["ann"]
    session.rollback()
    assert "Take out the return time." in ann.get("/").get_data(as_text=True)
    save(ann, token, page_id, "The ferry leaves at nine.", 2, "a2")
    assert open_requests(session) == []
