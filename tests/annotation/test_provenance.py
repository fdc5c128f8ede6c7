"""Provenance: each revision records where its text came from (annotation/provenance.py). Its shape is
checked on a save (400 naming the problem), the server records it for the revisions it makes (an import,
a restore, an automatic adjudication), the history shows it, and a `jsonl` export carries it through an
import into an emptied database with the annotations, the note and the authors."""

from __future__ import annotations

import html
import json

import pytest
from sqlalchemy import select
from workbench import empty_database, make_page, page_data, sign_in

from webapp.annotation.annotations import save_annotation
from webapp.annotation.gold import add_revision
from webapp.annotation.provenance import summary
from webapp.models import Annotation, AnnotationRevision, Gold, GoldRevision, Page
from webapp.usecases.bodies import checked_provenance
from webapp.usecases.outcome import Refused

FROM_TRAFILATURA = {"source": "extractor", "name": "trafilatura", "fingerprint": "ab12", "basis": "best"}


@pytest.mark.parametrize("provenance, text", [
    ({"prefill": FROM_TRAFILATURA, "lines": ["prefill", "block", "candidate:density", "typed", "edited"]},
     "a\nb\nc\nd\ne"),
    ({"prefill": {"source": "gold", "version": 3}, "lines": ["gold", "annotator:Ann"]}, "a\nb"),
    ({"prefill": {"source": "consensus"}, "lines": ["consensus", "annotator:Bob", "typed"]}, "a\n\nc"),
    ({"prefill": {"source": "import", "layout": "jsonl"}, "lines": ["import"]}, "one line"),
    ({"prefill": {"source": "none"}, "lines": ["typed"]}, ""),
    ({"prefill": {"source": "extractor", "name": "site-rules"}, "lines": ["prefill"]}, "x"),
])
def test_a_well_formed_provenance_is_taken_as_it_is(provenance, text):
    assert checked_provenance(provenance, text) == provenance


@pytest.mark.parametrize("provenance, text, problem", [
    ("prefill", "a", "'provenance': 'prefill' is not of type 'object'"),
    ({"lines": ["typed"]}, "a", "'provenance': 'prefill' is a required property"),
    ({"prefill": {"source": "none"}, "lines": ["typed"], "extra": 1}, "a", "('extra' was unexpected)"),
    ({"prefill": {"source": "magic"}, "lines": ["typed"]}, "a", "['source']: 'magic' is not one of ['extractor'"),
    ({"prefill": {"source": "extractor"}, "lines": ["prefill"]}, "a", "['prefill']: 'name' is a required property"),
    ({"prefill": FROM_TRAFILATURA | {"basis": "luck"}, "lines": ["prefill"]}, "a", "['basis']: 'luck' is not one of"),
    ({"prefill": {"source": "gold", "version": 0}, "lines": ["gold"]}, "a", "a saved version (1 or more)"),
    ({"prefill": {"source": "gold", "version": "2"}, "lines": ["gold"]}, "a",
     "['version']: '2' is not of type 'integer'"),
    ({"prefill": {"source": "none", "name": "x"}, "lines": ["typed"]}, "a", "['prefill']: Additional properties are "
                                                                             "not allowed ('name' was unexpected)"),
    ({"prefill": {"source": "none"}, "lines": ["typed"]}, "a\nb", "has 1 origins for a text of 2 lines"),
    ({"prefill": {"source": "none"}, "lines": "typed"}, "a", "['lines']: 'typed' is not of type 'array'"),
    ({"prefill": {"source": "none"}, "lines": ["typed", "pasted"]}, "a\nb", "['lines'][1]: 'pasted' does not match"),
    ({"prefill": {"source": "none"}, "lines": ["candidate:"]}, "a", "['lines'][0]: 'candidate:' does not match"),
    ({"prefill": {"source": "none"}, "lines": ["annotator:" + "x" * 101]}, "a", "['lines'][0]"),
    ({"prefill": {"source": "none"}, "lines": [None]}, "a", "['lines'][0]: None is not valid"),
    ({"prefill": {"source": "extractor", "name": "x", "fingerprint": "f" * 256}, "lines": ["prefill"]}, "a",
     "1 to 255 characters"),
    ({"prefill": {"source": "import", "layout": "a\x00"}, "lines": ["import"]}, "a", "no NUL"),
    ({"prefill": {"source": "none"}, "lines": ["candidate:a\x00"]}, "a", "['lines'][0]"),
])
def test_a_malformed_provenance_is_refused_naming_the_problem(provenance, text, problem):
    with pytest.raises(Refused) as refused:
        checked_provenance(provenance, text)
    assert refused.value.status == 400 and problem in refused.value.reason


