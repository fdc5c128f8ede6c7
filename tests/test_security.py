"""The security baseline: CSRF on every state change, the CSP and protective headers on every response,
the raw page route's isolation headers, escaping, and the request size cap."""

from __future__ import annotations

import re

import pytest
from workbench import csrf, make_page, sign_in

from webapp.web.security import RAW_PAGE_CSP

HOSTILE = '<html><body><p>Text</p><script>alert(1)</script><img src="http://127.0.0.1:9/x.png"></body></html>'


@pytest.fixture
def page_id(session):
    return make_page(session, HOSTILE, url="https://news.example/a", candidates={"trafilatura": "Text"}).id


@pytest.mark.parametrize(
    "path, kwargs",
    [
        ("/annotator", {"data": {"name": "Mallory"}}),
        ("/api/pages/{id}/gold", {"json": {"text": "x", "kind": "article", "status": "done", "version": 0,
                                           "client_save_id": "c1"}}),
        ("/pages/{id}/history/1/restore", {"data": {}}),
        ("/upload", {"data": {"format": "auto"}}),
    ],
)
@pytest.mark.parametrize("token", [None, "wrong"])
def test_state_changes_without_the_right_csrf_token_are_refused(client, page_id, path, kwargs, token):
    csrf(client)  # the session has a token; the request does not carry it (or carries another)
    headers = {"X-CSRF-Token": token} if token else {}
    response = client.post(path.format(id=page_id), headers=headers, **kwargs)
    assert response.status_code == 400


def test_a_form_field_or_a_header_carries_the_token(client, page_id):
    token = sign_in(client)
    by_header = client.post(
        f"/api/pages/{page_id}/gold",
        json={"text": "Text", "kind": "article", "status": "done", "version": 0, "client_save_id": "h1"},
        headers={"X-CSRF-Token": token},
    )
    assert by_header.status_code == 200
    by_field = client.post("/annotator", data={"name": "Bob", "csrf_token": token})
    assert by_field.status_code == 302


def test_the_refused_json_request_gets_a_json_error(client, page_id):
    csrf(client)
    response = client.post(f"/api/pages/{page_id}/gold", json={})
    assert response.status_code == 400
    assert "CSRF" in response.json["message"]


APP_PAGES = ["/", "/annotator", "/upload", "/pages/{id}", "/pages/{id}/history", "/pages/{id}/source",
             "/api/pages/{id}/gold", "/no-such-page"]


@pytest.mark.parametrize("path", APP_PAGES)
def test_every_app_response_carries_the_nonce_csp_and_protective_headers(client, page_id, path):
    sign_in(client)
    response = client.get(path.format(id=page_id))
    csp = response.headers["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]+)", csp).group(1).split()
    assert "'unsafe-inline'" not in script_src and any(s.startswith("'nonce-") for s in script_src)
    assert "frame-ancestors 'self'" in csp
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("path", ["/", "/pages/{id}", "/pages/{id}/history"])
def test_app_pages_have_no_inline_scripts_and_every_script_carries_the_nonce(client, page_id, path):
    sign_in(client)
    response = client.get(path.format(id=page_id))
    nonce = re.search(r"'nonce-([^']+)'", response.headers["Content-Security-Policy"]).group(1)
    scripts = re.findall(r"<script([^>]*)>", response.get_data(as_text=True))
    assert scripts
    for attributes in scripts:
        assert f'nonce="{nonce}"' in attributes
        assert "src=" in attributes or 'type="application/json"' in attributes


def test_the_nonce_changes_with_every_response(client, page_id):
    first = client.get("/").headers["Content-Security-Policy"]
    second = client.get("/").headers["Content-Security-Policy"]
    assert first != second


def test_the_raw_page_is_served_decoded_with_the_isolation_headers(client, page_id):
    response = client.get(f"/pages/{page_id}/raw")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == HOSTILE
    assert response.mimetype == "text/html" and response.mimetype_params["charset"] == "utf-8"
    assert response.headers["Content-Security-Policy"] == RAW_PAGE_CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"


def test_the_source_view_is_escaped_and_numbered_line_by_line(client, session):
    html = "<html>\n<body>\n<script>alert('x')</script>\n</body>\n</html>"
    page = make_page(session, html)
    text = client.get(f"/pages/{page.id}/source").get_data(as_text=True)
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in text
    assert text.count("<li>") == 5


@pytest.mark.parametrize("path", ["/pages/999/raw", "/pages/999/source"])
def test_a_missing_page_is_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "url, linked",
    [("https://news.example/a?x=1&y=2", True), ("javascript:alert(1)", False), ("data:text/html,hi", False)],
)
def test_only_http_urls_become_links_and_all_are_escaped(client, session, url, linked):
    page = make_page(session, url=url)
    sign_in(client)
    text = client.get(f"/pages/{page.id}").get_data(as_text=True)
    escaped = url.replace("&", "&amp;")
    assert (f'href="{escaped}"' in text) is linked


def test_titles_and_urls_are_escaped_in_the_queue(client, session):
    make_page(session, url='https://news.example/<script>alert("q")</script>')
    text = client.get("/").get_data(as_text=True)
    assert '<script>alert("q")' not in text
    assert "&lt;script&gt;" in text


def test_a_request_over_the_size_cap_is_413(app, client):
    token = sign_in(client)
    app.config["MAX_CONTENT_LENGTH"] = 1000
    response = client.post(
        "/api/pages/1/gold", data="x" * 5000, content_type="application/json",
        headers={"X-CSRF-Token": token},
    )
    assert response.status_code == 413


def _key_when_released(instance: str, barrier) -> str:
    from webapp.config import secret_key

    barrier.wait()
    return secret_key(instance)


def test_processes_started_together_agree_on_one_secret_key(tmp_path):
    """Web processes and workers started at once on a new instance must sign sessions with the same key,
    or a CSRF token issued by one process is refused by the next."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    barrier = context.Manager().Barrier(8)
    with context.Pool(8) as pool:
        keys = pool.starmap(_key_when_released, [(str(tmp_path), barrier)] * 8)
    assert len(set(keys)) == 1 and len(keys[0]) == 64
    assert (tmp_path / "secret_key").read_text() == keys[0]
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary file left behind
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
