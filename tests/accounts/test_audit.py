"""The audit log: every state change appended with who, when, what and from where, read and exported by
admins, and never updated or deleted."""

from __future__ import annotations

import csv
import io
import json
import unicodedata

import pytest
from sqlalchemy import delete, select, text, update
from sqlalchemy.exc import DBAPIError
from workbench import PASSWORD, add_account, csrf, gold_before_accounts, log_in, make_page

from webapp.accounts import audit_log
from webapp.accounts.credentials import TOKEN, issue
from webapp.accounts.roles import ADMIN, ANNOTATOR, REVIEWER
from webapp.cli.actor import cli_actor
from webapp.models import AuditEvent, GoldRevision, ImportBatch, Job, SiteRule

SAVE = {"text": "Gold", "type": "article", "status": "done", "version": 0, "client_save_id": "a1"}
CHECKS = ("system:checks", "check", "system")
"""The checks that follow a change of gold, queued and audited by the system (usecases/follow_up_checks.py)."""
PAGE = b"<html><body><article><p>An article about the quay and the ferries.</p></article></body></html>"


def logged(session) -> list[tuple[str, str, str]]:
    """(actor, action, address) of every event, oldest first."""
    found = [(e.actor, e.action, e.address) for e in session.scalars(select(AuditEvent).order_by(AuditEvent.id))]
    session.rollback()
    return found


def test_every_browser_action_is_logged_with_its_user_and_address(app, session):
    page_id = make_page(session).id
    add_account(session, "Ada", ADMIN)
    ann_id = add_account(session, "Ann", ANNOTATOR).id
    client = app.test_client()
    client.post("/login", data={"name": "Ada", "password": "wrong password", "csrf_token": csrf(client)})
    token = log_in(client, "Ada")
    client.post(f"/api/pages/{page_id}/gold", json=SAVE, headers={"X-CSRF-Token": token})
    first = session.scalar(select(GoldRevision.id))
    session.rollback()
    client.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                json={**SAVE, "text": "Changed", "version": 1, "client_save_id": "a2"})
    client.post(f"/pages/{page_id}/history/{first}/restore", data={"csrf_token": token})
    client.post("/upload", data={"csrf_token": token, "format": "auto", "site_from": "url",
                                 "files": [(io.BytesIO(PAGE), "quay.html")]}, content_type="multipart/form-data")
    client.post("/exports", data={"format": "jsonl", "csrf_token": token})
    export_job = session.scalar(select(Job.id).where(Job.kind == "export"))
    session.rollback()
    client.post(f"/jobs/{export_job}/cancel", data={"csrf_token": token})
    client.post("/users", data={"name": "Bo", "role": "annotator", "password": PASSWORD, "csrf_token": token})
    client.post(f"/users/{ann_id}/role", data={"role": "reviewer", "csrf_token": token})
    client.post(f"/users/{ann_id}/token", data={"csrf_token": token})
    client.post(f"/users/{ann_id}/tokens/revoke", data={"csrf_token": token})
    client.post(f"/users/{ann_id}/disabled", data={"disabled": "on", "csrf_token": token})
    client.post(f"/users/{ann_id}/disabled", data={"csrf_token": token})
    client.post("/extractors/variants", data={"name": "trafilatura-lean", "base": "trafilatura",
                                              "options": "favor_precision=true", "csrf_token": token})
    client.post("/extractors/variants/trafilatura-lean/remove", data={"csrf_token": token})
    client.post("/logout", data={"csrf_token": csrf(client)})
    actions = ["login.failed", "login", "gold.save", "gold.save", "gold.restore", "import", "export", "job.cancel",
               "user.add", "user.role", "user.token", "user.revoke-tokens", "user.disable", "user.enable",
               "variant.add", "variant.remove", "logout"]
    expected = [("Ada", action, "127.0.0.1") for action in actions]
    expected.insert(3, CHECKS)  # the save's checks, queued once for the three changes
    assert logged(session) == expected
    targets = [e.target for e in session.scalars(select(AuditEvent).order_by(AuditEvent.id))
               if e.actor != "system:checks"]
    assert targets[:5] == ["user Ada", "user Ada", f"page {page_id}", f"page {page_id}", f"page {page_id}"]
    assert targets[8:10] == ["user Bo", "user Ann"]
    session.rollback()


def test_a_save_with_an_api_token_is_logged_as_the_token_s_user(app, session):
    page = make_page(session)
    add_account(session, "Ada", ADMIN)
    secret = issue(session, add_account(session, "Ann", ANNOTATOR), TOKEN)
    session.commit()
    app.test_client().post(f"/api/pages/{page.id}/gold", json=SAVE, headers={"Authorization": f"Bearer {secret}"})
    assert logged(session) == [("Ann", "gold.save", "127.0.0.1"), CHECKS]


