"""The double-annotation workflow cannot be bypassed (OVERLAP 2): a page's places lock once full, restore
follows a save's rules, a reviewer never adjudicates their own annotation nor drafts, an admin voids an
annotation, automatic adjudication credits everyone who agreed, assignments name real users and can be
undone, and a gold text has a size limit. The API and the browser's forms call the same use case: where an
action has both, the test asserts the same outcome through each."""

from __future__ import annotations

import html
import json
from types import SimpleNamespace

import pytest
from sqlalchemy import select
from workbench import add_account, log_in, make_page, sign_in

from webapp.accounts.roles import ADMIN, ANNOTATOR, REVIEWER
from webapp.annotation.annotations import save_annotation
from webapp.models import Annotation, AnnotationRevision, Assignment, AuditEvent, Gold, GoldRevision, Page
from webapp.results.agreement_figures import corpus_agreement

pytestmark = pytest.mark.settings(OVERLAP=2)

TEXT_A = "The council met on Monday.\nIt approved the budget."
TEXT_B = "The council met on Monday.\nIt approved the new budget."


@pytest.fixture
def page_id(session):
    return make_page(session, url="https://news.example/council", candidates={"trafilatura": TEXT_A}).id


def client_of(app, name):
    client = app.test_client()
    return client, sign_in(client, name)


def save(client, token, page_id, text, version=0, save_id="s1", status="done"):
    body = {"text": text, "type": "article", "status": status, "version": version, "client_save_id": save_id}
    return client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})


def ann_and_bob(app, page_id, bob_text=TEXT_B, bob_status="done"):
    """Ann's and Bob's clients (each a (client, CSRF token) pair) once Ann saved TEXT_A, done, and Bob his
    text: the page's two places are theirs."""
    ann, bob = client_of(app, "Ann"), client_of(app, "Bob")
    save(*ann, page_id, TEXT_A)
    save(*bob, page_id, bob_text, status=bob_status)
    return ann, bob


def adjudicate(client, token, page_id, text, version=0):
    form = {"csrf_token": token, "version": str(version), "text": text, "type": "article", "status": "done",
            "note": ""}
    return client.post(f"/adjudication/{page_id}", data=form)


def notice(page: str) -> str:
    """The text of the annotate view's read-only notice."""
    return " ".join(html.unescape(page.split('id="read-only-notice">')[1].split("</p>")[0]).split())


def gold_of(session, page_id) -> SimpleNamespace | None:
    """The page's gold as it is now (text, version, author, note), read in a transaction of its own: the
    test's session lets go of SQLite's write lock for the next request."""
    session.expire_all()
    gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one_or_none()
    found = None if gold is None else SimpleNamespace(text=gold.text, version=gold.version, author=gold.author,
                                                      note=gold.note)
    session.rollback()
    return found


def test_restore_cannot_overwrite_adjudicated_gold_as_a_save_cannot(app, session, page_id):
    (ann, ann_token), _ = ann_and_bob(app, page_id)
    rita, rita_token = client_of(app, "Rita")
    assert adjudicate(rita, rita_token, page_id, TEXT_A).status_code == 302
    assert adjudicate(rita, rita_token, page_id, TEXT_B, version=1).status_code == 302
    first = session.scalars(select(GoldRevision.id).order_by(GoldRevision.id)).first()
    session.rollback()
    by_api = save(ann, ann_token, page_id, TEXT_A, version=2, save_id="late")
    by_form = ann.post(f"/pages/{page_id}/history/{first}/restore", data={"csrf_token": ann_token},
                       follow_redirects=True)
    assert by_api.status_code == 423
    assert by_api.json["message"] in html.unescape(by_form.get_data(as_text=True))  # the same rule said the same
    gold = gold_of(session, page_id)
    assert (gold.text, gold.version, gold.author) == (TEXT_B, 2, "Rita")
    assert session.scalars(select(AuditEvent.action).where(AuditEvent.action == "gold.restore")).all() == []


