"""Guidelines: the shipped text of each default type, safe rendering, admins' versioned and audited edits,
annotators refused, the version in force recorded on every revision (annotate saves, own annotations,
adjudication), shown in the history, carried in the jsonl export, and agreement split by it."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select
from workbench import add_account, log_in, make_page, sign_in

from webapp.foundation.vocabulary import DEFAULT_TAXONOMY
from webapp.models import AnnotationRevision, AuditEvent, GoldRevision, Guideline
from webapp.results.agreement_figures import corpus_agreement
from webapp.web.security import app_csp

HOSTILE = {
    "script": ("<script>alert('guideline')</script>", "<script>alert("),
    "raw image": ('<img src="https://tracker.example/p.png" onerror="alert(1)">', "<img"),
    "javascript link": ("[read this](javascript:alert(1))", 'href="javascript:'),
    "javascript link, mixed case": ("[read this](JaVaScRiPt:alert(1))", 'href="JaVaScRiPt:'),
    "data link": ("[read this](data:text/html;base64,PHNjcmlwdD4=)", 'href="data:'),
    "remote image": ("![pixel](https://tracker.example/p.png)", "<img"),
}


def admin_client(app, session, name="Ada"):
    add_account(session, name, "admin")
    client = app.test_client()
    return client, log_in(client, name)


def edit(client, token, page_type, text, base, note=""):
    return client.post(f"/guidelines/{page_type}", data={"csrf_token": token, "text": text, "base": base, "note": note})


def save(client, token, page_id, page_type="forum", version=0, save_id="s1", **extra):
    body = {"text": "Title\nFirst reply", "type": page_type, "status": "done", "version": version,
            "client_save_id": save_id, **extra}
    return client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})


@pytest.mark.parametrize("page_type", DEFAULT_TAXONOMY.page_types)
def test_every_default_type_ships_a_guideline_in_force_as_version_1(client, page_type):
    sign_in(client)
    shown = client.get(f"/guidelines/{page_type}").get_data(as_text=True)
    assert "Version 1 by goldtext" in shown and "(shipped with Goldtext)" in shown
    text = shown.split('id="guideline-text">')[1].split("</article>")[0]
    assert "<h1>" in text and len(re.sub(r"<[^>]+>", "", text).split()) > 40


@pytest.mark.parametrize(("page_type", "words"), [
    ("forum", ["title", "every reply"]), ("listing", ["filters"]), ("product", ["specifications", "reviews"]),
    ("documentation", ["navigation", "code"]), ("service", ["calls to action"]),
])
def test_the_shipped_guidelines_say_what_the_trial_found_was_policy(client, page_type, words):
    sign_in(client)
    shown = client.get(f"/guidelines/{page_type}").get_data(as_text=True).lower()
    assert all(word in shown for word in words)


@pytest.mark.parametrize("case", HOSTILE)
def test_a_guideline_renders_inert_in_its_page_and_beside_the_editor(app, session, case):
    written, unsafe = HOSTILE[case]
    client, token = admin_client(app, session)
    assert edit(client, token, "forum", f"# Forum\n\n{written}\n", 1).status_code == 302
    page_id = make_page(session).id
    for path in ("/guidelines/forum", f"/pages/{page_id}"):
        response = client.get(path)
        body = response.get_data(as_text=True)
        assert unsafe not in body, path
        assert "tracker.example/p.png" not in body or "<img" not in body
        nonce = re.search(r"'nonce-([^']+)'", response.headers["Content-Security-Policy"]).group(1)
        assert response.headers["Content-Security-Policy"] == app_csp(nonce)  # as strict as every page's
    assert "&lt;script&gt;" in client.get("/guidelines/forum").get_data(as_text=True) or case != "script"


def test_safe_links_stay_links_opened_without_referrer(app, session):
    client, token = admin_client(app, session)
    edit(client, token, "forum", "See [the benchmark](https://example.org/wcxb) and [queue](/queue).", 1)
    body = client.get("/guidelines/forum").get_data(as_text=True)
    assert '<a href="https://example.org/wcxb" rel="noopener noreferrer nofollow">the benchmark</a>' in body
    assert '<a href="/queue" rel="noopener noreferrer nofollow">queue</a>' in body


def test_each_admin_save_is_a_new_version_kept_in_the_history_and_the_audit_log(app, session):
    client, token = admin_client(app, session)
    first = edit(client, token, "forum", "# Forum\n\nKeep the title and every reply.", 1, "replies are content")
    assert first.status_code == 302
    assert edit(client, token, "forum", "# Forum\n\nKeep the title, the replies and their dates.", 2).status_code == 302
    rows = session.execute(select(Guideline.version, Guideline.author, Guideline.note)
                           .where(Guideline.page_type == "forum").order_by(Guideline.version)).all()
    assert [tuple(r) for r in rows] == [(1, "goldtext", None), (2, "Ada", "replies are content"), (3, "Ada", None)]
    history = client.get("/guidelines/forum/history").get_data(as_text=True)
    assert re.findall(r"<td>(\d)(?: \(in force\))?</td>", history) == ["3", "2", "1"]
    assert "3 (in force)" in history and "replies are content" in history
    old = client.get("/guidelines/forum?version=2").get_data(as_text=True)
    assert "every reply" in old and "Not the version in force" in old
    assert "their dates" in client.get("/guidelines/forum").get_data(as_text=True)
    assert client.get("/guidelines/forum?version=9").status_code == 404
    events = session.execute(select(AuditEvent.actor, AuditEvent.action, AuditEvent.target, AuditEvent.detail)
                             .where(AuditEvent.action == "guideline.save").order_by(AuditEvent.id)).all()
    assert [tuple(e) for e in events] == [
        ("Ada", "guideline.save", "guideline forum", {"version": 2, "note": "replies are content"}),
        ("Ada", "guideline.save", "guideline forum", {"version": 3, "note": None}),
    ]


def test_an_edit_from_an_older_version_is_refused_and_the_admins_text_shown_back(app, session):
    client, token = admin_client(app, session)
    edit(client, token, "forum", "Version two.", 1)
    late = edit(client, token, "forum", "My careful rewrite.", 1)
    assert late.status_code == 409
    body = late.get_data(as_text=True)
    assert "version 2 now, not 1" in body and "My careful rewrite." in body
    assert session.scalar(select(Guideline.version).where(Guideline.text.contains("careful"))) is None
    session.rollback()
    assert edit(client, token, "forum", "   ", 2).status_code == 400


@pytest.mark.parametrize("role", ["annotator", "reviewer"])
def test_only_admins_edit_guidelines(app, session, role):
    add_account(session, "Ann", role)
    client = app.test_client()
    token = log_in(client, "Ann")
    assert client.get("/guidelines/forum").status_code == 200
    assert 'id="edit-guideline"' not in client.get("/guidelines/forum").get_data(as_text=True)
    assert client.get("/guidelines/forum/edit").status_code == 403
    assert edit(client, token, "forum", "Keep nothing.", 1).status_code == 403
    assert session.scalar(select(Guideline.id)) is None


def test_an_edit_without_the_csrf_token_is_refused(app, session):
    client, _ = admin_client(app, session)
    response = client.post("/guidelines/forum", data={"text": "Keep nothing.", "base": "1"})
    assert response.status_code == 400 and session.scalar(select(Guideline.id)) is None


def test_revisions_record_the_version_in_force_for_their_type_whatever_the_client_says(app, session):
    page_id = make_page(session).id
    client, token = admin_client(app, session)
    assert save(client, token, page_id).status_code == 200
    edit(client, token, "forum", "# Forum\n\nKeep the title and every reply.", 1)
    assert save(client, token, page_id, version=1, save_id="s2", guideline_version=99).status_code == 200
    assert save(client, token, page_id, page_type="product", version=2, save_id="s3").status_code == 200
    assert save(client, token, page_id, version=1, save_id="s4").status_code == 409  # a stale save records it too
    rows = session.execute(select(GoldRevision.page_type,
                                  GoldRevision.guideline_version).order_by(GoldRevision.id)).all()
    assert [tuple(r) for r in rows] == [("forum", 1), ("forum", 2), ("product", 1), ("forum", 2)]
    first = session.scalars(select(GoldRevision.id).order_by(GoldRevision.id)).first()
    session.rollback()
    restored = client.post(f"/pages/{page_id}/history/{first}/restore", data={"csrf_token": token})
    assert restored.status_code == 302
    newest = session.scalars(select(GoldRevision).order_by(GoldRevision.id.desc())).first()
    assert (newest.page_type, newest.guideline_version) == ("forum", 2)  # restored under the version in force now
    session.rollback()
    history = client.get(f"/pages/{page_id}/history").get_data(as_text=True)
    assert 'href="/guidelines/forum?version=2">v2</a>' in history
    assert 'href="/guidelines/product?version=1">v1</a>' in history


def test_the_shipped_text_is_stored_as_version_1_when_a_revision_first_refers_to_it(app, session):
    page_id = make_page(session).id
    client = app.test_client()
    token = sign_in(client)
    client.get("/guidelines/forum")
    assert session.scalar(select(Guideline.id)) is None  # reading stores nothing
    session.rollback()
    assert save(client, token, page_id).status_code == 200
    stored = session.scalars(select(Guideline)).one()
    assert (stored.page_type, stored.version, stored.author) == ("forum", 1, "goldtext")
    assert "every reply" in stored.text


@pytest.mark.settings(PAGE_TYPES=["article", "recipe"], NO_CONTENT_TYPES=[], GUARD_ACCEPT_TYPES=["article"])
def test_a_type_without_a_guideline_says_so_and_an_admin_writes_one(app, session):
    page_id = make_page(session).id
    client, token = admin_client(app, session)
    index = client.get("/guidelines").get_data(as_text=True)
    row = index.split('data-type="recipe"')[1].split("</tr>")[0]
    assert "no guideline yet" in row and "Write one" in row
    assert "No guideline yet for recipe" in client.get(f"/pages/{page_id}").get_data(as_text=True)
    assert save(client, token, page_id, page_type="recipe").status_code == 200
    assert edit(client, token, "recipe", "# Recipe\n\nKeep the ingredients and the steps.", "").status_code == 302
    assert save(client, token, page_id, page_type="recipe", version=1, save_id="s2").status_code == 200
    versions = list(session.scalars(select(GoldRevision.guideline_version).order_by(GoldRevision.id)))
    assert versions == [None, 1]
    assert client.get("/guidelines/forum").status_code == 404  # not a type of this taxonomy


@pytest.mark.settings(OVERLAP=2)
def test_own_annotations_and_adjudication_record_the_version_and_agreement_splits_by_it(app, session, tmp_path,
                                                                                        runner):
    first, second = make_page(session).id, make_page(session).id
    clients = {}
    for name in ("Ann", "Bob", "Rita"):
        clients[name] = app.test_client()
        clients[name] = (clients[name], sign_in(clients[name], name))
    for name in ("Ann", "Bob"):
        save(*clients[name], first)
    edit(*clients["Rita"], "forum", "# Forum\n\nTitles are not content.", 1)
    for name in ("Ann", "Bob"):
        save(*clients[name], second, save_id="s2")
    rows = session.execute(select(AnnotationRevision.author, AnnotationRevision.guideline_version)
                           .order_by(AnnotationRevision.id)).all()
    assert [tuple(r) for r in rows] == [("Ann", 1), ("Bob", 1), ("Ann", 2), ("Bob", 2)]
    session.rollback()
    groups = corpus_agreement(session, "guideline")["groups"]
    assert set(groups) == {"forum v1", "forum v2"} and groups["forum v2"]["pages"] == 1
    session.rollback()
    page = clients["Rita"][0].get("/agreement?by=guideline").get_data(as_text=True)
    assert "forum v1" in page and "forum v2" in page
    rev, token = clients["Rita"]
    form = {"csrf_token": token, "version": "1", "text": "Only replies", "type": "forum", "status": "done",
            "note": ""}
    assert rev.post(f"/adjudication/{first}", data=form).status_code == 302
    session.rollback()
    latest = session.scalars(select(GoldRevision).order_by(GoldRevision.id.desc())).first()
    assert (latest.author, latest.guideline_version) == ("Rita", 2)
    session.rollback()
    out = tmp_path / "export"
    result = runner.invoke(args=["export", "--format", "jsonl", "--out", str(out), "--without-html"])
    assert result.exit_code == 0, result.output
    records = {r["id"]: r for r in map(json.loads, (out / "pages.jsonl").read_text().splitlines())}
    assert records[first]["guideline_version"] == 2
    assert [a["guideline_version"] for a in records[first]["annotations"]] == [1, 1]
    assert [a["guideline_version"] for a in records[second]["annotations"]] == [2, 2]
    assert records[second]["guideline_version"] == 2  # identical annotations: adjudicated automatically



def test_the_guidelines_go_out_as_markdown_files_and_come_back_as_new_versions(app, session, runner, tmp_path):
    folder = tmp_path / "guidelines"
    result = runner.invoke(args=["guidelines", "export", str(folder)])
    assert result.exit_code == 0, result.output
    assert sorted(p.stem for p in folder.glob("*.md")) == sorted(DEFAULT_TAXONOMY.page_types)
    assert "every reply" in (folder / "forum.md").read_text()
    (folder / "forum.md").write_text("# Forum\n\nTitles are not content.\n")
    result = runner.invoke(args=["guidelines", "import", str(folder), "--note", "from the policy repo"])
    assert result.exit_code == 0, result.output
    assert "forum: version 2" in result.output and "article: unchanged (version 1)" in result.output
    rows = session.execute(select(Guideline.page_type, Guideline.version, Guideline.note).order_by(Guideline.id)).all()
    assert [tuple(r) for r in rows] == [("forum", 1, None), ("forum", 2, "from the policy repo")]
    event = session.scalars(select(AuditEvent).where(AuditEvent.action == "guideline.save")).one()
    assert event.actor.startswith("cli:") and event.detail["version"] == 2
    session.rollback()
    (folder / "recipe.md").write_text("# Recipe\n")
    (folder / "product.md").write_text("# Product\n\nChanged.\n")
    refused = runner.invoke(args=["guidelines", "import", str(folder)])
    assert refused.exit_code != 0 and "recipe.md: no page type of that name" in refused.output
    assert session.scalar(select(Guideline.id).where(Guideline.page_type == "product")) is None  # nothing saved
