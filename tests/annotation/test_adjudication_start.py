"""What the adjudication view's result starts from: the agreed lines and no type when the annotators
differ; the gold once the page has one."""

from __future__ import annotations

import pytest
from lxml import html
from workbench import add_gold, make_page, sign_in

from webapp.annotation.annotations import save_annotation

pytestmark = pytest.mark.settings(OVERLAP=2)


def result_of(client, page_id: int):
    doc = html.fromstring(client.get(f"/adjudication/{page_id}").get_data(as_text=True))
    return doc.get_element_by_id("result-text").text_content().strip("\n"), \
        doc.xpath("//select[@id='result-type']/option[@selected]/@value"), doc


def test_the_result_starts_from_the_agreed_lines_with_no_type_chosen(app, session):
    found = make_page(session)
    save_annotation(session, found, "Ann", base_version=0, text="Title\nMenu\nBody", page_type="article", status="done")
    save_annotation(session, found, "Bob", base_version=0, text="Title\nBody\nFooter", page_type="forum", status="done")
    session.commit()
    client = app.test_client()
    sign_in(client, "Rita")
    text, selected, doc = result_of(client, found.id)
    assert (text, selected) == ("Title\nBody", [""])
    assert "2 lines are disputed" in " ".join(doc.get_element_by_id("consensus-notice").text_content().split())


def test_a_page_with_gold_starts_from_its_gold(app, session):
    found = make_page(session)
    for name in ("Ann", "Bob"):
        save_annotation(session, found, name, base_version=0, text=f"Title\n{name}", page_type="forum", status="done")
    add_gold(session, found, text="Title\nAnn\nBob", page_type="product", status="done", author="Rita")
    session.commit()
    client = app.test_client()
    sign_in(client, "Rita")
    text, selected, doc = result_of(client, found.id)
    assert (text, selected) == ("Title\nAnn\nBob", ["product"])
    assert not doc.xpath("//*[@id='consensus-notice']")
