"""Saved pages served safely: the raw route answers a frame only (opened in its own tab it
gives the annotate view, so none of the saved page's links can navigate), and very deep or very large
pages open in a flattened rendering with a notice."""

from __future__ import annotations

import pytest
from app_settings import reconfigure
from browser_fixtures import signed_in
from workbench import make_page

pytestmark = pytest.mark.security

LINKS = """<html><body>
<p><a id="plain" href="http://evil.example/plain">plain link</a></p>
<p><a id="top" href="http://evil.example/top" target="_top">top link</a></p>
<p><a id="blank" href="http://evil.example/blank" target="_blank">blank link</a></p>
<p><a id="download" href="http://evil.example/file.bin" download>download link</a></p>
<svg width="200" height="40"><a id="svg" href="http://evil.example/svg"><text x="5" y="20">svg link</text></a></svg>
<svg width="200" height="40"><a id="svgx" xlink:href="http://evil.example/svgx"
  xmlns:xlink="http://www.w3.org/1999/xlink"><text x="5" y="20">svg xlink</text></a></svg>
<form action="http://evil.example/form"><button id="submit">send</button></form>
</body></html>"""


@pytest.fixture
def links_page(session):
    return make_page(session, LINKS, url="https://news.example/links", candidates={"trafilatura": "plain link"}).id


