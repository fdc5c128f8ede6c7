"""The metadata fields above the gold text, in Chromium at 1366x768: prefilled from the best candidate of each
field, an annotator fixes a wrong date with one key (the date shown as the page shows it and as stored), takes a
candidate's authors with a click, saves, reloads and sees them; then marks "no author" with the keys, saves and
sees it after a reload. The help lists the keys; the saved revisions record each field and where it came from."""

from __future__ import annotations

import pytest
from browser_fixtures import until
from sqlalchemy import select, update
from test_browser_block_takes import open_page
from workbench import make_page

from webapp.models import Extraction, Gold, GoldRevision

pytestmark = pytest.mark.browser

PAGE = ("<html><head><title>Ferries run again | Harbour News</title></head><body><h1>Ferries run again</h1>"
        "<p class='byline'>By Ann Lee and Bo Chen, 1 March 2024</p><p>The harbour ferries run again from Monday.</p>"
        "</body></html>")
TEXT = "Ferries run again\nThe harbour ferries run again from Monday."
WRONG = {"title": "Ferries run again", "authors": ["Ann Lee"], "published": "2024-03-11"}
RIGHT = {"title": "Ferries run again | Harbour News", "authors": ["Ann Lee", "Bo Chen"], "published": "2024-03-01"}


@pytest.fixture
def context(laptop):
    return laptop


def value(tab, field: str) -> str:
    return tab.evaluate(f"document.getElementById('metadata-{field}').value")


def saved(tab) -> None:
    try:
        until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version')")
    except AssertionError:
        raise AssertionError(tab.evaluate("document.getElementById('save-state').textContent")) from None


def test_an_annotator_fixes_the_date_with_one_key_takes_authors_and_marks_no_author(session, live_server, context):
    page_id = make_page(session, PAGE, url="https://news.example/ferries",
                        candidates={"trafilatura": TEXT, "density": TEXT}).id
    for name, metadata in (("trafilatura", WRONG), ("density", RIGHT)):
        session.execute(update(Extraction).where(Extraction.extractor == name).values(article_metadata=metadata))
    session.commit()
    tab = open_page(context, live_server, page_id)

    assert (value(tab, "title"), value(tab, "authors"), value(tab, "published")) == (
        "Ferries run again", "Ann Lee", "2024-03-11")  # the default extractor's, as the text's prefill
    assert "not found in the page's text" in tab.locator("#metadata-published-shown").inner_text()
    tab.keyboard.press("Shift+P")  # the next candidate's date: one key
    assert value(tab, "published") == "2024-03-01"
    assert tab.locator("#metadata-published-shown").inner_text() == (
        "on the page: “By Ann Lee and Bo Chen, 1 March 2024” · stored: 2024-03-01")
    tab.locator("#metadata-authors-candidates .metadata-candidate", has_text="density").click()
    assert value(tab, "authors") == "Ann Lee; Bo Chen"
    tab.keyboard.press("?")
    assert "fixes a wrong date with one key" in tab.locator("#help-table").inner_text()
    tab.keyboard.press("Escape")
    tab.keyboard.press("Control+s")
    saved(tab)

    tab.reload()
    until(tab, "document.body.dataset.ready === 'yes'")
    assert (value(tab, "title"), value(tab, "authors"), value(tab, "published")) == (
        "Ferries run again", "Ann Lee; Bo Chen", "2024-03-01")
    revision = session.scalars(select(GoldRevision).join(Gold).where(Gold.page_id == page_id)).one()
    metadata, fields = revision.article_metadata, revision.provenance["fields"]
    session.rollback()
    assert metadata == {"title": "Ferries run again", "authors": ["Ann Lee", "Bo Chen"],
                                         "published": "2024-03-01"}
    assert fields == {"title": "candidate:trafilatura", "authors": "candidate:density",
                                             "published": "candidate:density"}

    tab.keyboard.press("k")  # from the title to the authors
    tab.keyboard.press("z")  # none on the page: no author
    assert tab.locator("#metadata-authors-state").inner_text() == "none on the page"
    tab.keyboard.press("Control+s")
    saved(tab)
    tab.reload()
    until(tab, "document.body.dataset.ready === 'yes'")
    assert value(tab, "authors") == "" and tab.locator("#metadata-authors-state").inner_text() == "none on the page"
    metadata = session.scalars(select(Gold.article_metadata).where(Gold.page_id == page_id)).one()
    session.rollback()
    assert metadata == {"title": "Ferries run again", "authors": None, "published": "2024-03-01"}


