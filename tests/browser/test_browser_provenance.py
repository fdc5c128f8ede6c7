"""Provenance in the annotate view, in Chromium: blocks clicked in the page, a line taken
from a candidate, a line typed and one edited, a click undone; the saved revision names each line's
origin and the prefill it started from."""

from __future__ import annotations

import pytest
from browser_fixtures import until
from sqlalchemy import select
from test_browser_block_takes import EDITOR, SERVICE, click, open_page
from workbench import make_page

from webapp.models import Extraction, Gold, GoldRevision

pytestmark = pytest.mark.browser

PREFILL = "Consulting for regulated industries\nWe help firms meet the rules without slowing down."


@pytest.fixture
def context(laptop):
    return laptop


def test_the_saved_revision_names_each_lines_origin(session, live_server, context):
    page_id = make_page(session, SERVICE, candidates={
        "trafilatura": PREFILL, "density": "Industries we serve\nTalk to us about your project."}).id
    fingerprint = session.scalars(select(Extraction.fingerprint).where(Extraction.extractor == "trafilatura")).one()
    session.rollback()
    tab = open_page(context, live_server, page_id)
    assert tab.evaluate(EDITOR) == PREFILL
    click(tab, "h2", "Industries we serve")
    click(tab, "ul.industries li", "Retail")
    click(tab, "ul.industries li", "Banking")
    until(tab, f"{EDITOR}.split('\\n').length === 5")
    tab.keyboard.press("Control+z")  # the Banking click undone: its line and its origin go
    until(tab, f"{EDITOR}.split('\\n').length === 4")
    tab.keyboard.press("2")
    tab.locator("#show-lines").click()
    tab.locator("#lines .take-line", has_text="Talk to us about your project.").click()
    until(tab, f"{EDITOR}.split('\\n').length === 6")  # a blank line keeps it out of the list item above
    tab.locator("#editor").click()
    tab.keyboard.press("Control+End")
    tab.keyboard.type("\nOur own line")
    tab.keyboard.press("Control+Home")
    tab.keyboard.press("End")
    tab.keyboard.type("!")
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version')")
    revision = session.scalars(select(GoldRevision).join(Gold).where(Gold.page_id == page_id)).one()
    session.rollback()
    # the provenance names each line of the Markdown the annotator edited (a blank line between blocks too)
    assert [(line, origin) for line, origin in zip(revision.markdown.split("\n"), revision.provenance["lines"],
                                                   strict=True) if line.strip()] == [
        ("Consulting for regulated industries!", "edited"),
        ("We help firms meet the rules without slowing down.", "prefill"),
        ("## Industries we serve", "block"),
        ("- Retail", "block"),
        ("Talk to us about your project.", "candidate:density"),
        ("Our own line", "typed"),
    ]
    assert revision.text.split("\n") == ["Consulting for regulated industries!",
                                         "We help firms meet the rules without slowing down.",
                                         "Industries we serve", "Retail", "Talk to us about your project.",
                                         "Our own line"]
    assert revision.provenance["prefill"] == {"source": "extractor", "name": "trafilatura",
                                              "fingerprint": fingerprint, "basis": "default"}
    tab.goto(f"{live_server}/pages/{page_id}/history")
    assert "from extractor trafilatura (default)" in tab.locator("table.history").inner_text()
    assert tab.locator("#line-origins li .line-origin").all_inner_texts() == [
        "edited", "prefill", "block", "block", "candidate:density", "typed"]
