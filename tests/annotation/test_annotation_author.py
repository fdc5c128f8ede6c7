"""An annotation's author is its `author` (issue 21 §2): the migration renames the column without losing
a name and goes back; the inputs that named it `annotator` (the adjudication page's void form, a `jsonl`
export made before) still work, for one release."""

from __future__ import annotations

import json

import pytest
from alembic.script import ScriptDirectory
from migration_rows import NOW, insert_row, one_page
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import IntegrityError
from workbench import make_page, sign_in

from webapp.annotation.annotations import save_annotation
from webapp.foundation.engine import make_engine
from webapp.foundation.migrate import alembic_config, downgrade, upgrade
from webapp.models import Annotation, AuditEvent, Page


def _before_rename(engine) -> str:
    """The revision before the migration that renamed the column (numbered when it was written)."""
    script = ScriptDirectory.from_config(alembic_config(engine))
    (found,) = (r for r in script.walk_revisions() if (r.path or "").endswith("_annotation_author.py"))
    return found.down_revision


def test_the_migration_renames_the_annotation_column_keeps_every_name_and_goes_back(database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    before = _before_rename(engine)
    downgrade(engine, before)
    try:
        with engine.begin() as conn:
            page = one_page(conn)
            for name in ("Ann", "Bob"):
                insert_row(conn, "annotation", page_id=page, annotator=name, text="x", page_type="article",
                           status="done", version=1, updated_at=NOW)
        upgrade(engine)
        columns = {c["name"] for c in inspect(engine).get_columns("annotation")}
        assert "author" in columns and "annotator" not in columns
        with engine.connect() as conn:
            assert conn.execute(text("SELECT author FROM annotation ORDER BY id")).scalars().all() == ["Ann", "Bob"]
        with pytest.raises(IntegrityError), engine.begin() as conn:  # still one annotation per page and author
            insert_row(conn, "annotation", page_id=page, author="Ann", text="y", page_type="article", status="done",
                       version=1, updated_at=NOW)
        downgrade(engine, before)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT annotator FROM annotation ORDER BY id")).scalars().all() == ["Ann", "Bob"]
    finally:
        upgrade(engine)
        engine.dispose()


@pytest.mark.settings(OVERLAP=2)
@pytest.mark.parametrize("field", ["author", "annotator"])
def test_an_admin_voids_an_annotation_named_by_its_author_or_by_the_old_field(app, session, field):
    page = make_page(session, url="https://news.example/vote")
    for name in ("Ann", "Bob"):
        save_annotation(session, page, name, base_version=0, text=f"{name}'s text", page_type="article", status="done")
    session.commit()
    page_id = page.id
    admin = app.test_client()
    token = sign_in(admin, "Ada")  # local mode: everyone may do everything
    shown = admin.get(f"/adjudication/{page_id}").get_data(as_text=True)
    assert '<input type="hidden" name="author" value="Bob">' in shown
    assert admin.post(f"/adjudication/{page_id}/void", data={"csrf_token": token, field: "Bob"}).status_code == 302
    session.expire_all()
    statuses = dict(session.execute(select(Annotation.author, Annotation.status)).all())
    assert statuses == {"Ann": "done", "Bob": "void"}
    event = session.scalars(select(AuditEvent).where(AuditEvent.action == "annotation.void")).one()
    assert event.detail["author"] == "Bob"


def test_a_jsonl_export_names_each_annotation_s_author_and_one_made_before_still_imports(cli, session, tmp_path):
    records = [{"html": "<p>1</p>", "url": "https://one.example/", "gold": "x", "annotations": [
                   {"annotator": "Ann", "text": "x", "kind": "article", "status": "done", "provenance": None}]},
               {"html": "<p>2</p>", "url": "https://two.example/", "gold": "y", "annotations": [
                   {"author": "Bob", "text": "y", "kind": "article", "status": "done", "provenance": None}]},
               {"html": "<p>3</p>", "url": "https://three.example/", "gold": "z", "annotations": [
                   {"text": "z", "kind": "article", "status": "done", "provenance": None}]}]
    source = tmp_path / "pages.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    report = cli("import", "--format", "jsonl", str(source))
    assert "2 imported, 0 duplicate, 1 rejected" in report
    assert "annotation 1 needs the strings author, type, status and text or markdown" in report
    stored = {(a.page.url, a.author) for a in session.scalars(select(Annotation))}
    assert stored == {("https://one.example/", "Ann"), ("https://two.example/", "Bob")}
    session.rollback()
    out = tmp_path / "export"
    cli("export", "--format", "jsonl", "--out", str(out))
    exported = [json.loads(line) for line in (out / "pages.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((a["author"], "annotator" in a) for page in exported for a in page["annotations"]) == [
        ("Ann", False), ("Bob", False)]
    assert {page.url for page in session.scalars(select(Page))} == {"https://one.example/", "https://two.example/"}


def test_the_gold_author_filter_and_grouping_answer_to_their_old_names_for_one_release(demo_app):
    runner = demo_app.test_cli_runner()

    def scored(*options: str):
        result = runner.invoke(args=["score", "--format", "json", "--bootstrap", "0", *options])
        assert result.exit_code == 0, result.output
        return result

    site = ("--site", "garden-ledger.example")
    new, old = scored(*site, "--author", "import"), scored(*site, "--annotator", "import")
    assert json.loads(new.stdout)["pages"] == json.loads(old.stdout)["pages"] == 4
    assert "--annotator is deprecated" in old.stderr and "deprecated" not in new.stderr
    assert json.loads(scored("--author", "nobody", "--annotator", "import").stdout)["pages"] == 11  # either name
    assert "--author NAME" in runner.invoke(args=["score", "--help"]).output
    assert "--annotator" not in runner.invoke(args=["score", "--help"]).output
    grouped = json.loads(scored("--by", "author").stdout)
    assert grouped == json.loads(scored("--by", "annotator").stdout) and "import" in json.dumps(grouped)

    client = demo_app.test_client()

    def api(**query: str) -> dict:
        found = client.get("/api/leaderboard", query_string=query)
        assert found.status_code == 200, found.get_data(as_text=True)
        return found.get_json()

    assert api(author="nobody") == api(annotator="nobody") != api()
    assert api(by="author") == api(by="annotator")
    assert 'name="author"' in client.get("/leaderboard").get_data(as_text=True)