def test_a_top_level_request_for_the_raw_route_gets_the_annotate_view(client, links_page):
    response = client.get(f"/pages/{links_page}/raw", headers={"Sec-Fetch-Dest": "document"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/pages/{links_page}"
    assert "evil.example" not in response.get_data(as_text=True)


@pytest.mark.parametrize("dest", ["embed", "object", "empty", "worker", "script"])
def test_the_raw_route_answers_nothing_but_a_frame(client, links_page, dest):
    response = client.get(f"/pages/{links_page}/raw", headers={"Sec-Fetch-Dest": dest})
    assert response.status_code == 403
    assert "evil.example" not in response.get_data(as_text=True)


def test_the_frame_gets_the_saved_page_with_its_isolation_headers(client, links_page):
    response = client.get(f"/pages/{links_page}/raw", headers={"Sec-Fetch-Dest": "iframe"})
    assert response.status_code == 200
    assert "evil.example/plain" in response.get_data(as_text=True)
    assert response.headers["Content-Security-Policy"].startswith("sandbox allow-same-origin;")
    assert "Sec-Fetch-Dest" in response.headers["Vary"]


def _third_party_requests(context) -> list[str]:
    seen: list[str] = []

    def handle(route):
        url = route.request.url
        if url.startswith("http://127.0.0.1"):
            route.continue_()
        else:
            seen.append(url)
            route.abort()

    context.route("**/*", handle)
    return seen


@pytest.mark.browser
@pytest.mark.parametrize("link", ["plain", "top", "blank", "download", "svg", "svgx", "submit"])
def test_the_raw_route_in_its_own_tab_never_navigates_to_third_parties(session, live_server, context,
                                                                       links_page, link):
    seen = _third_party_requests(context)
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/pages/{links_page}/raw")
    assert tab.url == f"{live_server}/pages/{links_page}", "the raw page was shown at the top level"
    tab.wait_for_selector("#frame")
    frame = tab.frame_locator("#frame")
    frame.locator(f"#{link}").click(timeout=5000)
    tab.wait_for_timeout(500)
    assert seen == []
    assert all(p.url.startswith(live_server) or p.url == "about:blank" for p in context.pages)


DEEP_LEVELS = 100_000


def deep_html(levels: int = DEEP_LEVELS) -> str:
    return ("<html><head><title>Deep</title></head><body><p>Before the depths</p>" + "<div>" * levels
            + "<p>Deep text</p>" + "</div>" * levels + "<p>After the depths</p></body></html>")


@pytest.fixture
def deep_page(session):
    return make_page(session, deep_html(), url="https://news.example/deep",
                     candidates={"trafilatura": "Deep text"}).id


@pytest.mark.parametrize("html, depth", [
    ("<p>a</p>", 1),
    ("<html><body><div><p>a<p>b</div></body></html>", 4),
    ("<ul><li>a<li>b<li>c</ul>", 2),
    ("<div><img src=x><br><input></div>", 1),
    ("<script>'<div><div><div>'</script><div></div>", 1),
    ("<!-- <div><div><div> --><div></div>", 1),
    ("<div><div></span></div></div>", 2),
    (deep_html(2000), 2003),
])
def test_nesting_depth(html, depth):
    from webapp.web.heavy_pages import nesting_depth

    assert nesting_depth(html) == depth


def test_a_judged_page_is_remembered_and_the_least_recently_used_is_dropped():
    from webapp.foundation.kept import Kept  # what keeps the heavy pages' verdicts and flattened text

    calls = []
    recent: Kept[str] = Kept(2)

    def get(key, version=None):
        return recent.get((key,), lambda: calls.append(key) or key.upper(), version)

    assert [get("a"), get("b"), get("a")] == ["A", "B", "A"]
    assert calls == ["a", "b"]  # "a" was computed once
    get("c")  # "b", used least recently, is dropped
    assert [get("a"), get("b")] == ["A", "B"]
    assert calls == ["a", "b", "c", "b"]
    get("b", version=2)  # kept under another version: computed again
    assert calls == ["a", "b", "c", "b", "b"] and recent.held == 2


def test_the_flattened_text_has_the_blocks_of_the_visible_text():
    from webapp.corpus.visible_text import visible_text
    from webapp.web.heavy_pages import flat_lines

    html = ("<p>a<p>b &amp; c<ul><li>x<li>y</ul><div>one<br><br>two</div><script>var s='<div>'</script>"
            "<span hidden>no<div>x</div></span>tail<table><tr><td>c1<td>c2</table>"
            "<div style='display:none'>hid</div><!-- <p>gone --><img src=x><br/>z")
    assert flat_lines(html) == visible_text(html).splitlines()
    assert flat_lines(deep_html()) == ["Before the depths", "Deep text", "After the depths"]


def test_a_deep_page_opens_flattened_with_a_notice(client, deep_page):
    from workbench import sign_in

    sign_in(client)
    view = client.get(f"/pages/{deep_page}").get_data(as_text=True)
    assert 'id="flattened"' in view and "RENDER_MAX_DEPTH" in view
    raw = client.get(f"/pages/{deep_page}/raw", headers={"Sec-Fetch-Dest": "iframe"})
    body = raw.get_data(as_text=True)
    assert raw.status_code == 200 and raw.headers["Content-Security-Policy"].startswith("sandbox")
    assert "<p>Deep text</p>" in body and "<div>" not in body and len(body) < 1000


@pytest.mark.parametrize("setting, value", [("RENDER_MAX_DEPTH", 2), ("RENDER_MAX_BYTES", 100)])
def test_the_limits_are_settings(app, client, session, setting, value):
    from workbench import sign_in

    page_id = make_page(session, "<html><body><div><div><p>" + "word " * 40 + "</p></div></div></body></html>").id
    sign_in(client)
    assert 'id="flattened"' not in client.get(f"/pages/{page_id}").get_data(as_text=True)
    reconfigure(app, **{setting: value})
    view = client.get(f"/pages/{page_id}").get_data(as_text=True)
    assert 'id="flattened"' in view and setting in view
    body = client.get(f"/pages/{page_id}/raw").get_data(as_text=True)
    assert "<div>" not in body and "<p>word word" in body


@pytest.mark.browser
def test_the_workbench_is_usable_at_once_on_a_very_deep_page(session, live_server, context, deep_page):
    tab = signed_in(context, live_server)
    tab.goto(f"{live_server}/pages/{deep_page}", wait_until="load")
    tab.wait_for_selector("#flattened")
    frame = tab.frame_locator("#frame")
    assert frame.locator("p", has_text="Deep text").count() == 1
    tab.fill("#editor", "Deep text typed")
    assert tab.input_value("#editor") == "Deep text typed"