def save(client, token, page_id, text, version=0, save_id="s1", **extra):
    body = {"text": text, "type": "article", "status": "done", "version": version, "client_save_id": save_id}
    return client.post(f"/api/pages/{page_id}/gold", json=body | extra, headers={"X-CSRF-Token": token})


def test_a_save_stores_its_provenance_refuses_a_malformed_one_and_may_have_none(client, session):
    page_id = make_page(session, candidates={"trafilatura": "Title\nBody"}).id
    token = sign_in(client, "Ann")
    wrong = save(client, token, page_id, "Title\nBody\nMine", provenance={"prefill": FROM_TRAFILATURA,
                                                                          "lines": ["prefill", "prefill"]})
    assert wrong.status_code == 400
    assert "'provenance'['lines'] has 2 origins for a text of 3 lines" in wrong.json["message"]
    assert session.scalars(select(GoldRevision)).all() == []
    session.rollback()  # the test's session lets go of SQLite's database before the next save
    good = {"prefill": FROM_TRAFILATURA, "lines": ["prefill", "prefill", "typed"]}
    assert save(client, token, page_id, "Title\nBody\nMine", provenance=good).status_code == 200
    assert save(client, token, page_id, "Title", version=1, save_id="s2").status_code == 200  # from the API
    assert [r.provenance for r in session.scalars(select(GoldRevision).order_by(GoldRevision.id))] == [good, None]
    session.rollback()
    start = page_data(client.get(f"/pages/{page_id}"))["editor"]["start"]  # the next edit starts from version 2
    assert start == {"prefill": {"source": "gold", "version": 2}, "lines": ["gold"]}


def test_a_restore_records_the_restored_revisions_provenance(client, session):
    page_id = make_page(session).id
    token = sign_in(client, "Ann")
    first = {"prefill": FROM_TRAFILATURA, "lines": ["prefill", "block"]}
    save(client, token, page_id, "Old\nlines", provenance=first)
    save(client, token, page_id, "New", version=1, save_id="s2",
         provenance={"prefill": {"source": "gold", "version": 1}, "lines": ["edited"]})
    old = session.scalars(select(GoldRevision.id).where(GoldRevision.version == 1)).one()
    session.rollback()
    assert client.post(f"/pages/{page_id}/history/{old}/restore", data={"csrf_token": token}).status_code == 302
    restored = session.scalars(select(GoldRevision).order_by(GoldRevision.id.desc())).first()
    assert (restored.version, restored.text, restored.provenance) == (3, "Old\nlines", first)


@pytest.mark.settings(OVERLAP=2)
def test_an_automatic_adjudication_records_the_agreed_text_as_its_origin(app, session):
    page_id = make_page(session).id
    for name in ("Ann", "Bob"):
        client = app.test_client()
        token = sign_in(client, name)
        mine = {"prefill": FROM_TRAFILATURA, "lines": ["prefill", "typed"]}
        assert save(client, token, page_id, "Agreed\ntext", provenance=mine).status_code == 200
    gold = session.scalars(select(GoldRevision)).one()
    assert gold.provenance == {"prefill": {"source": "consensus"}, "lines": ["consensus", "consensus"]}
    assert [r.provenance["lines"] for r in session.scalars(select(AnnotationRevision))] == [["prefill", "typed"]] * 2


def test_an_imported_gold_records_the_import_as_its_origin(cli, session, tmp_path):
    source = tmp_path / "pages.jsonl"
    source.write_text(json.dumps({"url": "https://a.example/1", "html": "<p>One</p><p>Two</p>", "gold": "One\nTwo"})
                      + "\n", encoding="utf-8")
    assert "1 imported" in cli("import", "--format", "jsonl", str(source))
    revision = session.scalars(select(GoldRevision)).one()
    assert (revision.author, revision.provenance) == (
        "import", {"prefill": {"source": "import", "layout": "jsonl"}, "lines": ["import", "import"]})


def test_the_history_shows_each_revisions_prefill_and_line_origins_escaped(client, session):
    page_id = make_page(session).id
    token = sign_in(client, "Ann")
    lines = ["prefill", "block", "block", "candidate:<b>x</b>"]
    save(client, token, page_id, "a\nb\nc\nd", provenance={"prefill": FROM_TRAFILATURA, "lines": lines})
    page = client.get(f"/pages/{page_id}/history").get_data(as_text=True)
    assert "extractor trafilatura (best)" in page
    assert "block 2" in page and "candidate:&lt;b&gt;x&lt;/b&gt; 1" in page and "<b>x</b>" not in page
    assert summary(None) is None