def test_a_replayed_save_is_logged_once(client, session):
    page = make_page(session)
    token = csrf(client)
    client.post("/annotator", data={"name": "Ann", "csrf_token": token})
    for _ in range(2):
        client.post(f"/api/pages/{page.id}/gold", json=SAVE, headers={"X-CSRF-Token": token})
    assert logged(session) == [("Ann", "gold.save", "127.0.0.1"), CHECKS]


def test_every_command_that_changes_state_is_logged_as_cli_login(app, runner, session, tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "quay.html").write_bytes(PAGE)
    password = tmp_path / "password"
    password.write_text(PASSWORD)
    commands = [
        ["import", str(folder)],
        ["extract", "--extractor", "whole-page"],
        ["rules", "set", "quay.example", "--body", "article"],
        ["rules", "delete", "quay.example"],
        ["export", "--format", "jsonl", "--out", str(tmp_path / "out")],
        ["users", "add", "Ada", "--role", "admin", "--password-file", str(password)],
        ["users", "add", "Ann", "--role", "annotator", "--password-file", str(password)],
        ["users", "set-role", "Ann", "reviewer"],
        ["users", "password", "Ann", "--password-file", str(password)],
        ["users", "token", "Ann"],
        ["users", "disable", "Ann"],
        ["users", "enable", "Ann"],
        ["extractors", "add", "trafilatura-lean", "--base", "trafilatura", "--option", "favor_precision=true"],
        ["extractors", "remove", "trafilatura-lean"],
    ]
    for args in commands:
        result = runner.invoke(args=args)
        assert result.exit_code == 0, (args, result.output)
    actions = ["import", "extract", "rule.set", "rule.delete", "export", "user.add", "user.add", "user.role",
               "user.password", "user.token", "user.disable", "user.enable", "variant.add", "variant.remove"]
    assert logged(session) == [(cli_actor(), action, "cli") for action in actions]
    assert session.scalar(select(ImportBatch.created_by)) == cli_actor()


def test_a_rule_and_an_upload_record_who_made_them(app, session, runner):
    assert runner.invoke(args=["rules", "set", "quay.example", "--body", "article"]).exit_code == 0
    assert session.scalar(select(SiteRule.updated_by)) == cli_actor()
    session.rollback()
    add_account(session, "Ada", ADMIN)
    client = app.test_client()
    token = log_in(client, "Ada")
    client.post("/upload", data={"csrf_token": token, "format": "auto", "site_from": "url",
                                 "files": [(io.BytesIO(PAGE), "quay.html")]}, content_type="multipart/form-data")
    assert session.scalar(select(ImportBatch.created_by)) == "Ada"
    assert session.scalar(select(Job.started_by).where(Job.kind == "upload")) == "Ada"


# --- append-only -----------------------------------------------------------------------------------------


def test_the_database_refuses_to_edit_or_delete_an_event(session):
    audit_log.record(session, "Ada", "login", "user Ada", None, "127.0.0.1")
    session.commit()
    for statement in (update(AuditEvent).values(actor="Mallory"), delete(AuditEvent)):
        with pytest.raises(DBAPIError, match="append-only"):
            session.execute(statement)
        session.rollback()
    assert logged(session) == [("Ada", "login", "127.0.0.1")]


def test_the_service_offers_no_way_to_change_the_log():
    public = {name for name in vars(audit_log) if not name.startswith("_") and callable(vars(audit_log)[name])
              and getattr(vars(audit_log)[name], "__module__", None) == audit_log.__name__}
    assert public == {"record", "events", "rows", "as_dict", "detail_text", "AuditFilter", "chain_digest",
                      "event_digest", "verify", "Break"}


# --- reading it ------------------------------------------------------------------------------------------


@pytest.fixture
def history(session):
    """Ada's login, then events by a user whose name and target are hostile text."""
    add_account(session, "Ada", ADMIN)
    audit_log.record(session, "Ada", "login", "user Ada", None, "10.0.0.1")
    audit_log.record(session, "=HYPERLINK(\"http://x\")", "gold.save", "page 1\x1b[31m", {"note": "<script>"},
                     "10.0.0.2")
    session.commit()


def test_goldtext_audit_prints_a_table_with_user_text_escaped_and_json(runner, history):
    table = runner.invoke(args=["audit"]).output
    assert "\x1b" not in table and "page 1\\x1b[31m" in table
    assert table.splitlines()[-1] == "2 event(s)"
    found = json.loads(runner.invoke(args=["audit", "--format", "json", "--action", "gold.save"]).output)
    assert [(e["actor"], e["target"], e["detail"]) for e in found] == [
        ("=HYPERLINK(\"http://x\")", "page 1\x1b[31m", {"note": "<script>"})]
    assert json.loads(runner.invoke(args=["audit", "--format", "json", "--since", "2999-01-01"]).output) == []
    assert runner.invoke(args=["audit", "--since", "yesterday"]).exit_code == 2


