"""A captured page's styled snapshot served safely: the frame's policy allows its own requisites route and
nothing else, the page names only captured copies, a captured stylesheet is served with every URL that
reaches elsewhere removed (attribute-selector leaks, @import, fonts, image-set, escapes, bad URLs), and the
requisites and the screenshot are answered to a frame's loads only."""

from __future__ import annotations

import re

import pytest
from styled_pages import SITE, styled_page

from webapp.web.security import RAW_PAGE_CSP

pytestmark = pytest.mark.security

REMOTE = "http://evil.example:8080"


@pytest.fixture
def page_id(session):
    return styled_page(session, REMOTE, rendered=True)


def test_the_styled_frame_may_load_its_requisites_and_nothing_else(client, page_id):
    response = client.get(f"/pages/{page_id}/raw?styled=1", headers={"Sec-Fetch-Dest": "iframe"})
    policy = response.headers["Content-Security-Policy"]
    prefix = f"http://localhost/pages/{page_id}/requisites/"
    assert f"img-src data: {prefix};" in policy and f"style-src 'unsafe-inline' {prefix};" in policy
    assert f"font-src data: {prefix};" in policy and "default-src 'none'" in policy and "sandbox" in policy
    body = response.get_data(as_text=True)
    assert "evil.example" not in body  # the base, the other sheet, the preload, the inline import, the images
    assert re.search(rf'<link rel="stylesheet" href="/pages/{page_id}/requisites/\d+">', body)
    assert re.search(rf'<img src="/pages/{page_id}/requisites/\d+">', body)
    plain = client.get(f"/pages/{page_id}/raw", headers={"Sec-Fetch-Dest": "iframe"})
    assert plain.headers["Content-Security-Policy"] == RAW_PAGE_CSP and "evil.example" in plain.get_data(as_text=True)


def test_a_captured_stylesheet_names_only_captured_copies(client, page_id):
    styled = client.get(f"/pages/{page_id}/raw?styled=1").get_data(as_text=True)
    sheet = re.search(r'<link rel="stylesheet" href="([^"]+)">', styled).group(1)
    response = client.get(sheet, headers={"Sec-Fetch-Dest": "style"})
    css = response.get_data(as_text=True)
    assert response.mimetype == "text/css" and response.headers["X-Content-Type-Options"] == "nosniff"
    assert "evil.example" not in css and "[bad url]" not in css
    assert "input[value^=a] { background: none; }" in css  # the leak's declaration no longer loads anything
    imports = re.findall(r'@import url\("([^"]+)"\)', css)
    assert len(imports) == 1 and client.get(imports[0]).get_data() == b"h1 { text-transform: uppercase; }"
    served = set(re.findall(rf'url\("(/pages/{page_id}/requisites/\d+)"\)', css)) - set(imports)
    assert len(served) == 2  # the kept font and the kept image, and nothing else
    assert {client.get(path).mimetype for path in served} == {"font/woff2", "image/png"}


@pytest.mark.parametrize("dest", ["document", "script", "iframe", "embed"])
def test_a_requisite_is_answered_to_a_stylesheet_font_or_image_load_only(client, page_id, dest):
    styled = client.get(f"/pages/{page_id}/raw?styled=1").get_data(as_text=True)
    sheet = re.search(r'<link rel="stylesheet" href="([^"]+)">', styled).group(1)
    assert client.get(sheet, headers={"Sec-Fetch-Dest": dest}).status_code == 403


def test_another_page_s_requisite_is_not_found(client, session, page_id):
    other = styled_page(session, REMOTE)
    styled = client.get(f"/pages/{page_id}/raw?styled=1").get_data(as_text=True)
    requisite = re.search(r'requisites/(\d+)', styled).group(1)
    assert client.get(f"/pages/{other}/requisites/{requisite}").status_code == 404


def test_the_rendering_and_the_screenshot_are_served_and_a_page_without_them_says_so(client, session, page_id):
    rendered = client.get(f"/pages/{page_id}/raw?rendering=rendered", headers={"Sec-Fetch-Dest": "iframe"})
    assert "Written by the page's script." in rendered.get_data(as_text=True)
    assert rendered.headers["Content-Security-Policy"] == RAW_PAGE_CSP
    shot = client.get(f"/pages/{page_id}/screenshot")
    assert shot.mimetype == "image/png" and shot.get_data()[:4] == b"\x89PNG"
    bare = styled_page(session, REMOTE)
    assert client.get(f"/pages/{bare}/raw?rendering=rendered").status_code == 404
    assert client.get(f"/pages/{bare}/screenshot").status_code == 404
    assert client.get(f"/pages/{page_id}/raw?rendering=other").status_code == 400
    assert SITE in client.get(f"/pages/{page_id}/raw").get_data(as_text=True)
