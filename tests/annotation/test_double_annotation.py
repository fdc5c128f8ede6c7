"""Double annotation (OVERLAP 2): blind saves of each annotator's own annotation, the annotator's queue and
explicit assignment, automatic and reviewer adjudication, the reviewed list, the annotators' noise on the
leaderboard, and exports carrying the annotations."""

from __future__ import annotations

import json

import pytest
from pytest import approx
from sqlalchemy import select, text
from workbench import add_gold, gold_before_accounts, make_page, sign_in

from webapp.annotation.annotations import save_annotation
from webapp.annotation.page_queue import own_queue
from webapp.foundation.engine import make_engine
from webapp.foundation.migrate import upgrade
from webapp.models import Annotation, AnnotationRevision, Gold, GoldRevision

TEXT_A = "The council met on Monday.\nIt approved the budget."
TEXT_B = "The council met on Monday.\nIt approved the new budget.\nRead more"


pytestmark = pytest.mark.settings(OVERLAP=2)


@pytest.fixture
def page_id(session):
    return make_page(session, url="https://news.example/council",
                     candidates={"trafilatura": TEXT_A, "density": "The council met."}).id


def client_of(app, name):
    client = app.test_client()
    return client, sign_in(client, name)


def save(client, token, page_id, body_text, version=0, save_id="s1", page_type="article", status="done"):
    body = {"text": body_text, "type": page_type, "status": status, "version": version, "client_save_id": save_id}
    return client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})


def test_annotators_are_blind_to_each_other_until_adjudication(app, session, page_id):
    ann, ann_token = client_of(app, "Ann")
    bob, _ = client_of(app, "Bob")
    saved = save(ann, ann_token, page_id, TEXT_A)
    assert saved.status_code == 200 and saved.json["version"] == 1
    assert session.scalar(select(Gold).where(Gold.page_id == page_id)) is None  # no gold, no scores
    assert ann.get(f"/api/pages/{page_id}/gold").json["text"] == TEXT_A
    theirs = bob.get(f"/api/pages/{page_id}/gold").json
    assert theirs["text"] == "" and theirs["version"] == 0
    assert "It approved the budget." not in bob.get(f"/pages/{page_id}").get_data(as_text=True).split("candidates")[0]
    view = bob.get(f"/pages/{page_id}").get_data(as_text=True)
    assert "No annotation of yours yet" in view and 'id="blind-notice"' in view
    assert bob.get(f"/api/pages/{page_id}/scores").json == {}


def test_an_annotators_own_saves_keep_versions_conflicts_and_retries(app, session, page_id):
    ann, token = client_of(app, "Ann")
    assert save(ann, token, page_id, "first", save_id="a").status_code == 200
    retry = save(ann, token, page_id, "first", save_id="a")
    assert retry.status_code == 200 and retry.json["replayed"] is True
    assert save(ann, token, page_id, "second", version=1, save_id="b").json["version"] == 2
    stale = save(ann, token, page_id, "from an old tab", version=1, save_id="c")
    assert stale.status_code == 409 and stale.json["current"]["text"] == "second"
    mine = session.scalars(select(Annotation)).one()
    assert (mine.author, mine.text, mine.version) == ("Ann", "second", 2)
    revisions = session.scalars(select(AnnotationRevision.text).order_by(AnnotationRevision.id)).all()
    assert revisions == ["first", "second", "from an old tab"]


def test_identical_annotations_are_adjudicated_automatically(app, session, page_id):
    ann, ann_token = client_of(app, "Ann")
    bob, bob_token = client_of(app, "Bob")
    save(ann, ann_token, page_id, TEXT_A + "\n")
    assert save(bob, bob_token, page_id, TEXT_A).status_code == 200
    gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one()
    assert gold.text.strip() == TEXT_A and gold.author == "system"  # not Bob, whose save happened to complete it
    assert gold.note == "Adjudicated automatically: Ann and Bob agree exactly."
    session.rollback()  # the test's session writes: it holds SQLite's write lock until it ends
    assert ann.get(f"/api/pages/{page_id}/scores").json  # scored against the gold now
    refused = save(ann, ann_token, page_id, "a late change", version=1, save_id="late")
    assert refused.status_code == 423 and "adjudicated" in refused.json["message"]
    reviewed = ann.get("/reviewed").get_data(as_text=True)
    assert "Adjudicated automatically" in reviewed and "the gold is your text" in reviewed


