"""Saved pages served safely (issue 12): the raw route answers a frame only (opened in its own tab it
gives the annotate view, so none of the saved page's links can navigate), and very deep or very large
pages open in a flattened rendering with a notice."""

from __future__ import annotations

import pytest
from browser_fixtures import browser, context, live_server, signed_in  # noqa: F401 -- fixtures
from workbench import make_page

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
