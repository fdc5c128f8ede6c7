"""A gold is Markdown: a save keeps the Markdown and derives the plain text the metrics read; a save of text
alone still works; restore, adjudication and automatic adjudication carry the Markdown; the annotate view
says when a page carries two golds."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select
from workbench import add_gold, make_page, page_data, sign_in

from webapp.models import Gold, GoldRevision, Page
from webapp.results.agreement_figures import text_f1_by_page

MARKDOWN = ("# Council budget\n\nThe council met on *Monday*.\n\n- roads\n- schools\n\n"
            "| item | cost |\n| --- | --- |\n| roads | 5 |\n\n```python\nprint(1)\nprint(2)\n```")
PLAIN = "Council budget\nThe council met on Monday.\nroads\nschools\nitem cost\nroads 5\nprint(1)\nprint(2)"


@pytest.fixture
def page_id(session):
    return make_page(session, url="https://news.example/budget", candidates={"trafilatura": "Council budget"}).id


def save(client, token, page_id, version=0, save_id="s1", **body):
    sent = {"type": "article", "status": "done", "version": version, "client_save_id": save_id} | body
    return client.post(f"/api/pages/{page_id}/gold", json=sent, headers={"X-CSRF-Token": token})


def stored(session, page_id):
    session.rollback()  # a new snapshot of the database
    gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one()
    revision = session.scalars(select(GoldRevision).where(GoldRevision.gold_id == gold.id)
                               .order_by(GoldRevision.id.desc())).first()
    return gold, revision


def test_a_save_of_markdown_keeps_it_and_derives_the_plain_text_the_metrics_read(client, session, page_id):
    token = sign_in(client)
    assert save(client, token, page_id, markdown=MARKDOWN).status_code == 200
    gold, revision = stored(session, page_id)
    assert (gold.markdown, gold.text, gold.text_source) == (MARKDOWN, PLAIN, "derived")
    assert (revision.markdown, revision.text, revision.text_source) == (MARKDOWN, PLAIN, "derived")
    read = client.get(f"/api/pages/{page_id}/gold").json
    assert (read["markdown"], read["text"], read["text_source"]) == (MARKDOWN, PLAIN, "derived")
    candidates = {c["name"]: c for c in page_data(client.get(f"/pages/{page_id}"))["candidates"]}
    tokens = candidates["trafilatura"]["saved_scores"]["tokens"]
    assert tokens["precision"] == 1.0 and tokens["recall"] == pytest.approx(2 / 17)  # of the plain text's 17 words


def test_a_save_of_markdown_and_text_takes_the_markdown_and_derives_the_text(client, session, page_id):
    token = sign_in(client)
    assert save(client, token, page_id, markdown="## Two\n\nwords", text="something else").status_code == 200
    gold, _ = stored(session, page_id)
    assert (gold.markdown, gold.text, gold.text_source) == ("## Two\n\nwords", "Two\nwords", "derived")


def test_a_save_of_text_alone_keeps_the_text_and_escapes_its_markdown(client, session, page_id):
    token = sign_in(client)
    text = "# not a heading\n*not emphasis*\n1. not a list"
    assert save(client, token, page_id, text=text).status_code == 200
    gold, revision = stored(session, page_id)
    assert (gold.text, gold.text_source, revision.text_source) == (text, "flat", "flat")
    assert gold.markdown == "\\# not a heading\n\n\\*not emphasis\\*\n\n1\\. not a list"


def test_a_save_with_neither_markdown_nor_text_is_refused(client, session, page_id):
    token = sign_in(client)
    refused = save(client, token, page_id)
    assert refused.status_code == 400 and "'markdown'" in refused.json["message"]
    assert session.scalars(select(Gold)).first() is None


@pytest.mark.settings(GOLD_MAX_BYTES=60)
def test_the_size_limit_applies_to_the_markdown(client, session, page_id):
    token = sign_in(client)
    heavy = "[word](https://example.com/a-very-long-address-that-is-not-text-at-all)"
    refused = save(client, token, page_id, markdown=heavy)
    assert refused.status_code == 413 and "Markdown is 71 bytes" in refused.json["message"]
    assert save(client, token, page_id, markdown="[word](https://e.example/)").status_code == 200


def test_a_provenance_names_one_origin_per_line_of_the_markdown_saved(client, session, page_id):
    token = sign_in(client)
    lines = MARKDOWN.split("\n")
    provenance = {"prefill": {"source": "none"}, "lines": ["typed"] * len(PLAIN.split("\n"))}
    refused = save(client, token, page_id, markdown=MARKDOWN, provenance=provenance)
    assert refused.status_code == 400 and f"for a text of {len(lines)} lines" in refused.json["message"]
    provenance["lines"] = ["typed"] * len(lines)
    assert save(client, token, page_id, markdown=MARKDOWN, provenance=provenance).status_code == 200
    assert stored(session, page_id)[1].provenance == provenance


def test_restore_brings_back_the_markdown_and_where_its_text_came_from(client, session, page_id):
    token = sign_in(client)
    save(client, token, page_id, markdown=MARKDOWN)
    save(client, token, page_id, version=1, save_id="s2", text="Flat text only")
    first = session.scalars(select(GoldRevision.id).order_by(GoldRevision.id)).first()
    session.rollback()
    assert client.post(f"/pages/{page_id}/history/{first}/restore", data={"csrf_token": token}).status_code == 302
    gold, revision = stored(session, page_id)
    assert (gold.version, gold.markdown, gold.text, gold.text_source) == (3, MARKDOWN, PLAIN, "derived")
    assert (revision.markdown, revision.text_source) == (MARKDOWN, "derived")


def test_the_annotate_view_says_when_a_page_carries_two_golds(client, session, page_id):
    page = session.get(Page, page_id)
    add_gold(session, page, text="Budget\nroads schools", markdown="# Budget\n\n- roads\n- schools\n\nA table row",
             page_type="article", status="done", author="import")
    session.commit()
    sign_in(client)
    view = client.get(f"/pages/{page_id}").get_data(as_text=True)
    notice = view.split('id="two-golds-notice">')[1].split("</p>")[0]
    assert "two golds" in notice and "1 of its lines are not in the Markdown" in notice
    assert "3 of its lines are not in the plain text" in notice
    assert page_data(client.get(f"/pages/{page_id}"))["editor"]["text"].startswith("# Budget")  # it edits Markdown


def test_the_annotate_view_shows_where_the_two_golds_differ_line_by_line(client, session, page_id):
    page = session.get(Page, page_id)
    add_gold(session, page, text="Budget\nroads schools\n<b>Note</b> kept", markdown="# Budget\n\n- roads\n- schools",
             page_type="article", status="done", author="import")
    session.commit()
    sign_in(client)
    view = client.get(f"/pages/{page_id}").get_data(as_text=True)
    shown = view.split('id="two-golds-diff">')[1].split("</details>")[0].split('<div class="diff">')[1]
    # the given text's own lines deleted, the Markdown's own lines inserted, the shared line as context;
    # a line of the given text is shown as text (escaped), never as markup
    assert [line for line in shown.split("\n") if line.strip()][:5] == [
        "<span>Budget</span>", "<del>roads schools</del>", "<del>&lt;b&gt;Note&lt;/b&gt; kept</del>",
        "<ins>roads</ins>", "<ins>schools</ins>"]


def test_one_gold_given_as_text_alone_or_as_markdown_alone_shows_no_notice(client, session, page_id):
    add_gold(session, session.get(Page, page_id), text="Budget", page_type="article", status="done", author="a")
    session.commit()
    sign_in(client)
    assert "two-golds-notice" not in client.get(f"/pages/{page_id}").get_data(as_text=True)
    add_gold(session, session.get(Page, page_id), markdown="# Budget", page_type="article", status="done", author="a")
    session.commit()
    assert "two-golds-notice" not in client.get(f"/pages/{page_id}").get_data(as_text=True)


@pytest.mark.settings(OVERLAP=2)
def test_identical_markdown_annotations_settle_into_a_markdown_gold(app, session, page_id):
    ann, bob = app.test_client(), app.test_client()
    ann_token, bob_token = sign_in(ann, "Ann"), sign_in(bob, "Bob")
    save(ann, ann_token, page_id, markdown=MARKDOWN)
    save(bob, bob_token, page_id, markdown="# Council budget\n\nThe council met on Monday.")
    assert session.scalars(select(Gold)).first() is None  # not the same Markdown: no gold yet
    session.rollback()
    settled = save(bob, bob_token, page_id, version=1, save_id="s2", markdown=MARKDOWN)
    assert settled.status_code == 200, settled.json
    gold, revision = stored(session, page_id)
    assert (gold.markdown, gold.text, gold.text_source, gold.author) == (MARKDOWN, PLAIN, "derived", "system")
    assert revision.note == "Adjudicated automatically: Ann and Bob agree exactly."


@pytest.mark.settings(OVERLAP=2)
def test_a_reviewer_adjudicates_with_markdown_and_the_agreement_reads_the_plain_text(app, session, page_id):
    ann, bob, rev = app.test_client(), app.test_client(), app.test_client()
    ann_token, bob_token, rev_token = sign_in(ann, "Ann"), sign_in(bob, "Bob"), sign_in(rev, "Rita")
    save(ann, ann_token, page_id, markdown="# Council budget\n\nThe council met.")
    save(bob, bob_token, page_id, markdown="Council budget\n\nThe *council* met.")
    view = rev.get(f"/adjudication/{page_id}").get_data(as_text=True)
    assert "The *council* met." in view  # each annotation's Markdown is in the page's data
    assert text_f1_by_page(session, [page_id]) == {page_id: 1.0}  # the same plain text: they agree on the words
    session.rollback()
    form = {"csrf_token": rev_token, "version": "0", "markdown": "## Council budget\r\n\r\nThe council met.",
            "text": "ignored", "type": "article", "status": "done", "note": "Ann's heading, one level down."}
    assert rev.post(f"/adjudication/{page_id}", data=form).status_code == 302
    gold, revision = stored(session, page_id)
    assert (gold.markdown, gold.text, gold.text_source) == ("## Council budget\n\nThe council met.",
                                                            "Council budget\nThe council met.", "derived")
    assert revision.note == "Ann's heading, one level down."


def test_the_history_says_where_each_revisions_text_came_from(client, session, page_id):
    token = sign_in(client)
    save(client, token, page_id, markdown=MARKDOWN)
    save(client, token, page_id, version=1, save_id="s2", text="Flat text only")
    shown = client.get(f"/pages/{page_id}/history").get_data(as_text=True)
    rows = json.loads(shown.split('id="revisions"')[1].split(">", 1)[1].split("</script>")[0])
    assert [(r["text_source"], r["markdown"]) for r in rows] == [("flat", "Flat text only"), ("derived", MARKDOWN)]
    assert "(the plain text is the Markdown&#39;s, derived from it)" in shown