def test_a_reviewer_adjudicates_a_disagreement_and_annotators_see_the_outcome(app, session, page_id):
    ann, ann_token = client_of(app, "Ann")
    bob, bob_token = client_of(app, "Bob")
    rev, rev_token = client_of(app, "Rita")
    save(ann, ann_token, page_id, TEXT_A)
    save(bob, bob_token, page_id, TEXT_B, status="draft")
    assert f"/adjudication/{page_id}" not in rev.get("/adjudication").get_data(as_text=True)  # a draft: not complete
    save(bob, bob_token, page_id, TEXT_B, version=1, save_id="s2")
    queue = rev.get("/adjudication").get_data(as_text=True)
    assert f"/adjudication/{page_id}" in queue and "Ann, Bob" in queue
    view = rev.get(f"/adjudication/{page_id}").get_data(as_text=True)
    assert "It approved the new budget." in view and "It approved the budget." in view
    result = "The council met on Monday.\nIt approved the new budget."
    form = {"csrf_token": rev_token, "version": "0", "text": result, "type": "article", "status": "done",
            "note": "Bob's wording; <Read more> is a link, not text.",
            "snippets": json.dumps({"with": ["new budget"], "without": ["Read more"]})}
    assert rev.post(f"/adjudication/{page_id}", data=form | {"snippets": '{"maybe": []}'}).status_code == 400
    done = rev.post(f"/adjudication/{page_id}", data=form)
    assert done.status_code == 302
    gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one()
    assert (gold.text, gold.author, gold.version) == (result, "Rita", 1)
    assert gold.snippets == {"with": ["new budget"], "without": ["Read more"]}
    assert session.scalars(select(GoldRevision.note)).one().startswith("Bob's wording")
    session.rollback()
    assert f"/adjudication/{page_id}" not in rev.get("/adjudication").get_data(as_text=True)
    reviewed = ann.get("/reviewed").get_data(as_text=True)
    assert "Bob&#39;s wording; &lt;Read more&gt; is a link" in reviewed  # the note, escaped
    data = json.loads(reviewed.split('id="reviewed-gold"')[1].split(">", 1)[1].split("</script>")[0])
    assert data == [result]
    again = rev.post(f"/adjudication/{page_id}", data={"csrf_token": rev_token, "version": "0", "text": "late",
                                                      "type": "article", "status": "done", "note": ""})
    assert again.status_code == 302 and session.scalars(select(Gold.text)).one() == result  # stale: kept, not applied


def test_the_review_queue_puts_the_most_disagreeing_page_first(app, session):
    close, far = make_page(session), make_page(session)
    for found, texts in ((close, ("a b c d", "a b c e")), (far, ("a b c d", "x y z"))):
        for name, body in zip(("Ann", "Bob"), texts):
            save_annotation(session, found, name, base_version=0, text=body, page_type="article", status="done")
    session.commit()
    queue = app.test_client().get("/adjudication").get_data(as_text=True)
    assert queue.index(f"/adjudication/{far.id}") < queue.index(f"/adjudication/{close.id}")


def test_the_annotators_queue_and_assignment(app, session, runner):
    pages = [make_page(session, host="news.example") for _ in range(3)]
    other = make_page(session, host="other.example")
    for name in ("Ann", "Bob"):
        save_annotation(session, pages[0], name, base_version=0, text="x", page_type="article", status="done")
    save_annotation(session, pages[1], "Ann", base_version=0, text="x", page_type="article", status="draft")
    session.commit()
    ids = [p.id for p in pages]
    mine = [row.page_id for row in own_queue(session, "Ann", 2)]
    assert ids[0] not in mine and ids[1] in mine  # finished: gone; a draft: still hers
    assert ids[0] not in [row.page_id for row in own_queue(session, "Cleo", 2)]  # both places taken
    other_id = other.id
    session.rollback()
    result = runner.invoke(args=["assign", "--site", "news.example", "--to", "Cleo", "--to", "Dan"])
    # pages[0] is full; pages[1] (Ann's draft) has one free place: Cleo's; pages[2] goes to both
    assert result.exit_code == 0 and "3 assignments made" in result.output
    cleo = own_queue(session, "Cleo", 2)
    assert {r.page_id for r in cleo[:2]} == {ids[1], ids[2]} and all(r.assigned for r in cleo[:2])
    assert [(r.page_id, r.assigned) for r in cleo[2:]] == [(other_id, False)]
    assert [r.page_id for r in own_queue(session, "Dan", 2)] == [ids[2], other_id]
    assert [r.page_id for r in own_queue(session, "Eve", 2)] == [other_id]  # every other place is held
    session.rollback()
    client, _ = client_of(app, "Cleo")
    queue = client.get("/").get_data(as_text=True)
    assert 'id="own-queue"' in queue and "assigned to you" in queue


