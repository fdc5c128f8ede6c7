"""Snippet gold in the workbench: saved through the gold API (cleaned, kept, cleared), shown in the annotate
view, and added in Chromium from a selection with a key or a button."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in
from sqlalchemy import select
from workbench import make_page, sign_in

from webapp.models import Gold

CANDIDATES = {"trafilatura": "Harbour reopens today after the storm", "density": "Menu Harbour reopens"}


def save(client, token, page_id, version, **extra):
    body = {"text": "Harbour reopens", "type": "article", "status": "done", "version": version,
            "client_save_id": f"save-{version}"} | extra
    return client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})


def stored(session, page_id):
    value = session.scalars(select(Gold.snippets).where(Gold.page_id == page_id)).one()
    session.rollback()
    return value


@pytest.mark.parametrize(
    "sent, expected",
    [
        ({"with": [" Harbour  ", "", "Harbour"], "without": ["Menu"]}, {"with": ["Harbour"], "without": ["Menu"]}),
        ({"with": ["storm"]}, {"with": ["storm"], "without": []}),
        ({"with": [" "], "without": []}, None),
    ],
)
def test_a_save_stores_the_snippets_cleaned(client, session, sent, expected):
    page_id = make_page(session).id
    token = sign_in(client)
    assert save(client, token, page_id, 0, snippets=sent).status_code == 200
    assert stored(session, page_id) == expected
    assert client.get(f"/api/pages/{page_id}/gold").get_json()["snippets"] == expected


def test_a_save_without_snippets_keeps_them_and_empty_lists_clear_them(client, session):
    page_id = make_page(session).id
    token = sign_in(client)
    save(client, token, page_id, 0, snippets={"with": ["Harbour"], "without": []})
    save(client, token, page_id, 1)
    assert stored(session, page_id) == {"with": ["Harbour"], "without": []}
    save(client, token, page_id, 2, snippets={"with": [], "without": []})
    assert stored(session, page_id) is None


@pytest.mark.parametrize("snippets", [["Harbour"], {"with": "Harbour"}, {"with": [1]}, {"must": []}])
def test_malformed_snippets_are_400_and_store_nothing(client, session, snippets):
    page_id = make_page(session).id
    token = sign_in(client)
    response = save(client, token, page_id, 0, snippets=snippets)
    assert response.status_code == 400 and "snippets" in response.get_json()["message"]
    assert session.scalars(select(Gold)).all() == []


def test_the_annotate_view_carries_the_saved_snippets(client, session):
    page_id = make_page(session).id
    token = sign_in(client)
    save(client, token, page_id, 0, snippets={"with": ["Harbour"], "without": ["Menu"]})
    html = client.get(f"/pages/{page_id}").get_data(as_text=True)
    assert '"snippets": {"with": ["Harbour"], "without": ["Menu"]}' in html
    assert 'id="snippets-with"' in html and 'id="add-without"' in html


def select_in_diff(tab, text: str) -> None:
    """Select the first occurrence of text in the candidate's diff pane."""
    tab.evaluate(
        """(text) => {
          const walker = document.createTreeWalker(document.getElementById('diff'), NodeFilter.SHOW_TEXT);
          let node;
          while ((node = walker.nextNode())) {
            const at = node.textContent.indexOf(text);
            if (at >= 0) {
              const range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + text.length);
              const selection = window.getSelection();
              selection.removeAllRanges();
              selection.addRange(range);
              return;
            }
          }
          throw new Error('not found: ' + text);
        }""",
        text,
    )


@pytest.mark.browser
def test_adding_removing_and_saving_snippets_in_the_browser(session, live_server, context):
    page_id = make_page(session, "<html><body><p>Menu</p><p>Harbour reopens today</p></body></html>",
                        candidates=CANDIDATES).id
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/pages/{page_id}")
    tab.wait_for_selector("#tabs .tab.active")
    select_in_diff(tab, "Harbour reopens")
    tab.keyboard.press("i")
    tab.keyboard.press("2")
    select_in_diff(tab, "Menu")
    tab.click("#add-without")
    frame_text = "document.getElementById('frame').contentDocument"
    tab.evaluate(f"""() => {{
        const doc = {frame_text};
        const node = [...doc.querySelectorAll('p')].find((p) => p.textContent.includes('today')).firstChild;
        const range = doc.createRange();
        range.setStart(node, node.textContent.indexOf('today'));
        range.setEnd(node, node.textContent.length);
        window.getSelection().removeAllRanges();
        doc.getSelection().removeAllRanges();
        doc.getSelection().addRange(range);
    }}""")
    tab.keyboard.press("i")
    assert [tab.input_value(f"#snippets-with li:nth-child({n}) input") for n in (1, 2)] == ["Harbour reopens", "today"]
    assert tab.input_value("#snippets-without li input") == "Menu"
    tab.click("#snippets-with li:nth-child(1) .snippet-remove")
    tab.fill("#snippets-with li input", "today after")
    tab.keyboard.press("Control+s")
    until_saved = "document.getElementById('save-state').textContent.startsWith('Saved version 1')"
    for _ in range(200):
        if tab.evaluate(until_saved):
            break
        tab.wait_for_timeout(50)
    assert stored(session, page_id) == {"with": ["today after"], "without": ["Menu"]}
    tab.reload()
    tab.wait_for_selector("#snippets-with li")
    assert tab.input_value("#snippets-with li input") == "today after"
