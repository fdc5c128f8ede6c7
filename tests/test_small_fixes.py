"""Issue 12's smaller defects: the name form's `next` (no open redirect, no 500), the --version, the 413
answer, head-to-head's metric, drift one line per site, empty queues, heatmap contrast, empty gold imports,
unavailable metrics shown as such."""

from __future__ import annotations

import pytest
from workbench import csrf

HOSTILE_NEXT = [
    "//evil.example/",
    "///evil.example/",
    "/\\evil.example/",
    "\\\\evil.example/",
    "/\t/evil.example/",
    "/\n/evil.example/",
    "/\r\n/evil.example/",
    "/\x00/evil.example/",
    " /evil",
    "/%09/evil.example/",
    "/%0a/evil.example/",
    "/%2F/evil.example/",
    "/%5Cevil.example/",
    "%2F%2Fevil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "/javascript:alert(1)//%0a",
    "https://evil.example/",
    "http:/evil.example",
    "http:evil.example",
    "evil.example",
    "data:text/html,<script>alert(1)</script>",
    "/\u2028/evil.example",
    "\u3002evil",
    "",
]


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_the_name_form_follows_no_hostile_next_and_never_fails(client, target):
    token = csrf(client)
    shown = client.get("/annotator", query_string={"next": target})
    assert shown.status_code == 200
    assert 'name="next" value="/"' in shown.get_data(as_text=True)
    response = client.post("/annotator", data={"name": "Ann", "csrf_token": token, "next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/pages/3", "/?site=news.example&annotator=Ann+Smith", "/leaderboard?metric=tokens",
                                    "/pages/3?annotator=Ann%20Smith"])
def test_the_name_form_follows_a_same_origin_path(client, target):
    token = csrf(client)
    response = client.post("/annotator", data={"name": "Ann", "csrf_token": token, "next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == target


def test_version_is_goldtexts_own():
    from importlib.metadata import version

    from click.testing import CliRunner

    from webapp.cli import main

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"goldtext {version('goldtext')}"
    assert "Flask" not in result.output


@pytest.mark.parametrize("path, kwargs, wants_json", [
    ("/api/pages/1/gold", {"data": "x" * 5000, "content_type": "application/json"}, True),
    ("/upload", {"data": {"format": "auto", "notes": "x" * 5000}}, False),
])
def test_the_413_answer_says_the_limit(app, client, path, kwargs, wants_json):
    from workbench import sign_in

    token = sign_in(client)
    app.config["MAX_CONTENT_LENGTH"] = 1000
    if wants_json:
        response = client.post(path, headers={"X-CSRF-Token": token}, **kwargs)
    else:
        kwargs["data"]["csrf_token"] = token
        response = client.post(path, **kwargs)
    assert response.status_code == 413
    message = response.get_json()["message"] if wants_json else response.get_data(as_text=True)
    assert "1000 bytes" in message and "MAX_CONTENT_LENGTH" in message
