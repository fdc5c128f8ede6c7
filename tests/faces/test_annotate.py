"""The annotate view, the gold save API (versions, conflicts, retries), history and restore, the name."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import select
from workbench import add_gold, csrf, make_page, page_data, sign_in

from webapp.annotation.gold import add_revision
from webapp.models import Extraction, GoldRevision, Page


@pytest.fixture
def page_id(session):
    return make_page(
        session,
        url="https://news.example/a",
        candidates={"density": "Dense text", "trafilatura": "Prefilled text", "boilerpy3": "Boiler"},
    ).id


def save(client, token, page_id, text="Gold", version=0, save_id="s1", **extra):
    body = {"text": text, "type": "article", "status": "done", "version": version, "client_save_id": save_id}
    return client.post(f"/api/pages/{page_id}/gold", json=body | extra, headers={"X-CSRF-Token": token})


def test_the_annotate_view_asks_for_a_name_first(client, page_id):
    response = client.get(f"/pages/{page_id}")
    assert response.status_code == 302 and response.location.startswith("/annotator?next=")
    token = csrf(client)
    answered = client.post("/annotator", data={"name": "  Ann   Lee ", "csrf_token": token,
                                                "next": f"/pages/{page_id}"})
    assert answered.location == f"/pages/{page_id}"
    assert "Ann Lee" in client.get(f"/pages/{page_id}").get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example"])
def test_the_name_form_redirects_only_within_the_site(client, target):
    token = csrf(client)
    response = client.post("/annotator", data={"name": "Ann", "csrf_token": token, "next": target})
    assert response.location == "/"


def test_an_empty_name_is_asked_again(client):
    token = csrf(client)
    response = client.post("/annotator", data={"name": "   ", "csrf_token": token})
    assert response.status_code == 200 and "Please give a name" in response.get_data(as_text=True)


def test_first_visit_is_prefilled_from_the_default_extractor(client, session, page_id):
    sign_in(client)
    data = page_data(client.get(f"/pages/{page_id}"))
    assert [c["name"] for c in data["candidates"]] == ["trafilatura", "boilerpy3", "density"]
    start = data["editor"].pop("start")  # what the provenance of a save records it started from
    assert data["editor"] == {"text": "Prefilled text", "type": "article", "status": "done", "version": 0,
                              "prefilled_from": "trafilatura", "type_signal": "none"}
    fingerprint = session.scalars(select(Extraction.fingerprint).where(Extraction.extractor == "trafilatura")).one()
    assert start == {"prefill": {"source": "extractor", "name": "trafilatura", "fingerprint": fingerprint,
                                 "basis": "default"}, "lines": ["prefill"]}


@pytest.mark.settings(DEFAULT_EXTRACTOR="density")
def test_the_default_extractor_is_configurable_and_an_errored_one_does_not_prefill(app, client, session, page_id):
    sign_in(client)
    assert page_data(client.get(f"/pages/{page_id}"))["editor"]["text"] == "Dense text"
    session.scalars(select(Extraction).where(Extraction.extractor == "density")).one().error = "boom"
    session.commit()
    editor = page_data(client.get(f"/pages/{page_id}"))["editor"]
    assert editor["text"] == "" and editor["prefilled_from"] is None
    assert editor["start"] == {"prefill": {"source": "none"}, "lines": ["typed"]}


def test_a_page_with_gold_shows_the_gold(client, session, page_id):
    add_gold(session, session.get(Page, page_id), text="Saved", page_type="listing", status="draft", author="Bob")
    session.commit()
    sign_in(client)
    editor = page_data(client.get(f"/pages/{page_id}"))["editor"]
    assert (editor["text"], editor["type"], editor["status"], editor["version"]) == ("Saved", "listing", "draft", 1)


def test_the_newest_extraction_of_an_extractor_is_the_candidate(client, session, page_id):
    session.add(Extraction(page_id=page_id, extractor="trafilatura", fingerprint="trafilatura|2|{}",
                           text="Newer"))
    session.commit()
    sign_in(client)
    data = page_data(client.get(f"/pages/{page_id}"))
    assert [c["text"] for c in data["candidates"] if c["name"] == "trafilatura"] == ["Newer"]


@pytest.mark.parametrize("saved", [False, True], ids=["first-visit", "with-gold"])
def test_the_api_opens_a_page_as_the_annotate_view_does(client, session, page_id, saved):
    """GET /api/pages/<id>/editor answers the state the annotate view's editor starts from (one use case,
    usecases/open_page.py): the prefill and its reason on a first visit, the gold once there is one."""
    if saved:
        add_gold(session, session.get(Page, page_id), text="Saved", page_type="listing", status="draft", author="Bob")
        session.commit()
    sign_in(client)
    shown = page_data(client.get(f"/pages/{page_id}"))
    answered = client.get(f"/api/pages/{page_id}/editor")
    assert answered.status_code == 200
    body = answered.get_json()
    assert {key: body[key] for key in ("editor", "prefill", "boilerplate")} == {
        key: shown[key] for key in ("editor", "prefill", "boilerplate")}
    assert (body["page_id"], body["blind"]) == (page_id, False)
    assert body["editor"]["text"] == ("Saved" if saved else "Prefilled text")
    assert (body["prefill"] is None) == saved
    assert set(body["metadata"]) >= {"start", "origins", "candidates", "expected"}
    assert client.get("/api/pages/999/editor").status_code == 404


def test_unknown_page_is_404(client):
    sign_in(client)
    assert client.get("/pages/999").status_code == 404
    assert client.get("/pages/999/history").status_code == 404


def revisions(session, page_id):
    """(text, author, version, client save id) of the page's revisions, read in a transaction that ends
    at once (every SQLite transaction takes the write lock)."""
    session.expire_all()
    found = [(r.text, r.author, r.version, r.client_save_id) for r in session.get(Page, page_id).gold.revisions]
    session.rollback()
    return found


def gold_text(session, page_id):
    text = session.get(Page, page_id).gold.text
    session.rollback()
    return text


def test_save_applies_and_bumps_the_version(client, session, page_id):
    token = sign_in(client, "Ann")
    first = save(client, token, page_id, "One", version=0, save_id="a")
    second = save(client, token, page_id, "Two", version=1, save_id="b", type="listing", status="draft")
    assert (first.status_code, first.json["version"]) == (200, 1)
    assert (second.status_code, second.json["version"]) == (200, 2)
    gold = session.get(Page, page_id).gold
    session.refresh(gold)
    assert (gold.text, gold.page_type, gold.status, gold.author, gold.version) == ("Two", "listing", "draft", "Ann", 2)
    assert [(r[0], r[3]) for r in revisions(session, page_id)] == [("One", "a"), ("Two", "b")]


def test_a_save_records_its_facts_on_its_revision_and_a_save_without_them_records_none(client, session, page_id):
    token = sign_in(client, "Ann")
    facts = {"provenance": {"prefill": {"source": "extractor", "name": "trafilatura"}, "lines": ["prefill"]},
             "effort": {"active_seconds": 12}, "guideline_version": 3}
    assert save(client, token, page_id, "One", save_id="a", **facts).status_code == 200
    assert save(client, token, page_id, "Two", version=1, save_id="b").status_code == 200
    first, second = session.scalars(select(GoldRevision).order_by(GoldRevision.id)).all()
    assert (first.provenance, first.effort) == (facts["provenance"], facts["effort"])
    assert (second.provenance, second.effort) == (None, None)
    # the guideline version is the server's: the article guideline in force (the shipped one), not the body's
    assert (first.guideline_version, second.guideline_version) == (1, 1)


def test_a_retried_save_is_applied_once(client, session, page_id):
    token = sign_in(client)
    first = save(client, token, page_id, "Once", save_id="retry-me")
    again = save(client, token, page_id, "Once", save_id="retry-me")
    assert first.status_code == again.status_code == 200
    assert again.json["replayed"] is True and again.json["version"] == 1
    assert len(revisions(session, page_id)) == 1


def test_a_stale_save_gets_409_with_the_other_text_and_both_are_kept(app, session, page_id):
    ann, bob = app.test_client(), app.test_client()
    ann_token, bob_token = sign_in(ann, "Ann"), sign_in(bob, "Bob")
    assert save(ann, ann_token, page_id, "Ann's text", version=0, save_id="ann").status_code == 200
    stale = save(bob, bob_token, page_id, "Bob's text", version=0, save_id="bob")
    assert stale.status_code == 409
    assert stale.json["current"]["text"] == "Ann's text" and stale.json["current"]["version"] == 1
    assert stale.json["current"]["author"] == "Ann"
    assert [r[:2] for r in revisions(session, page_id)] == [("Ann's text", "Ann"), ("Bob's text", "Bob")]
    assert gold_text(session, page_id) == "Ann's text"
    assert save(bob, bob_token, page_id, "Bob's text", version=0, save_id="bob").status_code == 409
    kept = save(bob, bob_token, page_id, "Bob's text", version=1, save_id="bob-2")
    assert kept.status_code == 200 and kept.json["version"] == 2


@pytest.mark.parametrize(
    "change",
    [
        {"text": None}, {"text": 3}, {"version": "1"}, {"version": True}, {"type": "poem"}, {"status": "lost"},
        {"client_save_id": ""}, {"client_save_id": "x" * 65}, {"version": 5}, {"version": -1},
        {"provenance": "prefill"}, {"effort": [1]}, {"guideline_version": "2"}, {"guideline_version": True},
    ],
)
def test_a_malformed_save_is_400_and_stores_nothing(client, session, page_id, change):
    token = sign_in(client)
    body = {"text": "t", "type": "article", "status": "done", "version": 0, "client_save_id": "c"} | change
    response = client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})
    assert response.status_code == 400 and response.json["message"]
    assert session.get(Page, page_id).gold is None


def test_a_save_that_is_not_json_is_400(client, page_id):
    token = sign_in(client)
    response = client.post(f"/api/pages/{page_id}/gold", data="text", headers={"X-CSRF-Token": token})
    assert response.status_code == 400


def test_a_save_without_a_name_is_400(client, page_id):
    token = csrf(client)
    assert save(client, token, page_id).status_code == 400


def test_a_save_to_a_missing_page_is_404(client):
    token = sign_in(client)
    response = save(client, token, 999)
    assert response.status_code == 404 and response.json["error"] == "Not Found"


def test_a_non_article_needs_no_text(client, session, page_id):
    token = sign_in(client)
    assert save(client, token, page_id, "", type="wall").status_code == 200
    assert session.get(Page, page_id).gold.page_type == "wall"


def test_read_gold(client, page_id):
    token = sign_in(client)
    assert client.get(f"/api/pages/{page_id}/gold").json["version"] == 0
    save(client, token, page_id, "Read me")
    assert client.get(f"/api/pages/{page_id}/gold").json["text"] == "Read me"
    assert client.get("/api/pages/999/gold").status_code == 404


def test_history_lists_revisions_and_marks_stale_saves(app, client, page_id):
    token = sign_in(client, "Ann")
    save(client, token, page_id, "First", version=0, save_id="1")
    save(client, token, page_id, "Late", version=0, save_id="2")
    text = client.get(f"/pages/{page_id}/history").get_data(as_text=True)
    data = json.loads(re.search(r'id="revisions"[^>]*>(.*?)</script>', text, re.S).group(1))
    assert [(r["text"], r["applied"]) for r in data] == [("Late", False), ("First", True)]
    assert "stale save" in text


def test_restore_makes_an_old_revision_current_as_a_new_one(client, session, page_id):
    token = sign_in(client, "Ann")
    save(client, token, page_id, "Old", version=0, save_id="1")
    save(client, token, page_id, "New", version=1, save_id="2")
    old = session.scalars(select(GoldRevision.id).where(GoldRevision.text == "Old")).one()
    session.rollback()
    response = client.post(f"/pages/{page_id}/history/{old}/restore", data={"csrf_token": token})
    assert response.status_code == 302
    assert [(r[0], r[2]) for r in revisions(session, page_id)] == [("Old", 1), ("New", 2), ("Old", 3)]
    assert gold_text(session, page_id) == "Old"


def test_restore_of_another_pages_revision_is_404(client, session, page_id):
    token = sign_in(client)
    other = make_page(session, html="<p>other</p>")
    save(client, token, other.id, "Other", save_id="o")
    rev = session.scalars(select(GoldRevision.id)).one()
    session.rollback()
    assert client.post(f"/pages/{page_id}/history/{rev}/restore", data={"csrf_token": token}).status_code == 404
    assert client.post(f"/pages/{page_id}/history/999/restore", data={"csrf_token": token}).status_code == 404


def test_candidates_carry_their_cached_scores_against_the_saved_gold(client, session, page_id):
    token = sign_in(client)
    assert save(client, token, page_id, text="Dense text here").status_code == 200
    candidates = {c["name"]: c for c in page_data(client.get(f"/pages/{page_id}"))["candidates"]}
    tokens = candidates["density"]["saved_scores"]["tokens"]
    # "dense text" against "dense text here": hit 2, precision 2/2, recall 2/3
    assert tokens["precision"] == 1.0 and tokens["recall"] == pytest.approx(2 / 3)
    assert candidates["boilerpy3"]["saved_scores"]["tokens"]["f1"] == 0.0


OLDER = re.compile(r'<a rel="next" href="([^"]+)">Older revisions</a>')


def history_of(client, url):
    """(text, version, applied) of the revisions a history page shows, its "Older revisions" link (or
    None), and its text."""
    text = client.get(url).get_data(as_text=True)
    found = re.search(r'id="revisions"[^>]*>(.*?)</script>', text, re.S)
    rows = json.loads(found.group(1)) if found else []
    older = OLDER.search(text)
    shown = [(r["text"], r["version"], r["applied"]) for r in rows]
    return shown, html.unescape(older.group(1)) if older else None, text


def stale_marks(text):
    return text.count("<td>stale save</td>")


@pytest.mark.parametrize("count, sizes", [(50, [50]), (51, [50, 1]), (101, [50, 50, 1])])
def test_history_is_paged_newest_first_50_at_a_time(client, session, page_id, count, sizes):
    page = session.get(Page, page_id)
    for n in range(1, count + 1):
        add_revision(session, page, text=f"r{n}", page_type="article", status="done", author="Ann")
    session.commit()
    url, shown, pages = f"/pages/{page_id}/history", [], []
    while url is not None:
        rows, older, text = history_of(client, url)
        assert ("Newest revisions" in text) == bool(pages)  # every page but the first leads back
        pages.append(len(rows))
        shown += rows
        if older is not None:
            assert older == f"/pages/{page_id}/history?before={rev_id(session, rows[-1][0])}"
        url = older
    assert pages == sizes
    assert shown == [(f"r{n}", n, True) for n in range(count, 0, -1)]


def rev_id(session, text):
    found = session.scalars(select(GoldRevision.id).where(GoldRevision.text == text)).one()
    session.rollback()
    return found


def test_a_stale_save_is_shown_as_not_applied_on_whichever_history_page_it_lands(app, client, page_id):
    ann, bob = client, app.test_client()
    ann_token, bob_token = sign_in(ann, "Ann"), sign_in(bob, "Bob")
    version = 0

    def applied(n):
        nonlocal version
        assert save(ann, ann_token, page_id, f"r{n}", version=version, save_id=f"a{n}").status_code == 200
        version += 1

    for n in range(1, 5):
        applied(n)  # revisions 1-4: versions 1-4
    assert save(bob, bob_token, page_id, "stale-old", version=2, save_id="b1").status_code == 409  # revision 5
    for n in range(6, 11):
        applied(n)  # revisions 6-10: versions 5-9
    assert save(bob, bob_token, page_id, "stale-new", version=3, save_id="b2").status_code == 409  # revision 11
    for n in range(12, 61):
        applied(n)  # revisions 12-60: versions 10-58
    newest, older, text = history_of(client, f"/pages/{page_id}/history")
    assert len(newest) == 50 and newest[-1] == ("stale-new", 3, False)  # stale against versions on the next page
    assert all(flag for _, _, flag in newest[:-1]) and newest[-2] == ("r12", 10, True)
    assert stale_marks(text) == 1 and "edited v3" in text
    rest, last, text = history_of(client, older)
    assert last is None and len(rest) == 10
    assert [(t, flag) for t, _, flag in rest] == (
        [(f"r{n}", True) for n in range(10, 5, -1)]
        + [("stale-old", False)]
        + [(f"r{n}", True) for n in range(4, 0, -1)]
    )
    assert rest[5] == ("stale-old", 2, False) and stale_marks(text) == 1 and "edited v2" in text


def test_a_retried_save_after_many_revisions_answers_from_the_revision_it_made(app, client, session, page_id):
    ann, bob = client, app.test_client()
    ann_token, bob_token = sign_in(ann, "Ann"), sign_in(bob, "Bob")
    early = save(ann, ann_token, page_id, "Early", version=0, save_id="early")
    for n in range(1, 61):
        assert save(ann, ann_token, page_id, f"r{n}", version=n, save_id=f"a{n}").status_code == 200
    stale = save(bob, bob_token, page_id, "Stale", version=30, save_id="stale")
    for n in range(61, 66):
        assert save(ann, ann_token, page_id, f"r{n}", version=n, save_id=f"a{n}").status_code == 200
    stored = len(revisions(session, page_id))
    assert stored == 67 and stale.status_code == 409

    again = save(ann, ann_token, page_id, "Early", version=0, save_id="early")
    assert again.status_code == 200
    assert again.json["replayed"] is True and again.json["version"] == 1
    assert again.json["revision"] == early.json["revision"] and again.json["current_version"] == 66
    stale_again = save(bob, bob_token, page_id, "Stale", version=30, save_id="stale")
    assert stale_again.status_code == 409 and stale_again.json["revision"] == stale.json["revision"]
    assert stale_again.json["current"]["text"] == "r65" and stale_again.json["current"]["version"] == 66
    middle = save(ann, ann_token, page_id, "r30", version=30, save_id="a30")
    assert middle.status_code == 200 and middle.json["version"] == 31 and middle.json["replayed"] is True

    assert len(revisions(session, page_id)) == stored
    assert gold_text(session, page_id) == "r65"