def test_a_third_persons_save_is_refused_once_the_places_are_full(app, session, page_id):
    ann_and_bob(app, page_id)
    cleo, cleo_token = client_of(app, "Cleo")
    refused = save(cleo, cleo_token, page_id, "my own idea", status="draft")
    assert refused.status_code == 423 and "places are taken" in refused.json["message"]
    assert session.scalars(select(Annotation.author).order_by(Annotation.id)).all() == ["Ann", "Bob"]
    session.rollback()
    view = cleo.get(f"/pages/{page_id}").get_data(as_text=True)
    assert notice(view) == refused.json["message"] + " The editor is read-only."
    assert 'id="save" class="primary" disabled' in view and 'placeholder="The gold as Markdown, one block per line." ' \
           'readonly' in view
    assert f"/adjudication/{page_id}" in cleo.get("/adjudication").get_data(as_text=True)  # still waiting for it


def test_identical_done_saves_are_adjudicated_although_an_outsider_tried(app, session, page_id):
    ann, ann_token = client_of(app, "Ann")
    bob, bob_token = client_of(app, "Bob")
    cleo, cleo_token = client_of(app, "Cleo")
    save(ann, ann_token, page_id, TEXT_A, status="draft")
    save(bob, bob_token, page_id, TEXT_B, status="draft")
    assert save(cleo, cleo_token, page_id, "a draft", status="draft").status_code == 423
    save(ann, ann_token, page_id, TEXT_A, version=1, save_id="s2")
    assert save(bob, bob_token, page_id, TEXT_A, version=1, save_id="s2").status_code == 200
    gold = gold_of(session, page_id)
    assert gold.text == TEXT_A and gold.note == "Adjudicated automatically: Ann and Bob agree exactly."


def test_a_reviewer_never_adjudicates_their_own_annotation(app, session, page_id):
    ann, ann_token = client_of(app, "Ann")
    rita, rita_token = client_of(app, "Rita")
    save(ann, ann_token, page_id, TEXT_A)
    save(rita, rita_token, page_id, TEXT_B)
    refused = adjudicate(rita, rita_token, page_id, TEXT_B)
    assert refused.status_code == 403 and "You annotated page" in refused.get_data(as_text=True)
    assert rita.get(f"/adjudication/{page_id}").status_code == 403  # nor sees the other's text while blind
    assert gold_of(session, page_id) is None
    sam, sam_token = client_of(app, "Sam")
    assert adjudicate(sam, sam_token, page_id, TEXT_B).status_code == 302
    assert gold_of(session, page_id).author == "Sam"


def test_a_page_whose_places_are_not_full_and_done_is_not_adjudicated(app, session, page_id):
    ann, ann_token = client_of(app, "Ann")
    bob, bob_token = client_of(app, "Bob")
    rita, rita_token = client_of(app, "Rita")
    save(ann, ann_token, page_id, TEXT_A, status="draft")
    refused = adjudicate(rita, rita_token, page_id, TEXT_A)
    assert refused.status_code == 409 and "not ready for adjudication" in refused.get_data(as_text=True)
    save(ann, ann_token, page_id, TEXT_A, version=1, save_id="s2")
    save(bob, bob_token, page_id, TEXT_B, status="draft")
    assert adjudicate(rita, rita_token, page_id, TEXT_A).status_code == 409
    assert f"/adjudication/{page_id}" not in rita.get("/adjudication").get_data(as_text=True)
    assert 'id="save-gold" disabled' in rita.get(f"/adjudication/{page_id}").get_data(as_text=True)
    assert gold_of(session, page_id) is None


