"""The adjudication view in Chromium at 1366x768: it starts from the lines both annotators
agree on, not from either one's text; the disputed lines are listed with whose they are and taken or
dropped by mouse and keyboard; the saved page is shown in the sandboxed frame with each annotator's blocks
outlined; the saved gold is what the reviewer chose."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from sqlalchemy import select
from workbench import make_page

from webapp.annotation.annotations import save_annotation
from webapp.models import Gold, GoldRevision

pytestmark = [pytest.mark.browser, pytest.mark.settings(OVERLAP=2)]

HTML = ("<html><head><script>document.title = 'script ran'</script></head><body><h1>Ferry timetable</h1>"
        "<p>The ferry leaves at nine.</p><p>It returns at five.</p><p>Tickets on board.</p></body></html>")
ANN = "Ferry timetable\nThe ferry leaves at nine.\nIt returns at five."
BOB = "Ferry timetable\nThe ferry leaves at nine.\nTickets on board."
RESULT = "document.getElementById('result-text').value"


def frame_classes(tab, text: str) -> list[str]:
    return tab.evaluate("""(text) => [...document.getElementById('frame').contentDocument.querySelectorAll('h1, p')]
        .find((element) => element.textContent === text).className.split(' ')""", text)


def adjudicating(session, laptop, live_server, url: str, annotations: dict[str, tuple[str, str]], html: str = HTML):
    """The page at `url` annotated by each name (text, type), opened in the adjudication view by Rita."""
    found = make_page(session, html=html, url=url)
    for name, (text, page_type) in annotations.items():
        save_annotation(session, found, name, base_version=0, text=text, page_type=page_type, status="done")
    session.commit()
    rita = signed_in(laptop, live_server, "Rita")
    rita.goto(f"{live_server}/adjudication/{found.id}")
    return found.id, rita


def test_the_adjudication_starts_from_the_agreed_lines_and_marks_the_disputed_ones(app, session, live_server,
                                                                                     laptop):
    page_id, rita = adjudicating(session, laptop, live_server, "https://ferry.example/timetable",
                             {"Ann": (ANN, "article"), "Bob": (BOB, "forum")})

    assert rita.evaluate(RESULT) == "Ferry timetable\nThe ferry leaves at nine."  # neither Ann's nor Bob's
    notice = rita.text_content("#consensus-notice")
    assert "2 lines all annotators agree on" in " ".join(notice.split())
    assert "2 lines are disputed" in " ".join(notice.split())
    assert rita.eval_on_selector("#result-type", "select => select.value") == ""  # no type preselected
    assert "Ann: article · Bob: forum or discussion thread" in rita.text_content("#types-said")
    disputed = rita.locator("#disputed-lines .disputed-line")
    assert disputed.count() == 2
    five, tickets = disputed.filter(has_text="It returns at five."), disputed.filter(has_text="Tickets on board.")
    assert "only Ann · after agreed line 2" in five.text_content()
    assert "only Bob · after agreed line 2" in tickets.text_content()

    tickets.click()
    assert rita.evaluate(RESULT) == "Ferry timetable\nThe ferry leaves at nine.\nTickets on board."
    assert tickets.get_attribute("aria-pressed") == "true"
    five.focus()
    rita.keyboard.press("Enter")  # taken in at its place, between nine and the tickets
    assert rita.evaluate(RESULT) == ANN + "\nTickets on board."
    rita.keyboard.press("Enter")  # and dropped again
    assert rita.evaluate(RESULT) == BOB and five.get_attribute("aria-pressed") == "false"
    rita.keyboard.press("Enter")
    chosen = rita.evaluate(RESULT)

    until(rita, "document.getElementById('frame').dataset.marked === 'yes'")
    assert rita.evaluate("document.getElementById('frame').contentDocument.title") != "script ran"
    assert "goldtext-by-all" in frame_classes(rita, "Ferry timetable")
    assert "goldtext-by-0" in frame_classes(rita, "It returns at five.")
    assert "goldtext-by-1" in frame_classes(rita, "Tickets on board.")
    assert rita.is_visible("text=Ann's blocks") and rita.is_visible("text=Bob's blocks")

    rita.focus("#result-text")
    rita.keyboard.press("Control+s")  # no type chosen: the form is not sent
    assert rita.evaluate("document.getElementById('result-type').matches(':invalid')")
    rita.select_option("#result-type", "forum")
    rita.keyboard.press("Control+s")
    rita.wait_for_url(f"{live_server}/adjudication")
    gold = session.scalars(select(Gold).where(Gold.page_id == page_id)).one()
    assert (gold.text, gold.page_type, gold.author) == (chosen, "forum", "Rita")
    assert chosen == ANN + "\nTickets on board."
    revision = session.scalars(select(GoldRevision).join(Gold).where(Gold.page_id == page_id)).one()
    assert revision.provenance == {"prefill": {"source": "consensus"}, "lines": [
        "consensus", "consensus", "annotator:Ann", "annotator:Bob"]}  # each line's origin, as the reviewer took it


@pytest.mark.settings(OVERLAP=3)
def test_three_annotators_blocks_several_have_are_marked_apart_from_those_all_have(app, session, live_server,
                                                                                    laptop):
    _, rita = adjudicating(session, laptop, live_server, "https://ferry.example/timetable", {
        "Ann": (ANN, "article"), "Bob": (BOB, "article"), "Cy": ("Ferry timetable\nIt returns at five.", "article")})
    assert rita.evaluate(RESULT) == "Ferry timetable"
    assert rita.eval_on_selector("#result-type", "select => select.value") == "article"  # all agree
    assert "only Ann, Cy" in rita.locator(".disputed-line", has_text="It returns at five.").text_content()
    until(rita, "document.getElementById('frame').dataset.marked === 'yes'")
    assert "goldtext-by-all" in frame_classes(rita, "Ferry timetable")
    assert "goldtext-by-some" in frame_classes(rita, "It returns at five.")
    assert "goldtext-by-some" in frame_classes(rita, "The ferry leaves at nine.")
    assert "goldtext-by-1" in frame_classes(rita, "Tickets on board.")


def test_the_page_s_agreement_counts_one_pair_of_annotators_in_the_singular(app, session, live_server, laptop):
    _, rita = adjudicating(session, laptop, live_server, "https://ferry.example/pairs",
                             {"Ann": (ANN, "article"), "Bob": (BOB, "article")})
    said = " ".join(rita.text_content("#page-agreement").split())
    assert said.startswith("1 pair of annotators: text F1 ")  # it said "1 pairs of annotators"


def test_question_mark_lists_the_adjudication_keys_shift_g_among_them_in_a_modal_help(app, session, live_server,
                                                                                      laptop):
    # The adjudication view had Shift+G (and Ctrl+S) but no help saying so: `?` did nothing.
    _, rita = adjudicating(session, laptop, live_server, "https://ferry.example/keys",
                             {"Ann": (ANN, "article"), "Bob": (BOB, "article")})
    until(rita, "document.getElementById('frame').dataset.marked === 'yes'")
    assert not rita.is_visible("#help")
    rita.keyboard.press("?")
    assert rita.is_visible("#help")
    rows = {" ".join(row.split()) for row in rita.locator("#help-table tr").all_inner_texts()}
    assert any(row.startswith("Shift+G") and "guideline" in row for row in rows), rows
    assert any(row.startswith("Ctrl+S") and "save the result as gold" in row for row in rows), rows
    rita.keyboard.press("G")  # modal: the guideline does not open behind the help
    assert not rita.is_visible("#guideline-panel")
    rita.keyboard.press("Escape")
    assert not rita.is_visible("#help")
    rita.keyboard.press("G")
    assert rita.is_visible("#guideline-panel")
    rita.click("#help-button")
    assert rita.is_visible("#help")
    rita.click("#help-close")
    assert not rita.is_visible("#help")


def test_a_disputed_line_whose_text_is_also_agreed_shows_unpressed_until_its_own_copy_is_taken(
    app, session, live_server, laptop
):
    # Bob has "Read more" twice, Ann once: the second copy is disputed. Its button showed pressed ("in the
    # result") from the start, because the agreed copy has the same text.
    html = ("<html><body><h1>Ferry news</h1><p>Read more</p><p>The ferry leaves at nine.</p><p>Read more</p>"
            "</body></html>")
    _, rita = adjudicating(session, laptop, live_server, "https://ferry.example/news", {
        "Ann": ("Ferry news\nRead more\nThe ferry leaves at nine.", "article"),
        "Bob": ("Ferry news\nRead more\nThe ferry leaves at nine.\nRead more", "article")}, html=html)
    until(rita, "document.getElementById('frame').dataset.marked === 'yes'")
    assert rita.evaluate(RESULT) == "Ferry news\nRead more\nThe ferry leaves at nine."
    disputed = rita.locator("#disputed-lines .disputed-line")
    assert disputed.count() == 1 and "only Bob · after agreed line 3" in disputed.text_content()
    assert disputed.get_attribute("aria-pressed") == "false"
    bob_lines = rita.locator(".annotation[data-index='1'] .lines button")
    assert [bob_lines.nth(k).get_attribute("aria-pressed") for k in range(4)] == ["true", "true", "true", "false"]

    disputed.focus()
    rita.keyboard.press("Enter")
    assert rita.evaluate(RESULT) == "Ferry news\nRead more\nThe ferry leaves at nine.\nRead more"
    assert disputed.get_attribute("aria-pressed") == "true"
    assert bob_lines.nth(3).get_attribute("aria-pressed") == "true"
    rita.keyboard.press("Enter")  # dropped again: its own copy, not the agreed one
    assert rita.evaluate(RESULT) == "Ferry news\nRead more\nThe ferry leaves at nine."
    assert disputed.get_attribute("aria-pressed") == "false"
    assert bob_lines.nth(1).get_attribute("aria-pressed") == "true"


def test_the_keys_work_after_a_click_in_the_saved_page(app, session, live_server, laptop):
    # A click in the saved page's frame gave it the focus, and from then on ? and Shift+G did nothing (the
    # annotate view's keys work there; the adjudication's listened to the view's document only).
    _, rita = adjudicating(session, laptop, live_server, "https://ferry.example/frame-keys",
                             {"Ann": (ANN, "article"), "Bob": (BOB, "article")})
    until(rita, "document.getElementById('frame').dataset.marked === 'yes'")
    rita.frame_locator("#frame").locator("text=Tickets on board.").click()
    assert rita.evaluate("document.activeElement.id") == "frame"
    rita.keyboard.press("?")
    assert rita.is_visible("#help")
    rita.keyboard.press("Escape")
    rita.frame_locator("#frame").locator("text=Tickets on board.").click()
    rita.keyboard.press("G")
    assert rita.is_visible("#guideline-panel")
