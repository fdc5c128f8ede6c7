"""The leaderboard views and the JSON API show exactly what `goldtext score` and `goldtext compare` print,
for every metric and filter, on the demo corpus built once for the test run (demo_fixtures.py).

The two sides share nothing but the database: the commands run through an app of their own (click's
runner on its `goldtext` command group), and for a few cases as the real console script in a process of
its own, configured from the environment as a user runs it."""

from __future__ import annotations

import json
import re

import pytest
from demo_fixtures import demo_app_on
from serving_fixtures import goldtext_env, run_goldtext

from webapp.extractors.registry import METADATA_ONLY, build_registry, runnable
from webapp.web.db import dispose

BOOTSTRAP = ["--bootstrap", "200", "--seed", "7"]
METRICS = [("tokens", None), ("tokens", "micro"), ("shingles", None), ("rouge-lsum", None)]
FILTERS = {
    "everything": [],
    "one site, articles": ["--site", "garden-ledger.example", "--type", "article"],
    "author and batch": ["--author", "import", "--batch", "1"],
}
PAIRS = [("trafilatura", "whole-page"), ("readability", "justext")]


@pytest.fixture(scope="module")
def commands(demo_shared, tmp_path_factory):
    """An app of its own on the shared demo database, whose `goldtext` commands the tests run."""
    app = demo_app_on(demo_shared.url, tmp_path_factory.mktemp("commands-instance"))
    yield app
    dispose(app)


def cli_json(app, *args: str) -> dict:
    """What `goldtext ARGS --format json` prints."""
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
def test_leaderboard_api_and_page_equal_goldtext_score(demo_app, commands, metric, average, filters):
    cli_options = options(metric, average, filters)
    expected = cli_json(commands, "score", *cli_options)
    client = demo_app.test_client()
    api = client.get("/api/leaderboard", query_string=query(cli_options)).get_json()
    assert (api["metric"], api["average"], api["pages"]) == (expected["metric"], expected["average"], expected["pages"])
    assert api["extractors"] == expected["extractors"]
    text_extractors = [e for e in runnable(build_registry()) if e.name not in METADATA_ONLY]  # dates, metadata: not
    assert len(api["extractors"]) == len(text_extractors) and expected["pages"] > 0

    page = client.get("/leaderboard", query_string=query(cli_options)).get_data(as_text=True)
    for key in ("precision", "recall", "f1", "pages", "errors"):
        shown = cells(page, key)
        assert shown.keys() == expected["extractors"].keys()
        for name, figures in expected["extractors"].items():
            assert float(shown[name]) == figures[key]


@pytest.mark.parametrize("filters", FILTERS.values(), ids=FILTERS.keys())
@pytest.mark.parametrize("metric", ["tokens", "shingles"])
def test_sites_api_equals_goldtext_score_by_site(demo_app, commands, metric, filters):
    cli_options = options(metric, None, filters)
    expected = cli_json(commands, "score", "--by", "site", *cli_options)
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
def test_compare_api_equals_goldtext_compare(demo_app, commands, metric, average, filters, a, b):
    cli_options = options(metric, average, filters) + ["--top", "5"]
    expected = cli_json(commands, "compare", a, b, *cli_options)
    api = demo_app.test_client().get("/api/compare", query_string=[("a", a), ("b", b), *query(cli_options)]).get_json()
    texts = [(c.pop("text_a"), c.pop("text_b")) for c in api["changed"]]
    assert api == expected
    assert texts and all(text_a != text_b for text_a, text_b in texts)


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--metric", "tokens", "--average", "micro", "--site", "garden-ledger.example", *BOOTSTRAP],
        ["compare", "trafilatura", "whole-page", "--metric", "shingles", "--top", "5", *BOOTSTRAP],
    ],
    ids=["score", "compare"],
)
@pytest.mark.slow
def test_the_goldtext_command_in_a_process_of_its_own_prints_what_the_api_serves(demo_app, demo_shared, tmp_path,
                                                                               args):
    env = goldtext_env(tmp_path / "instance", demo_shared.url)
    printed = json.loads(run_goldtext([*args, "--format", "json"], env))
    client = demo_app.test_client()
    if args[0] == "score":
        api = client.get("/api/leaderboard", query_string=query(args[1:])).get_json()
        assert (api["metric"], api["average"], api["pages"]) == ("tokens", "micro", printed["pages"])
        assert api["extractors"] == printed["extractors"]
        assert len(printed["extractors"]) == len([e for e in runnable(build_registry()) if e.name not in METADATA_ONLY])
    else:
        api = client.get("/api/compare", query_string=[("a", args[1]), ("b", args[2]), *query(args[3:])]).get_json()
        for change in api["changed"]:
            del change["text_a"], change["text_b"]
        assert api == printed and printed["changed"]


def test_compare_page_shows_the_cli_figures(demo_app, commands):
    expected = cli_json(commands, "compare", "trafilatura", "whole-page", *BOOTSTRAP)
    html = demo_app.test_client().get(
        "/leaderboard/compare", query_string={"a": "trafilatura", "b": "whole-page", "bootstrap": 200, "seed": 7}
    ).get_data(as_text=True)
    assert f"A wins {expected['wins']}, loses {expected['losses']}, ties {expected['ties']}" in html
    assert f'data-key="difference" data-value="{expected["difference"]}"' in html
    assert html.count('class="change"') == len(expected["changed"])


def test_a_stored_fingerprint_compares_like_on_the_command_line(demo_app, commands):
    fingerprint = demo_app.test_client().get("/api/leaderboard").get_json()["extras"]["density"]["fingerprint"]
    expected = cli_json(commands, "compare", fingerprint, "readability", "--bootstrap", "50")
    api = demo_app.test_client().get("/api/compare", query_string={"a": fingerprint, "b": "readability",
                                                                "bootstrap": 50}).get_json()
    assert api["a"] == {"name": fingerprint, "fingerprint": fingerprint, "composition": None}
    assert api["difference"] == expected["difference"] and api["wins"] == expected["wins"]


def test_guard_api_equals_goldtext_guard(demo_app, commands):
    expected = cli_json(commands, "guard")
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
