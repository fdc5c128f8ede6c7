"""The gold editor edits Markdown, in Chromium at 1366x768: a WCXB page whose gold was given as Markdown
keeps its headings, lists and table through a save with no edit and one with an edit; a clicked heading
arrives with its level and a clicked table whole (as HTML when a cell spans rows); the preview key renders
the Markdown and returns; a candidate's word diff shows a heading level lost; after Ctrl+Z a notice no
longer says "Added"; and `.` points at the next block the gold lacks."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from browser_fixtures import until
from corpora import WCXB, WCXB_SAMPLE
from sqlalchemy import select
from test_browser_block_takes import EDITOR, click, open_page
from workbench import add_gold, make_page

from webapp.models import Extraction, Gold

pytestmark = pytest.mark.browser

FARES = ("<html><body><h1>Ferry fares</h1><p>Tickets are sold on board.</p><h3>Children</h3>"
         "<p>Children under five travel free.</p><table><tr><th>Day</th><th>Time</th></tr>"
         "<tr><td>Monday</td><td>09:00</td></tr><tr><td>Friday</td><td>17:30</td></tr></table>"
         "<table class='spans'><tr><td rowspan='2'>Weekend</td><td>Sat 10:00</td></tr>"
         "<tr><td>Sun 12:00</td></tr></table><p>Bring your ticket.</p></body></html>")


@pytest.fixture
def context(laptop):
    return laptop


def stored(session, page_id) -> SimpleNamespace:
    """The page's gold as stored (read, then the test's transaction ended: the app's saves are not blocked)."""
    gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one()
    session.refresh(gold)
    found = SimpleNamespace(markdown=gold.markdown, text=gold.text, text_source=gold.text_source)
    session.rollback()
    return found


def save(tab, version: int) -> None:
    tab.keyboard.press("Control+s")
    until(tab, f"document.getElementById('save-state').textContent.startsWith('Saved version {version}')")


@pytest.mark.corpus(WCXB)
def test_a_wcxb_page_with_markdown_gold_keeps_its_structure_through_saves(session, live_server, context):
    import gzip

    from webapp.corpus.decoding import decode

    truth = json.loads((WCXB_SAMPLE / "dev" / "ground-truth" / "2982.json").read_text())["ground_truth"]
    markdown, text = truth["main_content_markdown"], truth["main_content"]
    html = decode(gzip.decompress((WCXB_SAMPLE / "dev" / "html" / "2982.html.gz").read_bytes())).text
    page = make_page(session, html)
    add_gold(session, page, text=text, markdown=markdown, page_type="product", status="done", author="import")
    session.commit()
    page_id = page.id
    tab = open_page(context, live_server, page_id)
    assert tab.evaluate(EDITOR) == markdown.strip("\n")  # the editor starts from the gold's Markdown
    tab.keyboard.press("Escape")
    save(tab, 2)  # no edit
    gold = stored(session, page_id)
    assert gold.markdown == markdown.strip("\n") and gold.text_source == "derived"
    for kept in ("## The Ultimate Device Opener", "\n# Jimmy\n", "\n### Specifications\n",
                 "\n- 30-day returns\n", "| Material | 301 Stainless Steel |", "\n| --- | --- |\n"):
        assert kept in gold.markdown
    tab.click("#editor")
    tab.keyboard.press("Control+End")
    tab.keyboard.type("\n\nChecked by Ann.")
    save(tab, 3)  # an edit
    gold = stored(session, page_id)
    assert gold.markdown == markdown.strip("\n") + "\n\nChecked by Ann."
    assert gold.text.split("\n")[:2] == ["The Ultimate Device Opener", "Flexible blade for opening tough devices"]
    assert "Material 301 Stainless Steel" in gold.text.split("\n")  # a table row's plain text


def test_a_clicked_heading_arrives_with_its_level_and_a_table_arrives_whole(session, live_server, context):
    page_id = make_page(session, FARES).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h3", "Children")
    until(tab, f"{EDITOR} === '### Children'")
    click(tab, "h1", "Ferry fares")
    until(tab, f"{EDITOR} === '# Ferry fares\\n### Children'")
    click(tab, "td", "09:00")  # one cell: the whole table, at its place, apart from the text around it
    until(tab, f"{EDITOR} === '# Ferry fares\\n### Children\\n\\n| Day | Time |\\n| --- | --- |\\n"
               f"| Monday | 09:00 |\\n| Friday | 17:30 |'")
    click(tab, "td", "Sun 12:00")  # a cell spanning rows: the table kept as HTML
    until(tab, f"{EDITOR}.endsWith('\\n\\n<table>\\n<tr><td rowspan=\"2\">Weekend</td><td>Sat 10:00</td></tr>\\n"
               f"<tr><td>Sun 12:00</td></tr>\\n</table>')")
    click(tab, "th", "Day")  # a click on a table in the gold takes the whole table out
    until(tab, f"{EDITOR} === '# Ferry fares\\n### Children\\n\\n<table>\\n"
               f"<tr><td rowspan=\"2\">Weekend</td><td>Sat 10:00</td></tr>\\n<tr><td>Sun 12:00</td></tr>\\n</table>'")
    save(tab, 1)
    gold = stored(session, page_id)
    assert gold.text == "Ferry fares\nChildren\nWeekend Sat 10:00\nSun 12:00"