def test_the_annotate_view_next_goes_to_the_next_page_that_needs_me(app, session):
    first, done, third = (make_page(session) for _ in range(3))
    save_annotation(session, done, "Ann", base_version=0, text="x", page_type="article", status="done")
    ids = [first.id, third.id]
    session.commit()
    client, _ = client_of(app, "Ann")
    response = client.get(f"/queue/step/{ids[0]}?dir=next")
    assert response.location.endswith(f"/pages/{ids[1]}")  # past the page she finished (it has no gold)


def test_the_leaderboard_and_head_to_head_mark_differences_within_annotator_noise(app, session, runner, client):
    # Annotators: "a b c d" against "a b c e": text F1 3/4, noise 1/4 on this page. Extractor "close"
    # extracts the gold (F1 1), "near" misses one of four words (F1 6/7): 14 points apart, within noise.
    found = make_page(session, candidates={"close": "a b c d", "near": "a b c"})
    for name, body in (("Ann", "a b c d"), ("Bob", "a b c e")):
        save_annotation(session, found, name, base_version=0, text=body, page_type="article", status="done")
    add_gold(session, found, text="a b c d", page_type="article", status="done", author="Rita")
    session.commit()
    result = runner.invoke(args=["compare", "close|1|{}", "near|1|{}", "--format", "json", "--bootstrap", "0"])
    assert result.exit_code == 0, result.output
    noise = json.loads(result.output)["noise"]
    assert noise == {"annotator_noise": approx(0.25), "pages": 1, "within": True}
    page = client.get("/leaderboard/compare?a=close|1|{}&b=near|1|{}&bootstrap=0").get_data(as_text=True)
    assert "within annotator noise" in page


def test_exports_carry_annotations_agreement_and_only_adjudicated_pages(app, session, runner, tmp_path):
    adjudicated, pending, single = make_page(session), make_page(session), make_page(session)
    for found in (adjudicated, pending):
        for name, body in (("Ann", "a b c d"), ("Bob", "a b c e")):
            save_annotation(session, found, name, base_version=0, text=body, page_type="article", status="done")
    add_gold(session, adjudicated, text="a b c d", page_type="article", status="done", author="Rita", note="Ann's")
    add_gold(session, single, text="solo", page_type="article", status="done", author="Sam")  # overlap-1 gold
    session.commit()
    out = tmp_path / "all"
    assert runner.invoke(args=["export", "--format", "jsonl", "--out", str(out), "--without-html"]).exit_code == 0
    lines = {r["id"]: r for r in map(json.loads, (out / "pages.jsonl").read_text().splitlines())}
    assert lines[adjudicated.id]["annotations"] == [
        {"author": "Ann", "text": "a b c d", "markdown": "a b c d", "text_source": "flat", "type": "article",
         "status": "done", "provenance": None,
         "effort": [], "lead_time": None, "guideline_version": None, "metadata": None},
        {"author": "Bob", "text": "a b c e", "markdown": "a b c e", "text_source": "flat", "type": "article",
         "status": "done", "provenance": None,
         "effort": [], "lead_time": None, "guideline_version": None, "metadata": None},
    ]
    assert lines[adjudicated.id]["gold"] == "a b c d" and lines[adjudicated.id]["gold_note"] == "Ann's"
    assert lines[single.id]["annotations"] == [] and lines[pending.id]["gold"] is None
    card = (out / "README.md").read_text()
    assert "On the 2 double-annotated pages (2 pairs of annotators)" in card
    assert "text F1 between annotators (`tokens`, mean per page): 0.750" in card
    assert "| Ann | 2 | 1 | 1.000 |" in card
    only = tmp_path / "adjudicated"
    result = runner.invoke(args=["export", "--format", "jsonl", "--out", str(only), "--adjudicated"])
    assert result.exit_code == 0
    assert [json.loads(line)["id"] for line in (only / "pages.jsonl").read_text().splitlines()] == [adjudicated.id]
    assert "--adjudicated" in (only / "README.md").read_text()


def test_the_migration_keeps_every_gold_and_revision(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'm.sqlite'}")
    gold_before_accounts(engine, "kept", ("Ann", "Bob"))
    upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT text, author, version, note FROM gold")).all() == [("kept", "Ann", 2, None)]
        assert conn.execute(text("SELECT author FROM gold_revision ORDER BY id")).scalars().all() == ["Ann", "Bob"]
    engine.dispose()
