"""The page type's old name still works for one release, and says so: the --kind flag, the JSON field
"kind", the query argument ?kind= (and ?by=kind) and the jsonl field "kind" of an import."""

from __future__ import annotations

import json

from sqlalchemy import select
from workbench import add_gold, make_page, sign_in

from webapp.cli.page_type_option import OLD_FLAG_NOTE
from webapp.models import GoldRevision, Page

SAVE = {"text": "A thread.", "status": "done", "version": 0, "client_save_id": "s1"}


def test_the_old_flag_kind_still_filters_and_names_the_new_one(app, session, tmp_path):
    for text, page_type in (("A thread.", "forum"), ("A story.", "article")):
        add_gold(session, make_page(session, html=f"<p>{text}</p>"), text=text, page_type=page_type,
                 status="done", author="ann")
    session.commit()
    runner = app.test_cli_runner()
    new = runner.invoke(args=["export", "--format", "jsonl", "--out", str(tmp_path / "new"), "--type", "forum"])
    old = runner.invoke(args=["export", "--format", "jsonl", "--out", str(tmp_path / "old"), "--kind", "forum"])
    assert new.exit_code == 0 and old.exit_code == 0, old.output
    assert OLD_FLAG_NOTE in old.output and OLD_FLAG_NOTE not in new.output
    rows = [[json.loads(line) for line in (tmp_path / name / "pages.jsonl").read_text().splitlines()]
            for name in ("new", "old")]
    assert rows[0] == rows[1] and [row["type"] for row in rows[1]] == ["forum"]


def test_the_old_flag_and_the_new_one_together_take_both_types(app, session, tmp_path):
    for page_type in ("forum", "article", "listing"):
        add_gold(session, make_page(session, html=f"<p>{page_type}</p>"), text=page_type, page_type=page_type,
                 status="done", author="ann")
    session.commit()
    result = app.test_cli_runner().invoke(args=["export", "--format", "jsonl", "--out", str(tmp_path / "both"),
                                                "--type", "forum", "--kind", "listing"])
    assert result.exit_code == 0, result.output
    assert OLD_FLAG_NOTE in result.output
    rows = [json.loads(line) for line in (tmp_path / "both" / "pages.jsonl").read_text().splitlines()]
    assert sorted(row["type"] for row in rows) == ["forum", "listing"]


def test_a_save_with_the_old_field_kind_is_taken_and_answered_with_type_and_a_warning(client, session):
    page_id = make_page(session).id
    session.commit()
    token = sign_in(client)
    saved = client.post(f"/api/pages/{page_id}/gold", json={**SAVE, "kind": "forum"}, headers={"X-CSRF-Token": token})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    assert saved.headers["Deprecation"] == "true" and "use 'type'" in saved.headers["Warning"]
    shown = client.get(f"/api/pages/{page_id}/gold").get_json()
    assert shown["type"] == "forum" and "kind" not in shown
    new = client.post(f"/api/pages/{page_id}/gold", json={**SAVE, "type": "listing", "version": 1,
                                                          "client_save_id": "s2"}, headers={"X-CSRF-Token": token})
    assert new.status_code == 200, new.get_data(as_text=True)
    assert "Deprecation" not in new.headers
    assert session.scalars(select(GoldRevision.page_type).order_by(GoldRevision.version)).all() == ["forum", "listing"]


def test_the_old_query_argument_kind_filters_as_type_does_and_warns(client, session):
    for text, page_type in (("A thread.", "forum"), ("A story.", "article")):
        add_gold(session, make_page(session, html=f"<p>{text}</p>", url=f"https://a.example/{page_type}"),
                 text=text, page_type=page_type, status="done", author="ann")
    session.commit()
    sign_in(client)
    new, old = client.get("/?type=forum"), client.get("/?kind=forum")
    assert new.status_code == old.status_code == 200
    assert "https://a.example/forum" in old.get_data(as_text=True)
    assert "https://a.example/article" not in old.get_data(as_text=True)
    assert "Deprecation" not in new.headers and "query argument 'kind'" in old.headers["Warning"]


def test_an_import_reads_the_old_jsonl_field_kind(app, session, tmp_path):
    lines = tmp_path / "pages.jsonl"
    lines.write_text(json.dumps({"url": "https://a.example/t", "html": "<p>A thread.</p>", "gold": "A thread.",
                                 "kind": "forum"}) + "\n")
    result = app.test_cli_runner().invoke(args=["import", str(lines)])
    assert result.exit_code == 0, result.output
    page = session.scalars(select(Page)).one()
    assert page.gold.page_type == "forum"


def test_the_old_grouping_kind_of_score_and_agreement_reads_as_type_and_says_so(app, session):
    runner = app.test_cli_runner()
    for command in (["score", "--format", "json", "--bootstrap", "0"], ["agreement", "--format", "json"]):
        new = runner.invoke(args=[*command, "--by", "type"])
        old = runner.invoke(args=[*command, "--by", "kind"])
        assert new.exit_code == 0 and old.exit_code == 0, old.output
        assert json.loads(old.stdout) == json.loads(new.stdout)
        assert "--by kind is deprecated and goes in the next release: use --by type" in old.stderr
        assert "deprecated" not in new.stderr
    assert json.loads(old.stdout)["by"] == "type"  # agreement's, with no double annotation yet: no group