def test_the_preview_key_renders_the_markdown_and_returns_to_the_editor(session, live_server, context):
    page_id = make_page(session, FARES).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h3", "Children")
    click(tab, "td", "09:00")
    until(tab, f"{EDITOR}.includes('| Monday | 09:00 |')")
    tab.keyboard.press("q")
    until(tab, "document.querySelector('#preview h3')?.textContent === 'Children'")
    assert tab.locator("#preview table td").all_inner_texts() == ["Monday", "09:00", "Friday", "17:30"]
    assert not tab.is_visible("#editor") and tab.inner_text("#preview-toggle") == "Edit (q)"
    tab.keyboard.press("q")
    assert tab.is_visible("#editor") and not tab.is_visible("#preview")
    assert tab.inner_text("#preview-toggle") == "Preview (q)"
    assert tab.input_value("#type") != "service"  # q is no page type's key (v once collided)


def test_the_word_diff_shows_a_heading_level_lost(session, live_server, context):
    page = make_page(session, FARES)
    session.add(Extraction(page_id=page.id, extractor="flat", fingerprint="flat|1|{}", accepted=True,
                           text="Ferry fares\nTickets are sold on board.",
                           markdown="Ferry fares\nTickets are sold on board."))
    session.commit()
    page_id = page.id
    tab = open_page(context, live_server, page_id)
    click(tab, "h1", "Ferry fares")
    click(tab, "p", "Tickets are sold on board.")
    until(tab, f"{EDITOR} === '# Ferry fares\\nTickets are sold on board.'")
    until(tab, "document.querySelector('#diff del')?.textContent.trim() === '#'")
    assert tab.locator("#diff ins").count() == 0  # the words are the same: the heading alone is lost


def test_after_ctrl_z_the_notice_says_the_addition_was_undone(session, live_server, context):
    page_id = make_page(session, FARES).id
    tab = open_page(context, live_server, page_id)
    click(tab, "p", "Tickets are sold on board.")
    until(tab, f"{EDITOR} === 'Tickets are sold on board.'")
    notice = tab.locator("#notices .notice[data-key=page-change]")
    assert notice.inner_text().startswith("Added “Tickets are sold on board.” to the gold.")
    tab.keyboard.press("Control+z")
    until(tab, f"{EDITOR} === ''")
    until(tab, "document.querySelector('#notices .notice[data-key=page-change] .notice-text')"
               ".textContent.startsWith('Undone: Added')")
    assert not notice.locator("button", has_text="Undo").is_visible()
    tab.keyboard.press("Control+Shift+z")  # redone: the notice says the addition again, with its Undo
    until(tab, f"{EDITOR} === 'Tickets are sold on board.'")
    until(tab, "document.querySelector('#notices .notice[data-key=page-change] .notice-text')"
               ".textContent.startsWith('Added')")
    assert notice.locator("button", has_text="Undo").is_visible()


def test_dot_points_at_the_next_block_the_gold_lacks(session, live_server, context):
    page_id = make_page(session, FARES).id
    tab = open_page(context, live_server, page_id)
    click(tab, "h1", "Ferry fares")
    click(tab, "p", "Tickets are sold on board.")
    tab.mouse.move(0, 0)
    tab.keyboard.press(".")  # the first block the gold lacks: past the two in it
    until(tab, "document.getElementById('save-state').textContent.includes('“Children”')")
    tab.keyboard.press("t")
    until(tab, f"{EDITOR} === '# Ferry fares\\nTickets are sold on board.\\n### Children'")
    tab.keyboard.press(".")
    until(tab, "document.getElementById('save-state').textContent.includes('“Children under five travel free.”')")
    help_rows = tab.evaluate("[...document.querySelectorAll('#help-table tr')].map((row) => row.textContent)")
    assert any(row.startswith(".") and "next block of the page that the gold lacks" in row for row in help_rows)
