"""The workbench in Chromium: the whole flow, blocks, conflicts, drafts, shortcuts, and a hostile page."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser_fixtures import signed_in, until
from served import served
from sqlalchemy import select
from workbench import make_page

from webapp.models import GoldRevision

pytestmark = pytest.mark.browser

DIFFER = {"trafilatura": "Alpha beta gamma delta", "density": "Omega psi chi"}
AGREE = {"trafilatura": "Same words here", "density": "Same words here"}
BLOCKS = "<html><body><h1>Title here</h1><p>First para</p><div><p>Second para</p></div></body></html>"


def saved_texts(session, page_id):
    rows = session.execute(
        select(GoldRevision.text, GoldRevision.author).order_by(GoldRevision.id)
    ).all()
    session.rollback()
    return [tuple(row) for row in rows]


def saved_page_types(session):
    page_types = list(session.scalars(select(GoldRevision.page_type).order_by(GoldRevision.id)))
    session.rollback()
    return page_types


def saved(tab, version: int) -> None:
    until(tab, f"document.getElementById('save-state').textContent.startsWith('Saved version {version}')")


def open_page(tab, base, page_id):
    tab.goto(f"{base}/pages/{page_id}")
    tab.wait_for_selector("#tabs .tab.active, #editor")
    return tab


def test_a_candidate_named_in_the_link_opens_first(session, live_server, context):
    page_id = make_page(session, url="https://news.example/drill", candidates=DIFFER).id
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/pages/{page_id}#candidate=density")
    tab.wait_for_selector("#tabs .tab.active")
    assert "density" in tab.inner_text("#tabs .tab.active")
    assert "Omega" in tab.inner_text("#diff")


def test_the_whole_flow_queue_candidates_edit_save_next(session, live_server, context):
    first = make_page(session, url="https://news.example/1", candidates=DIFFER).id
    second = make_page(session, url="https://news.example/2", candidates=AGREE).id
    tab = signed_in(context, live_server)
    tab.goto(live_server + "/")
    tab.keyboard.press("Enter")
    tab.wait_for_url(f"**/pages/{first}")
    assert tab.input_value("#editor") == "Alpha beta gamma delta"  # prefilled from trafilatura
    tab.keyboard.press("2")
    assert "density" in tab.inner_text("#tabs .tab.active")
    assert tab.inner_text("#diff ins") == "Omega psi chi"
    tab.keyboard.press("u")
    assert tab.input_value("#editor") == "Omega psi chi"
    tab.click("#editor")
    tab.keyboard.press("End")
    tab.keyboard.type(" omega")
    until(tab, "document.getElementById('scores').textContent.includes('R 75.0%')")
    tab.keyboard.press("Control+s")
    saved(tab, 1)
    tab.locator("#editor").blur()
    tab.keyboard.press("n")
    tab.wait_for_url(f"**/pages/{second}")
    assert saved_texts(session, first) == [("Omega psi chi omega", "Ann")]


def test_clicking_a_block_adds_its_text_in_document_order_and_clicking_again_removes_it(
    session, live_server, context
):
    page_id = make_page(session, BLOCKS).id
    tab = open_page(signed_in(context, live_server), live_server, page_id)
    frame = tab.frame_locator("#frame")
    frame.locator("text=Second para").click()
    until(tab, "document.getElementById('editor').value === 'Second para'")
    frame.locator("text=First para").click()
    until(tab, "document.getElementById('editor').value === 'First para\\nSecond para'")
    until(tab, "document.getElementById('frame').contentDocument.querySelectorAll('.goldtext-in').length === 2")
    frame.locator("text=Second para").click()
    until(tab, "document.getElementById('editor').value === 'First para'")


def test_a_block_click_keeps_the_gold_s_blank_lines(session, live_server, context):
    # imported gold (WCXB's, for one) often separates its paragraphs with blank lines: a click changes
    # only the clicked block's line
    page_id = make_page(session, BLOCKS).id
    tab = open_page(signed_in(context, live_server), live_server, page_id)
    tab.fill("#editor", "Title here\n\nSecond para\n")
    frame = tab.frame_locator("#frame")
    frame.locator("text=First para").click()
    until(tab, "document.getElementById('editor').value === 'Title here\\nFirst para\\n\\nSecond para\\n'")
    frame.locator("text=Title here").click()
    until(tab, "document.getElementById('editor').value === 'First para\\n\\nSecond para\\n'")


def test_two_annotators_on_one_page_the_second_sees_the_conflict_and_both_texts_are_kept(
    session, live_server, browser
):
    page_id = make_page(session, candidates=AGREE).id
    contexts = [browser.new_context(), browser.new_context()]
    try:
        ann = open_page(signed_in(contexts[0], live_server, "Ann"), live_server, page_id)
        bob = open_page(signed_in(contexts[1], live_server, "Bob"), live_server, page_id)
        ann.fill("#editor", "Ann's version")
        ann.click("#save")
        until(ann, "document.getElementById('save-state').textContent.startsWith('Saved')")
        bob.fill("#editor", "Bob's version")
        bob.click("#save")
        bob.wait_for_selector("#conflict:not([hidden])")
        assert bob.inner_text("#conflict-theirs") == "Ann's version"
        assert "by Ann" in bob.inner_text("#conflict-who")
        assert saved_texts(session, page_id) == [("Ann's version", "Ann"), ("Bob's version", "Bob")]
        history = bob.context.new_page()
        history.goto(f"{live_server}/pages/{page_id}/history")
        assert "stale save" in history.inner_text("table.history")
        assert "“stale save” was kept but not applied" in history.inner_text("#history-hint")
        bob.click("#keep-mine")
        saved(bob, 2)
    finally:
        for made in contexts:
            made.close()


def test_the_history_of_a_page_saved_once_speaks_of_no_stale_save(session, live_server, context):
    # The history said "A stale save was kept but not applied." on every page, as if this one had one.
    page_id = make_page(session, candidates=AGREE).id
    tab = open_page(signed_in(context, live_server), live_server, page_id)
    tab.fill("#editor", "Ann's version")
    tab.click("#save")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved')")
    tab.click("text=History")
    tab.wait_for_url(f"{live_server}/pages/{page_id}/history")
    assert "Pick two revisions" in tab.inner_text("main")
    assert "stale" not in tab.inner_text("main")


def test_a_draft_survives_a_reload(session, live_server, context):
    page_id = make_page(session, candidates=AGREE).id
    tab = open_page(signed_in(context, live_server), live_server, page_id)
    tab.fill("#editor", "Unsaved words")
    until(tab, f"localStorage.getItem('goldtext:draft:{page_id}') !== null")
    tab.reload()
    tab.wait_for_selector("#notices .notice >> text=Restored your unsaved draft")
    assert tab.input_value("#editor") == "Unsaved words"
    assert saved_texts(session, page_id) == []


def test_every_shortcut_in_the_help_overlay_does_what_it_says(session, live_server, context):
    first = make_page(session, candidates=DIFFER).id
    second = make_page(session, candidates={"trafilatura": "Some words", "density": "Some other words"}).id
    third = make_page(session, candidates=AGREE).id
    tab = open_page(signed_in(context, live_server), live_server, first)
    tab.keyboard.press("?")
    assert tab.is_visible("#help")
    listed = tab.locator("#help-table tr").all_inner_texts()
    # b (repeated boilerplate) is exercised in test_browser_annotator.py; y, ], [, t, T, + and - (lines to
    # take, the block pointer, ranges and containers) in test_browser_block_takes.py; the 8 keys of the title,
    # authors and date in test_browser_metadata_fields.py; G (the guideline) below
    assert len(listed) == 48
    keys = [key for row in tab.locator("#help-table tr").all() for key in row.locator("kbd").all_inner_texts()]
    assert len(keys) == len(set(keys)), "two shortcuts share a key"
    # the preview's key is a letter no other key uses in either case (a Shift+V preview once took the service
    # type's v); the jump to a missing block is tested in test_browser_markdown_editor.py
    assert [key for key in keys if key.lower() in ("q", "shift+q")] == ["q"]
    tab.keyboard.press("Escape")
    assert not tab.is_visible("#help")
    tab.keyboard.press("G")
    assert tab.is_visible("#guideline-panel section[data-type=article]")
    tab.keyboard.press("G")
    assert not tab.is_visible("#guideline-panel")
    tab.keyboard.press("2")
    assert "density" in tab.inner_text("#tabs .tab.active")
    tab.keyboard.press("1")
    assert "trafilatura" in tab.inner_text("#tabs .tab.active")
    tab.keyboard.press("2")
    tab.keyboard.press("u")
    assert tab.input_value("#editor") == "Omega psi chi"
    tab.keyboard.press("q")  # the preview: the gold rendered in place of the editor, and back
    until(tab, "document.querySelector('#preview p')?.textContent === 'Omega psi chi'")
    assert not tab.is_visible("#editor")
    tab.keyboard.press("q")
    assert tab.is_visible("#editor") and not tab.is_visible("#preview")
    tab.keyboard.press("m")
    assert tab.input_value("#type") == "forum"
    tab.keyboard.press("s")
    saved(tab, 1)
    assert tab.input_value("#status") == "skipped"
    assert saved_page_types(session) == ["forum"]  # a type of page with main content, chosen by its key
    tab.keyboard.press("a")
    assert tab.input_value("#type") == "article"
    tab.keyboard.press("d")
    saved(tab, 2)
    assert saved_page_types(session) == ["forum", "article"]
    assert tab.input_value("#status") == "done"
    tab.click("#editor")
    tab.keyboard.type("n")  # typing in the editor: no shortcut fires...
    assert tab.url.endswith(f"/pages/{first}")
    tab.keyboard.press("Control+s")  # ...except Ctrl+S
    saved(tab, 3)
    tab.locator("#editor").blur()
    tab.keyboard.press("n")  # the saved page moved down the queue: next is the head of the work left
    tab.wait_for_url(f"**/pages/{second}")
    tab.keyboard.press("n")
    tab.wait_for_url(f"**/pages/{third}")
    tab.keyboard.press("p")
    tab.wait_for_url(f"**/pages/{second}")


class _Counter(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"hit")

    do_POST = do_GET

    def log_message(self, *args):
        pass


@pytest.fixture
def counter():
    """A second local server that records every request it gets."""
    _Counter.hits = []
    with served(ThreadingHTTPServer(("127.0.0.1", 0), _Counter)) as server:
        yield f"http://127.0.0.1:{server.server_port}", _Counter.hits


def hostile(remote: str) -> str:
    return f"""<!doctype html><html><head>
