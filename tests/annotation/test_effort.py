"""Effort recorded: a save's effort is checked and kept on its revision, the adjudication
records it too, the Effort page and /api/effort sum it per page by annotator, page type and prefill
source (medians computed by hand below), an annotator sees only their own, the annotate view shows the
annotator's pace, and the jsonl export carries each revision's effort."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import select
from workbench import add_account, add_gold, log_in, make_page, sign_in

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.annotation.effort_record import ACTIONS
from webapp.models import Gold, GoldRevision, Page

EFFORT = {"active_seconds": 42.5, "actions": {"block": 3, "typed_words": 4, "line_deletions": 1}}


def save(client, token, page_id, text="Gold", version=0, save_id="s1", **extra):
    body = {"text": text, "type": "article", "status": "done", "version": version, "client_save_id": save_id}
    return client.post(f"/api/pages/{page_id}/gold", json=body | extra, headers={"X-CSRF-Token": token})


def efforts(session, page_id) -> list:
    found = session.scalars(select(GoldRevision.effort).join(Gold).where(Gold.page_id == page_id)
                            .order_by(GoldRevision.id)).all()
    session.rollback()
    return found


@pytest.fixture
def page_id(session):
    return make_page(session, url="https://news.example/a", candidates={"trafilatura": "Prefilled"}).id


def test_a_save_keeps_its_effort_on_its_revision(client, session, page_id):
    token = sign_in(client)
    assert save(client, token, page_id, effort=EFFORT).status_code == 200
    assert save(client, token, page_id, "Two", version=1, save_id="s2").status_code == 200
    assert efforts(session, page_id) == [EFFORT, None]


@pytest.mark.parametrize(("effort", "named"), [
    ({"active_seconds": -1, "actions": {}}, "'effort'['active_seconds']: -1 is less than the minimum of 0 (the "
                                            "active seconds: a number from 0 to 86400)"),
    ({"active_seconds": 86401, "actions": {}}, "'effort'['active_seconds']: 86401 is greater than the maximum"),
    ({"active_seconds": "12", "actions": {}}, "'effort'['active_seconds']: '12' is not of type 'number'"),
    ({"actions": {"block": 1}}, "'effort': 'active_seconds' is a required property"),
    ({"active_seconds": 1, "actions": {"clicks": 2}}, "'effort'['actions']: 'clicks' is not one of ['block'"),
    ({"active_seconds": 1, "actions": {"block": -2}}, "'effort'['actions']['block']: -2 is less than the minimum "
                                                      "of 0 (a count: an integer from 0 to 1000000)"),
    ({"active_seconds": 1, "actions": {"block": 1.5}}, "'effort'['actions']['block']: 1.5 is not of type 'integer'"),
    ({"active_seconds": 1, "actions": {"take": True}}, "'effort'['actions']['take']: True is not of type 'integer'"),
    ({"active_seconds": 1, "actions": [1]}, "'effort'['actions']: [1] is not of type 'object'"),
    ({"active_seconds": 1, "actions": {}, "lead": 3}, "'effort': Additional properties are not allowed ('lead' was "
                                                      "unexpected)"),
])
def test_a_malformed_effort_is_400_naming_the_problem_and_stores_nothing(client, session, page_id, effort, named):
    token = sign_in(client)
    response = save(client, token, page_id, effort=effort)
    assert response.status_code == 400
    assert named in response.get_json()["message"]
    assert efforts(session, page_id) == []


def test_a_nan_effort_is_refused(client, session, page_id):
    token = sign_in(client)
    body = ('{"text": "Gold", "type": "article", "status": "done", "version": 0, "client_save_id": "n",'
            ' "effort": {"active_seconds": NaN, "actions": {}}}')
    response = client.post(f"/api/pages/{page_id}/gold", data=body, content_type="application/json",
                           headers={"X-CSRF-Token": token})
    assert response.status_code == 400 and "'effort'['active_seconds']: nan is not a 'finite'" in response.get_json()[
        "message"]


# Revisions with known effort, by page: (author, type, prefill source or None, seconds, actions).
REVISIONS = {
    "p1": [("Ann", "article", "extractor", 30, {"block": 3}), ("Ann", "article", None, 12, {"typed_words": 4}),
           ("Bob", "article", None, 50, {"range": 2})],
    "p2": [("Ann", "listing", "gold", 20, {"block": 1}), ("Carl", "listing", None, None, None)],
    "p3": [("Ann", "article", None, 100, {"take": 2, "typed_words": 10, "line_deletions": 1})],
    "p4": [("Bob", "article", "extractor", 10, {"widen": 1, "block": 1})],
}
# Per (page, annotator): Ann p1 42 s 7 actions, Ann p2 20 s 1, Ann p3 100 s 13, Bob p1 50 s 2, Bob p4 10 s 2;
# Carl's revision records no effort: not counted.


@pytest.fixture
def recorded(session) -> dict[str, int]:
    ids = {}
    for name, revisions in REVISIONS.items():
        page = make_page(session, url=f"https://news.example/{name}")
        ids[name] = page.id
        for author, page_type, prefill, seconds, actions in revisions:
            revision = add_gold(session, session.get(Page, page.id), text=f"{name} by {author}", page_type=page_type,
                                status="done", author=author)
            revision.provenance = {"prefill": {"source": prefill}, "lines": []} if prefill else None
            revision.effort = {"active_seconds": seconds, "actions": actions} if seconds is not None else None
    session.commit()
    return ids


def test_the_effort_figures_are_sums_per_page_with_medians_and_counts(client, recorded):
    figures = client.get("/api/effort").get_json()
    assert figures["all"]["pages"] == 5
    assert figures["all"]["seconds"] == {"total": 222.0, "median": 42.0}  # 10 20 42 50 100
    assert figures["all"]["actions"] == {"total": 25, "median": 2}  # 1 2 2 7 13
    assert figures["all"]["by_action"]["block"] == {"total": 5, "median": 1}  # 0 0 1 1 3
    by = figures["by"]
    assert {name: (f["pages"], f["seconds"]["median"], f["actions"]["median"]) for name, f in by["annotator"].items()} \
        == {"Ann": (3, 42.0, 7), "Bob": (2, 30.0, 2)}
    assert {name: (f["pages"], f["seconds"]["median"]) for name, f in by["type"].items()} \
        == {"article": (4, 46.0), "listing": (1, 20.0)}  # article: 10 42 50 100
    assert {name: (f["pages"], f["seconds"]["median"]) for name, f in by["prefill"].items()} \
        == {"extractor": (2, 26.0), "gold": (1, 20.0), "unknown": (2, 75.0)}
    ann_p1 = next(p for p in figures["pages"] if p["page"] == recorded["p1"] and p["annotator"] == "Ann")
    assert ann_p1 == {"page": recorded["p1"], "annotator": "Ann", "type": "article", "prefill": "extractor",
                      "seconds": 42.0, "actions": {"block": 3, "typed_words": 4}, "revisions": 2}
    assert "Carl" not in by["annotator"]


def test_the_effort_page_shows_the_figures(client, recorded):
    page = client.get("/effort").get_data(as_text=True)
    table = page.split('id="effort-by-annotator"')[1].split("</table>")[0]
    ann = re.search(r"<th scope=\"row\">Ann</th>(.*?)</tr>", table, re.S).group(1)
    assert re.findall(r"<td>(.*?)</td>", ann)[:5] == ["3", "0:42", "2:42", "7", "21"]
    assert 'id="effort-by-prefill"' in page and "unknown" in page


def test_the_effort_page_says_when_nothing_is_recorded(client):
    assert 'id="effort-empty"' in client.get("/effort").get_data(as_text=True)


def test_an_annotator_sees_only_their_own_effort_and_a_reviewer_everyones(app, session, recorded):
    for name, role in (("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rita", REVIEWER)):
        add_account(session, name, role)
    ann = app.test_client()
    log_in(ann, "Ann")
    own = ann.get("/api/effort").get_json()
    assert set(own["by"]["annotator"]) == {"Ann"} and {p["annotator"] for p in own["pages"]} == {"Ann"}
    assert own["all"]["pages"] == 3
    assert ann.get("/api/effort?annotator=Bob").status_code == 403
    assert ann.get("/effort?annotator=Bob").status_code == 403
    shown = ann.get("/effort").get_data(as_text=True)
    assert "Bob" not in shown.split("</header>")[1]
    rita = app.test_client()
    log_in(rita, "Rita")
    assert set(rita.get("/api/effort").get_json()["by"]["annotator"]) == {"Ann", "Bob"}
    assert set(rita.get("/api/effort?annotator=Bob").get_json()["by"]["annotator"]) == {"Bob"}
    assert 'href="/effort"' in rita.get("/effort").get_data(as_text=True)


def page_data(response) -> dict:
    text = response.get_data(as_text=True)
    return json.loads(re.search(r'id="page-data"[^>]*>(.*?)</script>', text, re.S).group(1))


@pytest.mark.settings(EFFORT_IDLE_SECONDS=45)
def test_the_annotate_view_gives_the_annotators_pace(client, recorded):
    sign_in(client, "Ann")
    data = page_data(client.get(f"/pages/{recorded['p1']}"))
    assert data["effort"] == {"idleSeconds": 45.0, "savedSeconds": 42.0, "medianSeconds": 42.0, "pages": 3,
                              "actions": list(ACTIONS)}
    sign_in(client, "Dora")
    assert page_data(client.get(f"/pages/{recorded['p1']}"))["effort"] == {
        "idleSeconds": 45.0, "savedSeconds": 0.0, "medianSeconds": None, "pages": 0, "actions": list(ACTIONS)}


@pytest.mark.settings(OVERLAP=2)
def test_the_adjudication_records_the_reviewers_effort_and_refuses_a_malformed_one(app, session, page_id):
    for name in ("Ann", "Bob"):
        client = app.test_client()
        assert save(client, sign_in(client, name), page_id, f"Text of {name}").status_code == 200
    rita = app.test_client()
    token = sign_in(rita, "Rita")
    form = {"csrf_token": token, "version": "0", "text": "Agreed", "type": "article", "status": "done", "note": ""}
    malformed = '{"active_seconds": 5, "actions": {"x": 1}}'
    refused = rita.post(f"/adjudication/{page_id}", data=form | {"effort": malformed})
    assert refused.status_code == 400 and "'effort'['actions']: 'x' is not one of" in html.unescape(
        refused.get_data(as_text=True))
    effort = {"active_seconds": 61.5, "actions": {"take": 2, "typed_words": 3}}
    assert rita.post(f"/adjudication/{page_id}", data=form | {"effort": json.dumps(effort)}).status_code == 302
    assert efforts(session, page_id) == [effort]
    reviewer = rita.get("/api/effort?annotator=Rita").get_json()
    assert reviewer["all"]["seconds"]["total"] == 61.5


def test_the_jsonl_export_carries_each_revisions_effort(cli, recorded, tmp_path):
    out = tmp_path / "export"
    cli("export", "--format", "jsonl", "--out", str(out), "--without-html")
    records = {r["url"]: r for r in map(json.loads, (out / "pages.jsonl").read_text().splitlines())}
    p1 = records["https://news.example/p1"]
    assert [(e["version"], e["author"], e["active_seconds"]) for e in p1["effort"]] == [
        (1, "Ann", 30.0), (2, "Ann", 12.0), (3, "Bob", 50.0)]
    assert p1["effort"][0]["actions"]["block"] == 3 and p1["effort"][0]["actions"]["take"] == 0
    assert p1["lead_time"] == 92.0
    p2 = records["https://news.example/p2"]
    assert [e["author"] for e in p2["effort"]] == ["Ann"] and p2["lead_time"] == 20.0


@pytest.mark.settings(OVERLAP=2)
def test_the_jsonl_export_carries_each_annotations_effort(app, cli, session, page_id, tmp_path):
    for name, seconds in (("Ann", 30), ("Bob", None)):
        client = app.test_client()
        effort = {"effort": {"active_seconds": seconds, "actions": {"block": 2}}} if seconds else {}
        assert save(client, sign_in(client, name), page_id, f"Text of {name}", **effort).status_code == 200
    out = tmp_path / "export"
    cli("export", "--format", "jsonl", "--out", str(out), "--without-html")
    [record] = map(json.loads, (out / "pages.jsonl").read_text().splitlines())
    ann, bob = record["annotations"]
    assert [(e["version"], e["author"], e["active_seconds"], e["actions"]["block"]) for e in ann["effort"]] == [
        (1, "Ann", 30.0, 2)]
    assert (ann["lead_time"], bob["effort"], bob["lead_time"]) == (30.0, [], None)
    assert (record["effort"], record["lead_time"]) == ([], None)
