"""An HTTP error outside the API answers with Goldtext's own page (the navigation bar, the status, what to
do), the address escaped; under /api/ it answers JSON. Every page names its icon, so no browser asks for a
missing /favicon.ico."""

from __future__ import annotations


def test_a_mistyped_address_gets_a_page_with_the_navigation_and_the_queue(client):
    response = client.get("/export")
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "<h1>Not Found</h1>" in page and "Nothing is at <code>/export</code>" in page
    assert 'href="/exports"' in page and 'href="/"' in page  # the navigation bar leads on


def test_the_address_is_escaped_on_the_page(client):
    page = client.get("/<script>alert(1)</script>").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_method_a_route_does_not_take_gets_a_page(client):
    response = client.get("/logout")  # a link to it, say, instead of the form's button
    assert response.status_code == 405 and "does not take a GET request" in response.get_data(as_text=True)


def test_the_api_answers_json(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404 and response.json["error"] == "Not Found"


def test_every_page_names_its_icon_so_browsers_do_not_ask_for_a_missing_one(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