def test_every_key_of_the_fields_does_what_the_help_says(session, live_server, context):
    page_id = make_page(session, PAGE, candidates={"trafilatura": TEXT, "density": TEXT}).id
    for name, metadata in (("trafilatura", WRONG), ("density", RIGHT)):
        session.execute(update(Extraction).where(Extraction.extractor == name).values(article_metadata=metadata))
    session.commit()
    tab = open_page(context, live_server, page_id)
    tab.keyboard.press("Shift+H")
    assert value(tab, "title") == "Ferries run again | Harbour News"
    tab.keyboard.press("Shift+H")  # each press the next one, round again
    assert value(tab, "title") == "Ferries run again"
    tab.keyboard.press("Shift+A")
    assert value(tab, "authors") == "Ann Lee; Bo Chen"
    pointed = "document.querySelector('.metadata-field.pointed').dataset.field"
    assert tab.evaluate(pointed) == "authors"
    tab.keyboard.press("Shift+K")
    assert tab.evaluate(pointed) == "title"
    tab.keyboard.press("Shift+Z")
    assert value(tab, "title") == "" and tab.locator("#metadata-title-state").inner_text() == "not annotated"
    tab.keyboard.press("Shift+E")
    tab.keyboard.type("Ferries  return")
    tab.keyboard.press("Escape")
    tab.keyboard.press("Control+s")
    saved(tab)
    revision = session.scalars(select(GoldRevision).join(Gold).where(Gold.page_id == page_id)).one()
    metadata, fields = revision.article_metadata, revision.provenance["fields"]
    session.rollback()
    assert metadata == {"title": "Ferries return", "authors": ["Ann Lee", "Bo Chen"], "published": "2024-03-11"}
    assert fields == {"title": "typed", "authors": "candidate:density", "published": "candidate:trafilatura"}


def test_unsaved_fields_come_back_as_a_draft_and_a_conflict_shows_the_other_saves_fields(
        session, live_server, context):
    page_id = make_page(session, PAGE, candidates={"trafilatura": TEXT, "density": TEXT}).id
    for name, metadata in (("trafilatura", WRONG), ("density", RIGHT)):
        session.execute(update(Extraction).where(Extraction.extractor == name).values(article_metadata=metadata))
    session.commit()
    tab = open_page(context, live_server, page_id)
    tab.keyboard.press("Control+s")  # version 1: the prefilled fields
    saved(tab)
    tab.keyboard.press("Shift+P")
    assert value(tab, "published") == "2024-03-01"
    tab.close()  # left without saving: the fields stay in this browser
    tab = open_page(context, live_server, page_id)
    assert value(tab, "published") == "2024-03-01"
    assert "Restored your unsaved title, authors and date" in tab.locator("#metadata-draft-notice").inner_text()

    other = context.new_page()  # another tab saves a date of its own first
    other.goto(f"{live_server}/pages/{page_id}")
    until(other, "document.body.dataset.ready === 'yes'")
    other.locator("#metadata-published").fill("2024-02-29")
    other.keyboard.press("Control+s")
    saved(other)
    other.close()
    tab.keyboard.press("Control+s")  # this tab edited version 1: a conflict
    until(tab, "!document.getElementById('conflict').hidden")
    theirs = tab.locator("#metadata-conflict button.metadata-theirs")
    theirs.first.wait_for()
    assert theirs.all_inner_texts() == ["Take their date: 2024-02-29"]
    theirs.first.click()
    assert value(tab, "published") == "2024-02-29"
    tab.locator("#keep-mine").click()  # the text is theirs already; the fields now say their date
    saved(tab)
    stored = session.scalars(select(Gold.article_metadata).where(Gold.page_id == page_id)).one()
    session.rollback()
    assert stored["published"] == "2024-02-29"