def test_admins_read_filter_and_export_the_log_in_the_browser(client, history):
    log_in(client, "Ada")
    page = client.get("/audit", query_string={"actor": "Ada"}).get_data(as_text=True)
    assert "login" in page and "gold.save" not in page
    page = client.get("/audit").get_data(as_text=True)
    assert "<script>" not in page and "&lt;script&gt;" in page
    exported = client.get("/audit/export", query_string={"format": "csv", "action": "gold.save"})
    assert exported.headers["Content-Disposition"] == 'attachment; filename="audit.csv"'
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert [r["actor"] for r in rows] == ["'=HYPERLINK(\"http://x\")"]
    lines = client.get("/audit/export", query_string={"format": "json", "action": "login"}).get_data(as_text=True)
    assert [json.loads(line)["actor"] for line in lines.splitlines()] == ["Ada", "Ada"]  # the fixture's and the test's


def test_the_audit_csv_drops_the_control_characters_of_failed_login_names_and_neutralises_formulas(client, history):
    """A failed login's name is whatever was typed: an escape sequence, a bell, a bidirectional override,
    a formula after white space or a full-width sign. The page and the command escape them; the CSV drops
    them and neutralises what a spreadsheet would run."""
    for typed in ("mallory\x1b[2J\x07", "\u202eadmin", " =HYPERLINK(\"http://x\")", "＝1+1"):
        client.post("/login", data={"name": typed, "password": "wrong password", "csrf_token": csrf(client)})
    log_in(client, "Ada")
    exported = client.get("/audit/export", query_string={"format": "csv", "action": "login.failed"})
    body = exported.get_data(as_text=True)
    assert not any(unicodedata.category(char) in ("Cc", "Cf") for char in body.replace("\r\n", ""))
    rows = list(csv.DictReader(io.StringIO(body)))
    # (a login name is stored NFKC-normalised and trimmed: the full-width sign is the plain one there)
    assert [row["actor"] for row in rows] == ["mallory[2J", "admin", "'=HYPERLINK(\"http://x\")", "'=1+1"]


def test_the_migration_keeps_every_revision_s_author_and_adds_no_account(tmp_path):
    from webapp.foundation.engine import make_engine
    from webapp.foundation.migrate import upgrade

    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")
    gold_before_accounts(engine, "t", ("Ann Lee", "Bob"))
    upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT author FROM gold_revision ORDER BY id")).scalars().all() == ["Ann Lee", "Bob"]
        assert conn.execute(text("SELECT author FROM gold")).scalar() == "Ann Lee"
        assert conn.execute(text("SELECT count(*) FROM user")).scalar() == 0
        assert conn.execute(text("SELECT created_by FROM import_batch")).scalar() == ""
    engine.dispose()


@pytest.mark.settings(OVERLAP=2)
def test_adjudication_automatic_or_by_a_reviewer_and_assignment_are_logged_with_their_user(app, session, runner):
    first = make_page(session, url="https://a.example/1", host="a.example").id
    second = make_page(session, url="https://a.example/2", host="a.example").id
    for name, role in (("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rex", REVIEWER)):
        add_account(session, name, role)
    clients = {}
    for name in ("Ann", "Bob", "Rex"):
        clients[name] = (client := app.test_client()), log_in(client, name)
    for name, said in (("Ann", "Same words"), ("Bob", "Same words")):
        client, token = clients[name]
        client.post(f"/api/pages/{first}/gold", json={**SAVE, "text": said, "client_save_id": name},
                    headers={"X-CSRF-Token": token})
    for name, said in (("Ann", "Ann's words"), ("Bob", "Bob's words")):
        client, token = clients[name]
        client.post(f"/api/pages/{second}/gold", json={**SAVE, "text": said, "client_save_id": name + "2"},
                    headers={"X-CSRF-Token": token})
    rex, token = clients["Rex"]
    assert rex.post(f"/adjudication/{second}", data={"csrf_token": token, "version": "0", "text": "Bob's words",
                                                      "type": "article", "status": "done", "note": "Bob's"}
                    ).status_code == 302
    assert runner.invoke(args=["assign", "--to", "Ann", "--site", "a.example"]).exit_code == 0
    events = [(e.actor, e.action, e.target) for e in session.scalars(select(AuditEvent).order_by(AuditEvent.id))
              if e.action in ("adjudicate", "assign")]
    assert events == [("Bob", "adjudicate", f"page {first}"), ("Rex", "adjudicate", f"page {second}"),
                      (cli_actor(), "assign", "Ann")]