<title>Hostile</title>
<base href="{remote}/base/">
<meta http-equiv="refresh" content="0; url={remote}/refresh">
<link rel="stylesheet" href="{remote}/style.css">
<link rel="prefetch" href="{remote}/prefetch">
<link rel="preload" as="image" href="{remote}/preload.png">
<style>@import url("{remote}/import.css"); @font-face {{ font-family: x; src: url("{remote}/font.woff"); }}
body {{ background: url("{remote}/bg.png"); font-family: x; }}</style>
<script>parent.document.title = "pwned"; fetch("{remote}/script");</script>
<script src="{remote}/script.js"></script>
</head><body>
<p id="target">Click <a id="link" href="{remote}/link">this link</a> and
<a href="javascript:parent.document.body.remove()">this</a>.</p>
<img src="{remote}/pixel.png" onerror="parent.document.title='pwned'">
<svg onload="parent.document.title='pwned'"><image href="{remote}/svg.png"/></svg>
<iframe src="{remote}/frame"></iframe>
<object data="{remote}/object"></object>
<form action="{remote}/form" method="post"><button id="submit">Send</button></form>
<video poster="{remote}/poster.png"></video>
</body></html>"""


def test_a_hostile_page_runs_nothing_and_loads_nothing(session, live_server, context, counter):
    remote, hits = counter
    page_id = make_page(session, hostile(remote)).id
    tab = open_page(signed_in(context, live_server), live_server, page_id)
    title = tab.title()
    frame = tab.frame_locator("#frame")
    frame.locator("#link").click()
    frame.locator("text=this").last.click()
    frame.locator("#submit").click()
    tab.wait_for_timeout(1500)  # time for any load, refresh or navigation to reach the counter
    assert hits == []
    assert tab.title().removeprefix("* ") == title  # "* ": the clicks changed the gold, unsaved
    assert tab.url.endswith(f"/pages/{page_id}")
    assert tab.evaluate("document.getElementById('editor') !== null && document.body !== null")
    assert tab.evaluate("document.getElementById('frame').contentDocument.getElementById('target') !== null")