def test_a_jsonl_export_reimported_keeps_annotations_notes_authors_and_provenance(app, cli, session, tmp_path):
    page = make_page(session, html="<p>Agreed</p><p>Ann's</p><p>Bob's</p>", url="https://news.example/a")
    solo = make_page(session, html="<p>Solo</p>", url="https://news.example/solo")
    ann = {"prefill": FROM_TRAFILATURA, "lines": ["prefill", "block"]}
    bob = {"prefill": {"source": "extractor", "name": "justext", "basis": "random"}, "lines": ["prefill", "typed"]}
    save_annotation(session, page, "Ann", base_version=0, text="Agreed\nAnn's", page_type="article", status="done",
                    provenance=ann)
    save_annotation(session, page, "Bob", base_version=0, text="Agreed\nBob's", page_type="forum", status="skipped",
                    provenance=bob)
    reviewed = {"prefill": {"source": "consensus"}, "lines": ["consensus", "annotator:Ann"]}
    add_revision(session, page, text="Agreed\nAnn's", page_type="article", status="done", author="Rita",
                 note="Ann's line is <the> one", provenance=reviewed)
    add_revision(session, solo, text="Solo", page_type="article", status="done", author="Sam",
                 provenance={"prefill": {"source": "none"}, "lines": ["typed"]})
    session.commit()

    def stored():
        golds = {g.page.url: (g.text, g.page_type, g.status, g.author, g.note, g.revisions[-1].provenance)
                 for g in session.scalars(select(Gold))}
        annotations = {(a.page.url, a.author): (a.text, a.page_type, a.status, a.revisions[-1].author,
                                                   a.revisions[-1].provenance)
                       for a in session.scalars(select(Annotation))}
        session.rollback()
        return golds, annotations

    before = stored()
    assert before[0]["https://news.example/a"][3:] == ("Rita", "Ann's line is <the> one", reviewed)
    assert before[1][("https://news.example/a", "Bob")] == ("Agreed\nBob's", "forum", "skipped", "Bob", bob)
    out = tmp_path / "export"
    cli("export", "--format", "jsonl", "--out", str(out))
    empty_database(session)
    assert session.scalars(select(Page)).all() == []
    assert "2 imported, 0 duplicate, 0 rejected" in cli("import", str(out))
    assert stored() == before


def test_an_import_whose_provenance_does_not_fit_its_text_is_rejected_naming_it(cli, session, tmp_path):
    bad = {"prefill": {"source": "none"}, "lines": ["typed"]}
    records = [
        {"html": "<p>1</p>", "gold": "One\nTwo", "gold_provenance": bad},
        {"html": "<p>2</p>", "gold": "x", "annotations": [
            {"author": "Ann", "text": "x", "type": "article", "status": "done", "provenance": bad},
            {"author": "Ann", "text": "y", "type": "article", "status": "done", "provenance": None}]},
        {"html": "<p>3</p>", "gold": "x", "annotations": [
            {"author": "Ann", "text": "a\nb", "type": "article", "status": "done", "provenance": bad}]},
        {"html": "<p>4</p>", "gold": "x", "gold_author": "Eve\u202e"},
        {"html": "<p>5</p>", "gold": "x", "gold_note": "a NUL \x00 here"},
        {"html": "<p>6</p>", "gold": "fine", "gold_author": "Eve"},
    ]
    source = tmp_path / "pages.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    report = cli("import", "--format", "jsonl", str(source))
    assert "1 imported, 0 duplicate, 5 rejected" in report
    assert "the gold's 'provenance'['lines'] has 1 origins for a text of 2 lines" in report
    assert "annotator 'Ann' has two annotations of it" in report
    assert "annotation 1's 'provenance'['lines'] has 1 origins for a text of 2 lines" in report
    assert "is not a name" in report
    assert "its note or an annotation's text holds a NUL character" in report


@pytest.mark.settings(OVERLAP=2)
def test_an_adjudication_stores_the_reviewers_provenance_and_refuses_a_malformed_one(app, client, session):
    page = make_page(session)
    for name, text in (("Ann", "Agreed\nAnn's"), ("Bob", "Agreed\nBob's")):
        save_annotation(session, page, name, base_version=0, text=text, page_type="article", status="done")
    session.commit()
    page_id = page.id
    token = sign_in(client, "Rita")
    form = {"csrf_token": token, "version": "0", "text": "Agreed\r\nBob's", "type": "article", "status": "done",
            "note": ""}
    wrong = client.post(f"/adjudication/{page_id}", data=form | {
        "provenance": json.dumps({"prefill": {"source": "consensus"}, "lines": ["consensus", "annotator:"]})})
    assert wrong.status_code == 400 and "'provenance'['lines'][1]: 'annotator:' does not match" in html.unescape(
        wrong.get_data(as_text=True))
    assert session.scalars(select(Gold)).all() == []
    session.rollback()
    good = {"prefill": {"source": "consensus"}, "lines": ["consensus", "annotator:Bob"]}
    assert client.post(f"/adjudication/{page_id}", data=form | {"provenance": json.dumps(good)}).status_code == 302
    assert session.scalars(select(GoldRevision)).one().provenance == good