def test_an_admin_voids_an_outsiders_annotation_kept_in_history_and_out_of_agreement(app, session, page_id):
    found = session.get(Page, page_id)
    for name, text, status in (("Ann", TEXT_A, "done"), ("Bob", TEXT_A, "done"), ("Cleo", "x y", "draft")):
        # from before
        save_annotation(session, found, name, base_version=0, text=text, page_type="article", status=status)
    session.commit()
    add_account(session, "Ada", ADMIN)
    add_account(session, "Rex", REVIEWER)
    rex = app.test_client()
    rex_token = log_in(rex, "Rex")
    assert rex.post(f"/adjudication/{page_id}/void", data={"csrf_token": rex_token, "author": "Cleo"}
                    ).status_code == 403  # admins only
    assert 'class="void-form"' not in rex.get(f"/adjudication/{page_id}").get_data(as_text=True)
    ada = app.test_client()
    token = log_in(ada, "Ada")
    assert 'class="void-form"' in ada.get(f"/adjudication/{page_id}").get_data(as_text=True)
    voided = ada.post(f"/adjudication/{page_id}/void", data={"csrf_token": token, "author": "Cleo"},
                      follow_redirects=True)
    assert "adjudicated automatically" in voided.get_data(as_text=True)
    session.expire_all()
    cleo = session.scalars(select(Annotation).where(Annotation.author == "Cleo")).one()
    history = session.scalars(select(AnnotationRevision).where(AnnotationRevision.annotation_id == cleo.id)
                              .order_by(AnnotationRevision.id)).all()
    assert [(r.text, r.status, r.author) for r in history] == [("x y", "draft", "Cleo"), ("x y", "void", "Ada")]
    event = session.scalars(select(AuditEvent).where(AuditEvent.action == "annotation.void")).one()
    assert (event.actor, event.target, event.detail["author"]) == ("Ada", f"page {page_id}", "Cleo")
    assert gold_of(session, page_id).text == TEXT_A  # Ann and Bob agree: their places were full and done
    agreement = corpus_agreement(session, None)
    assert (agreement["pages"], agreement["pairs"]) == (1, 1) and "Cleo" not in agreement["annotators"]
    session.rollback()
    again = ada.post(f"/adjudication/{page_id}/void", data={"csrf_token": token, "author": "Cleo"})
    assert again.status_code == 409


def test_a_voided_annotation_frees_its_place_and_its_annotator_cannot_save_it(app, session, page_id):
    _, (bob, bob_token) = ann_and_bob(app, page_id, bob_status="draft")
    cleo, cleo_token = client_of(app, "Cleo")
    admin, token = client_of(app, "Ada")  # local mode: everyone may do everything
    assert admin.post(f"/adjudication/{page_id}/void", data={"csrf_token": token, "author": "Bob"}
                      ).status_code == 302
    refused = save(bob, bob_token, page_id, TEXT_B, version=1, save_id="s2")
    assert refused.status_code == 423 and "voided by an admin" in refused.json["message"]
    assert save(cleo, cleo_token, page_id, TEXT_A).status_code == 200  # the place is free again
    assert gold_of(session, page_id).text == TEXT_A


def test_automatic_adjudication_credits_every_annotator_who_agreed(app, session, page_id, runner, tmp_path):
    (ann, _), (bob, _) = ann_and_bob(app, page_id, bob_text=TEXT_A + "\n")
    assert gold_of(session, page_id).author == "system"  # not Bob, whose save completed the places
    session.rollback()
    out = tmp_path / "out"
    assert runner.invoke(args=["export", "--format", "jsonl", "--out", str(out), "--without-html"]).exit_code == 0
    [line] = [json.loads(row) for row in (out / "pages.jsonl").read_text().splitlines()]
    assert line["annotators"] == ["Ann", "Bob"]  # the annotators who agreed, not the system
    card = (out / "README.md").read_text()
    assert "| Ann | 1 |" in card and "| Bob | 1 |" in card
    for client in (ann, bob):
        assert f"/pages/{page_id}" in client.get("/reviewed").get_data(as_text=True)


def test_an_annotators_editor_on_an_adjudicated_page_is_read_only_with_the_reason(app, session, page_id):
    (ann, _), _ = ann_and_bob(app, page_id, bob_text=TEXT_A)
    view = ann.get(f"/pages/{page_id}").get_data(as_text=True)
    assert 'id="adjudicated-notice">This page is adjudicated' in view and "so it is read-only" in view
    assert 'id="save" class="primary" disabled' in view and "block per line.\" readonly" in view


