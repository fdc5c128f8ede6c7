"""The gold editor's preview: the editor's Markdown rendered as safe HTML."""

from __future__ import annotations

from webapp.web.markdown import render_gold

HOSTILE = """# Fares

- day **return**

| Day | Time |
| --- | --- |
| Mon | 10:15 |

<table onclick="steal()"><tr><td rowspan="2" style="x">A<script>alert(1)</script></td>\
<td><img src=x onerror=y>z</td></tr></table>

[js](javascript:alert(1)) <a href="javascript:alert(2)">x</a> ![pixel](https://tracker.example/p.png)"""


def test_the_preview_keeps_structure_and_drops_everything_active():
    html = str(render_gold(HOSTILE))
    assert "<h1>Fares</h1>" in html and "<strong>return</strong>" in html
    assert "<th>Day</th>" in html and "<td>10:15</td>" in html and 'rowspan="2"' in html
    for active in ("<script", "onclick", "onerror", 'href="javascript', "<img", "src=", "style="):
        assert active not in html, active


def test_the_api_renders_the_editors_lines(client):
    token = client.get("/").get_data(as_text=True).split('name="csrf-token" content="')[1].split('"')[0]
    answer = client.post("/api/preview", json={"markdown": "# One\n\nTwo\n\n- three"}, headers={"X-CSRF-Token": token})
    html = answer.get_json()["html"]
    assert "<h1>One</h1>" in html and "<p>Two</p>" in html and "<li>three</li>" in html
    assert client.post("/api/preview", json={"text": "x"}, headers={"X-CSRF-Token": token}).status_code == 400
