"""The metadata gold (title, authors, published) through every path the text takes: a save through the API
(checked, kept when not sent, recorded on the revision with each field's origin), a stale save (409 naming
the fields that differ), a restore, double annotation (each annotator's own fields; automatic adjudication
only when they agree) and the page type's expected fields in the code's table and the guideline texts."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import select
from workbench import make_page, sign_in

from webapp.annotation.article_metadata import EXPECTED, FIELDS, differing, expected
from webapp.annotation.gold import add_revision, apply_revision
from webapp.annotation.guideline_versions import SHIPPED
from webapp.foundation.vocabulary import DEFAULT_PAGE_TYPES
from webapp.models import Annotation, Gold, GoldRevision, Page

META = {"title": "Council approves the budget", "authors": ["Ann Lee", "Bo Chen"], "published": "2024-03-01"}
WHERE = {"title": "candidate:trafilatura", "authors": "typed", "published": "none"}


@pytest.fixture
def page_id(session):
    return make_page(session, url="https://news.example/council", candidates={"trafilatura": "The council met."}).id


def post(client, token, page_id, version=0, save_id="s1", text="The council met.", **extra):
    body = {"text": text, "type": "article", "status": "done", "version": version, "client_save_id": save_id,
            **extra}
    return client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})


def provenance(fields):
    return {"prefill": {"source": "none"}, "lines": ["typed"], "fields": fields}


def test_a_save_stores_the_fields_on_the_gold_and_its_revision_with_their_origins(client, session, page_id):
    token = sign_in(client)
    saved = post(client, token, page_id, metadata={**META, "published": None}, provenance=provenance(WHERE))
    assert saved.status_code == 200, saved.json
    gold = session.scalars(select(Gold)).one()
    assert gold.article_metadata == {**META, "published": None}
    revision = session.scalars(select(GoldRevision)).one()
    assert revision.article_metadata == gold.article_metadata
    assert revision.provenance["fields"] == WHERE
    assert client.get(f"/api/pages/{page_id}/gold").json["metadata"] == {**META, "published": None}


def test_a_save_without_metadata_keeps_the_fields_and_an_empty_object_clears_them(client, session, page_id):
    token = sign_in(client)
    post(client, token, page_id, metadata=META)
    post(client, token, page_id, version=1, save_id="s2", text="Edited.")
    assert session.scalars(select(Gold)).one().article_metadata == META
    session.rollback()  # the test's read ends before the next save writes
    assert post(client, token, page_id, version=2, save_id="s3", metadata={}).status_code == 200
    session.expire_all()
    assert session.scalars(select(Gold)).one().article_metadata is None  # every field not annotated
    assert client.get(f"/api/pages/{page_id}/gold").json["metadata"] == {}


@pytest.mark.parametrize("metadata, problem", [
    ({"published": "1st of March"}, "'metadata': metadata field 'published' is not an ISO 8601 date"),
    ({"authors": "Ann Lee"}, "'metadata': metadata field 'authors' must be a list of names"),
    ({"sitename": "x"}, "'metadata': metadata field 'sitename' is not one of"),
    ("Ann", "'metadata': 'Ann' is not of type"),
])
def test_bad_metadata_is_refused_naming_the_field_and_nothing_is_saved(client, session, page_id, metadata, problem):
    token = sign_in(client)
    refused = post(client, token, page_id, metadata=metadata)
    assert refused.status_code == 400
    assert problem in refused.json["message"]
    assert session.scalars(select(Gold)).one_or_none() is None


def test_a_field_origin_that_is_no_origin_is_refused(client, page_id):
    token = sign_in(client)
    refused = post(client, token, page_id, metadata=META, provenance=provenance({"title": "guessed"}))
    assert refused.status_code == 400 and "'provenance'['fields']['title']" in refused.json["message"]
    refused = post(client, token, page_id, metadata=META, provenance=provenance({"sitename": "typed"}))
    assert refused.status_code == 400 and "is not one of ['title', 'authors', 'published']" in refused.json["message"]


def test_a_stale_save_is_kept_and_names_the_fields_that_differ(client, session, page_id):
    token = sign_in(client)
    post(client, token, page_id, metadata=META)
    post(client, token, page_id, version=1, save_id="s2", metadata={**META, "published": "2024-03-02"})
    stale = post(client, token, page_id, version=1, save_id="s3", metadata={**META, "authors": None})
    assert stale.status_code == 409
    assert stale.json["fields"] == ["authors", "published"]
    assert stale.json["current"]["metadata"]["published"] == "2024-03-02"
    kept = session.scalars(select(GoldRevision).order_by(GoldRevision.id.desc())).first()
    assert kept.article_metadata == {**META, "authors": None}  # the stale save's fields are in the history
    assert session.scalars(select(Gold)).one().article_metadata["authors"] == META["authors"]


def test_a_restore_brings_back_the_revisions_fields(client, session, page_id):
    token = sign_in(client)
    post(client, token, page_id, metadata=META)
    post(client, token, page_id, version=1, save_id="s2", metadata={"title": "Another title"})
    first = session.scalars(select(GoldRevision.id).order_by(GoldRevision.id)).first()
    session.rollback()
    restored = client.post(f"/pages/{page_id}/history/{first}/restore", data={"csrf_token": token})
    assert restored.status_code == 302
    session.expire_all()
    assert session.scalars(select(Gold)).one().article_metadata == META
    newest = session.scalars(select(GoldRevision).order_by(GoldRevision.id.desc())).first()
    assert (newest.version, newest.article_metadata) == (3, META)
    session.rollback()
    history = client.get(f"/pages/{page_id}/history").get_data(as_text=True)
    assert "Ann Lee; Bo Chen</span> · " in history and '>Another title</span> · ' in history


@pytest.mark.settings(OVERLAP=2)
def test_each_annotator_keeps_their_own_fields_and_only_agreement_adjudicates(app, session, page_id):
    ann, bob = app.test_client(), app.test_client()
    ann_token, bob_token = sign_in(ann, "Ann"), sign_in(bob, "Bob")
    post(ann, ann_token, page_id, metadata=META)
    post(bob, bob_token, page_id, metadata={**META, "authors": ["Ann Lee"]})
    mine = {a.author: a.article_metadata for a in session.scalars(select(Annotation))}
    assert mine == {"Ann": META, "Bob": {**META, "authors": ["Ann Lee"]}}
    assert bob.get(f"/api/pages/{page_id}/gold").json["metadata"]["authors"] == ["Ann Lee"]
    assert session.scalars(select(Gold)).one_or_none() is None  # the texts agree, the authors do not
    session.rollback()
    post(bob, bob_token, page_id, version=1, save_id="s2", metadata=META)
    gold = session.scalars(select(Gold)).one()
    assert gold.author == "system" and gold.article_metadata == META
    revision = session.scalars(select(GoldRevision)).one()
    assert revision.provenance["fields"] == {name: "consensus" for name in FIELDS}
    session.rollback()


def test_differing_tells_a_value_none_on_the_page_and_not_annotated_apart():
    assert differing({"title": "A"}, {"title": "A"}) == []
    assert differing({"authors": None}, {}) == ["authors"]
    assert differing({"authors": None}, {"authors": ["Ann"]}) == ["authors"]
    assert differing(None, {"published": "2024-01-01", "title": "T"}) == ["title", "published"]


def test_every_default_page_type_has_its_expected_fields_and_its_guideline_says_the_same():
    assert set(EXPECTED) == set(DEFAULT_PAGE_TYPES)
    assert expected("article") == FIELDS and expected("error") == () and expected("recipe") == ("title",)
    for page_type, fields in EXPECTED.items():
        text = (SHIPPED / f"{page_type}.md").read_text(encoding="utf-8")
        section = text.split("**Title, authors, date**", 1)[1]
        said = section.split("\n\n", 1)[0].split("Expected: ", 1)[1].split(".", 1)[0]
        assert said == (", ".join(fields) if fields else "none"), page_type


def radios(view, field):
    """The value of each radio button of a field in the adjudication form, and which one is checked."""
    group = view.split(f'data-field="{field}"', 1)[1].split("</div>", 1)[0]
    found = re.findall(rf'<input type="radio" name="metadata-{field}" value="([^"]*)" (checked)?', group)
    return [(html.unescape(value), bool(checked)) for value, checked in found]


@pytest.mark.settings(OVERLAP=2)
def test_a_reviewer_picks_or_types_each_field_and_an_agreed_field_starts_chosen(app, session, page_id):
    ann, bob, rev = app.test_client(), app.test_client(), app.test_client()
    ann_token, bob_token, rev_token = sign_in(ann, "Ann"), sign_in(bob, "Bob"), sign_in(rev, "Rita")
    post(ann, ann_token, page_id, metadata=META)
    post(bob, bob_token, page_id, text="The council met.\nRead more", metadata={**META, "authors": None})
    view = rev.get(f"/adjudication/{page_id}").get_data(as_text=True)
    assert "same title 100.0%" in view and "same authors 0.0%" in view
    title = radios(view, "title")
    assert [json.loads(v)["value"] for v, checked in title if checked] == [META["title"]]  # both agree
    authors = radios(view, "authors")
    assert not any(checked for _, checked in authors)  # they differ: the reviewer chooses
    bobs = next(v for v, _ in authors if v != "typed" and json.loads(v) == {"value": None, "from": "annotator:Bob"})
    form = {"csrf_token": rev_token, "version": "0", "text": "The council met.", "type": "article", "status": "done",
            "note": "", "metadata-form": "1", "metadata-title": title[0][0], "metadata-authors": bobs,
            "metadata-published": "typed", "metadata-published-typed": "2024-03-02",
            "provenance": json.dumps({"prefill": {"source": "consensus"}, "lines": ["consensus"]})}
    assert rev.post(f"/adjudication/{page_id}", data={**form, "metadata-published-typed": "soon"}).status_code == 400
    assert rev.post(f"/adjudication/{page_id}", data={k: v for k, v in form.items()
                                                     if k != "metadata-authors"}).status_code == 400
    assert rev.post(f"/adjudication/{page_id}", data=form).status_code == 302
    gold = session.scalars(select(Gold)).one()
    assert gold.article_metadata == {"title": META["title"], "authors": None, "published": "2024-03-02"}
    assert session.scalars(select(GoldRevision)).one().provenance["fields"] == {
        "title": "annotator:Ann", "authors": "annotator:Bob", "published": "typed"}
    session.rollback()
    again = rev.get(f"/adjudication/{page_id}").get_data(as_text=True)  # adjudicated: the gold's values start chosen
    assert [json.loads(v).get("value") for v, checked in radios(again, "published") if checked] == ["2024-03-02"]


@pytest.mark.settings(OVERLAP=2)
def test_the_agreement_page_and_api_give_each_fields_agreement_beside_the_text(app, session, client, runner, page_id):
    other = make_page(session, url="https://news.example/other").id
    ann, bob = app.test_client(), app.test_client()
    ann_token, bob_token = sign_in(ann, "Ann"), sign_in(bob, "Bob")
    post(ann, ann_token, page_id, metadata={"title": "Budget  approved", "authors": ["By Ann Lee", "Bo Chen"],
                                             "published": "2024-03-01T09:00"})
    post(bob, bob_token, page_id, text="Other text", metadata={"title": "Budget approved",
                                                                "authors": ["bo chen", "ann lee"],
                                                                "published": "2024-03-01"})
    post(ann, ann_token, other, metadata={"title": "A", "authors": None})
    post(bob, bob_token, other, text="Other", metadata={"title": "a", "published": "2024-01-01"})
    figures = client.get("/api/agreement").json
    assert figures["metadata"] == {"title": {"agreement": 0.5, "pairs": 2}, "authors": {"agreement": 1.0, "pairs": 1},
                                   "published": {"agreement": 1.0, "pairs": 1}}
    page = client.get("/agreement").get_data(as_text=True)
    assert re.search(r'data-field="title">50.0% \(2\)</td>', page)
    header, everything = runner.invoke(args=["agreement"]).output.splitlines()[:2]
    columns = dict(zip(header.split(), everything.split(), strict=True))
    assert (columns["same_title"], columns["same_authors"], columns["same_published"]) == ("0.5000", "1.0000", "1.0000")


def test_a_revision_made_without_metadata_keeps_the_records_as_a_request_for_changes_does(session, page_id):
    page = session.get(Page, page_id)
    add_revision(session, page, text="x", page_type="article", status="done", author="Ann", article_metadata=META)
    revision = apply_revision(session, page.gold, author="Rita", text="x", page_type="article", status="draft",
                              snippets=None, client_save_id=None)
    assert page.gold.article_metadata == META and revision.article_metadata == META
    session.rollback()