def test_assign_refuses_names_that_are_no_users_and_assignments_can_be_undone(app, session, runner):
    pages = [make_page(session, host="news.example") for _ in range(2)]
    ids = [p.id for p in pages]
    add_account(session, "ann", ANNOTATOR)
    add_account(session, "bob", ANNOTATOR)
    runner.invoke(args=["users", "disable", "bob"])
    for name, reason in (("nosuchuser", "No user is named 'nosuchuser'"), ("", "name is empty"),
                         (" ann ", "has spaces or control characters"), ("bob", "User 'bob' is disabled")):
        result = runner.invoke(args=["assign", "--site", "news.example", "--to", name])
        assert result.exit_code == 2 and reason in result.output, (name, result.output)
    assert session.scalars(select(Assignment)).all() == []
    session.rollback()
    assert "2 assignments made (ann)" in runner.invoke(args=["assign", "--to", "ann"]).output
    removed = runner.invoke(args=["assign", "--remove", "--to", "ann", "--site", "news.example"])
    assert removed.exit_code == 0 and "2 assignments removed (ann)" in removed.output
    assert session.scalars(select(Assignment)).all() == []
    session.rollback()
    runner.invoke(args=["assign", "--to", "ann"])
    client = app.test_client()
    token = log_in(client, "ann")
    assert 'class="hand-back"' in client.get("/").get_data(as_text=True)
    handed = client.post(f"/queue/assignments/{ids[0]}/hand-back", data={"csrf_token": token},
                         follow_redirects=True)
    assert f"Page {ids[0]} handed back" in handed.get_data(as_text=True)
    session.expire_all()
    assert session.scalars(select(Assignment.page_id)).all() == [ids[1]]
    actions = session.scalars(select(AuditEvent.action).where(AuditEvent.action.in_(("assign", "unassign")))
                              .order_by(AuditEvent.id)).all()
    assert actions == ["assign", "unassign", "assign", "unassign"]


@pytest.mark.settings(OVERLAP=1, GOLD_MAX_BYTES=1000)
def test_a_gold_text_over_the_size_limit_is_refused_and_never_stored(app, session, page_id):
    ann, token = client_of(app, "Ann")
    large = "é" * 501  # 1,002 bytes in UTF-8
    refused = save(ann, token, page_id, large)
    assert refused.status_code == 413 and "1,002 bytes; at most 1,000 (GOLD_MAX_BYTES)" in refused.json["message"]
    assert save(ann, token, page_id, "é" * 500).status_code == 200
    assert gold_of(session, page_id).text == "é" * 500
    session.rollback()
    assert adjudicate(ann, token, page_id, large, version=1).status_code == 413
    assert gold_of(session, page_id).version == 1


def test_disabling_a_user_frees_the_places_their_assignments_held_and_enabling_does_not_take_them_back(
        app, session, runner):
    """OVERLAP 2: Ann and Bob are assigned the page; Bob is disabled, and Cy may annotate it at once. Enabling
    Bob again gives him no assignment back (an admin assigns anew)."""
    page = make_page(session, host="news.example")
    page_id = page.id
    for name in ("ann", "bob", "cy"):
        add_account(session, name, ANNOTATOR)
    assert "2 assignments made" in runner.invoke(args=["assign", "--to", "ann", "--to", "bob"]).output
    cy = app.test_client()
    token = log_in(cy, "cy")
    assert save(cy, token, page_id, TEXT_A).status_code == 423  # both places are held

    result = runner.invoke(args=["users", "disable", "bob"])
    assert result.exit_code == 0 and "bob disabled; 1 assignment(s) removed" in result.output
    assert save(cy, token, page_id, TEXT_A).status_code == 200  # Bob's place is free
    session.rollback()
    assert runner.invoke(args=["users", "enable", "bob"]).exit_code == 0
    assert session.scalars(select(Assignment.author).order_by(Assignment.author)).all() == ["ann"]
    detail = session.scalars(select(AuditEvent.detail).where(AuditEvent.action == "user.disable")).one()
    assert detail == {"assignments_removed": 1}


def test_disabling_a_user_on_the_users_page_frees_their_places_and_says_so(app, session):
    add_account(session, "ada", ADMIN)
    bob = add_account(session, "bob", ANNOTATOR)
    page_id = make_page(session, host="news.example").id
    session.add(Assignment(page_id=page_id, author="bob"))
    session.commit()
    admin = app.test_client()
    token = log_in(admin, "ada")
    answer = admin.post(f"/users/{bob.id}/disabled", data={"csrf_token": token, "disabled": "on"},
                        follow_redirects=True)
    assert "bob&#39;s 1 assignment(s) were removed: their places are free for others." in answer.get_data(as_text=True)
    session.expire_all()
    assert session.scalars(select(Assignment)).all() == []
