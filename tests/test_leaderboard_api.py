"""The leaderboard views and the JSON API show exactly what `goldtext score` and `goldtext compare` print,
for every metric and filter, on the demo corpus built once for the test run (demo_fixtures.py)."""

from __future__ import annotations

import json
import re

import pytest

BOOTSTRAP = ["--bootstrap", "200", "--seed", "7"]
METRICS = [("tokens", None), ("tokens", "micro"), ("shingles", None), ("rouge-lsum", None)]
FILTERS = {
    "everything": [],
    "one site, articles": ["--site", "garden-ledger.example", "--kind", "article"],
    "annotator and batch": ["--annotator", "import", "--batch", "1"],
}
PAIRS = [("trafilatura", "whole-page"), ("readability", "justext")]


def cli_json(app, *args: str) -> dict:
    result = app.test_cli_runner().invoke(args=[*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def options(metric: str, average: str | None, filters: list[str]) -> list[str]:
    return ["--metric", metric, *(["--average", average] if average else []), *filters, *BOOTSTRAP]


def query(cli_options: list[str]) -> list[tuple[str, str]]:
    """The CLI options as query-string pairs (same names, without the dashes)."""
    return [(cli_options[i][2:], cli_options[i + 1]) for i in range(0, len(cli_options), 2)]


def cells(html: str, key: str) -> dict[str, str]:
    """extractor -> the data-value of its `key` cell in the leaderboard table."""
    found = {}
    for name, row in re.findall(r'<tr data-extractor="([^"]+)">(.*?)</tr>', html, re.S):
        found[name] = re.search(rf'data-key="{key}" data-value="([^"]*)"', row).group(1)
    return found


@pytest.mark.parametrize("filters", FILTERS.values(), ids=FILTERS.keys())
@pytest.mark.parametrize(("metric", "average"), METRICS, ids=[f"{m}-{a or 'own'}" for m, a in METRICS])
def test_leaderboard_api_and_page_equal_goldtext_score(demo_app, metric, average, filters):
    cli_options = options(metric, average, filters)
    expected = cli_json(demo_app, "score", *cli_options)
    client = demo_app.test_client()
    api = client.get("/api/leaderboard", query_string=query(cli_options)).get_json()
    assert (api["metric"], api["average"], api["pages"]) == (expected["metric"], expected["average"], expected["pages"])
    assert api["extractors"] == expected["extractors"]
    assert len(api["extractors"]) == 10 and expected["pages"] > 0

    page = client.get("/leaderboard", query_string=query(cli_options)).get_data(as_text=True)
    for key in ("precision", "recall", "f1", "pages", "errors"):
        shown = cells(page, key)
        assert shown.keys() == expected["extractors"].keys()
        for name, figures in expected["extractors"].items():
            assert float(shown[name]) == figures[key]


@pytest.mark.parametrize("filters", FILTERS.values(), ids=FILTERS.keys())
@pytest.mark.parametrize("metric", ["tokens", "shingles"])
def test_sites_api_equals_goldtext_score_by_site(demo_app, metric, filters):
    cli_options = options(metric, None, filters)
    expected = cli_json(demo_app, "score", "--by", "site", *cli_options)
    api = demo_app.test_client().get("/api/sites", query_string=query(cli_options)).get_json()
    assert api["groups"] == expected["groups"]
    assert api["extractors"] == expected["extractors"]
    ranked = {row["site"]: row for row in api["sites"]}
    for site, group in expected["groups"].items():
        assert ranked[site]["pages"] == group["pages"]
        assert ranked[site]["f1"] == {name: f["f1"] for name, f in group["extractors"].items()}


@pytest.mark.parametrize("filters", FILTERS.values(), ids=FILTERS.keys())
@pytest.mark.parametrize(("metric", "average"), METRICS, ids=[f"{m}-{a or 'own'}" for m, a in METRICS])
@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_compare_api_equals_goldtext_compare(demo_app, metric, average, filters, a, b):
    cli_options = options(metric, average, filters) + ["--top", "5"]
    expected = cli_json(demo_app, "compare", a, b, *cli_options)
    api = demo_app.test_client().get("/api/compare", query_string=[("a", a), ("b", b), *query(cli_options)]).get_json()
    texts = [(c.pop("text_a"), c.pop("text_b")) for c in api["changed"]]
    assert api == expected
    assert all(text_a != text_b for text_a, text_b in texts)


def test_compare_page_shows_the_cli_figures(demo_app):
    expected = cli_json(demo_app, "compare", "trafilatura", "whole-page", *BOOTSTRAP)
    html = demo_app.test_client().get(
        "/leaderboard/compare", query_string={"a": "trafilatura", "b": "whole-page", "bootstrap": 200, "seed": 7}
    ).get_data(as_text=True)
    assert f"A wins {expected['wins']}, loses {expected['losses']}, ties {expected['ties']}" in html
    assert f'data-key="difference" data-value="{expected["difference"]}"' in html
    assert html.count('class="change"') == len(expected["changed"])


def test_a_stored_fingerprint_compares_like_on_the_command_line(demo_app):
    fingerprint = demo_app.test_client().get("/api/leaderboard").get_json()["extras"]["density"]["fingerprint"]
    expected = cli_json(demo_app, "compare", fingerprint, "readability", "--bootstrap", "50")
    api = demo_app.test_client().get("/api/compare", query_string={"a": fingerprint, "b": "readability",
                                                                "bootstrap": 50}).get_json()
    assert api["a"] == {"name": fingerprint, "fingerprint": fingerprint}
    assert api["difference"] == expected["difference"] and api["wins"] == expected["wins"]


def test_guard_api_equals_goldtext_guard(demo_app):
    expected = cli_json(demo_app, "guard")
    assert demo_app.test_client().get("/api/guard").get_json()["guard"] == expected


def test_page_scores_api_lists_every_extractor_and_eager_metric(demo_app):
    client = demo_app.test_client()
    board = client.get("/api/leaderboard").get_json()
    worst = client.get("/api/leaderboard/pages", query_string={"extractor": "whole-page"}).get_json()
    page = worst["rows"][0]
    scores = client.get(f"/api/pages/{page['page_id']}/scores").get_json()
    whole_page = scores[board["extras"]["whole-page"]["fingerprint"]]
    assert whole_page["extractor"] == "whole-page"
    assert whole_page["metrics"]["tokens"]["f1"] == page["f1"]
    assert {"tokens", "shingles"} <= set(whole_page["metrics"])
    assert client.get("/api/pages/999999/scores").status_code == 404


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/api/leaderboard?metric=nope", "unknown metric"),
        ("/api/leaderboard?metric=shingles&average=micro", "fixed average"),
        ("/api/leaderboard?extractor=nope", "unknown extractor"),
        ("/api/leaderboard?batch=x", "batch"),
        ("/api/leaderboard?bootstrap=-1", "bootstrap"),
        ("/api/compare?a=trafilatura", "two extractors"),
        ("/api/leaderboard/pages", "extractor"),
    ],
)
def test_bad_queries_are_400_naming_the_problem(demo_app, url, message):
    response = demo_app.test_client().get(url)
    assert response.status_code == 400
    assert message in response.get_json()["message"]
