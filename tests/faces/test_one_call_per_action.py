"""Starting an extraction, reading a leaderboard and the figures beside it: the command line and the API make
the same use-case call (usecases/extract.py, usecases/read_board.py, usecases/read_figures.py), so they start
the same job and show the same figures, and refuse the same requests with the same reason."""

from __future__ import annotations

import json

import pytest
from demo_fixtures import demo_app_on
from sqlalchemy import select
from workbench import add_account, make_page

from webapp.accounts.credentials import TOKEN, issue
from webapp.accounts.roles import ADMIN, ANNOTATOR
from webapp.db import dispose
from webapp.models import AuditEvent, Job


def bearer(session, name: str, role: str) -> dict[str, str]:
    """The Authorization header of a new API token of a new user with this role."""
    user = add_account(session, name, role)
    secret = issue(session, user, TOKEN)
    session.commit()
    return {"Authorization": f"Bearer {secret}"}


def job_started(session, job_id: int) -> tuple:
    """What a start of an extraction stored: the job's type, parameters and first step, and its audit event."""
    session.expire_all()
    job = session.get(Job, job_id)
    event = session.scalars(select(AuditEvent).where(AuditEvent.target == f"job {job_id}")).one()
    return job.kind, job.params, [chunk.step for chunk in job.chunks][:1], event.action, event.detail


def test_goldtext_extract_and_the_api_start_the_same_extraction(app, session, runner, client):
    make_page(session)
    headers = bearer(session, "Ann", ADMIN)
    session.rollback()
    started = runner.invoke(args=["extract", "--background", "--extractor", "density", "--site", "news.example",
                                  "--force"])
    assert started.exit_code == 0, started.output
    by_command = int(started.output.split()[-1])
    response = client.post("/api/extractions", headers=headers,
                           json={"extractors": ["density"], "site": "news.example", "force": True})
    assert response.status_code == 202, response.get_json()
    by_api = response.get_json()["job"]
    assert by_api != by_command
    params = {"extractors": ["density"], "site": "news.example", "force": True, "outdated": False,
              "derive_only": False}
    assert job_started(session, by_command) == job_started(session, by_api) == (
        "extract", params, ["plan"], "extract", params)
    assert client.get(response.get_json()["progress"], headers=headers).get_json()["kind"] == "extract"


@pytest.mark.parametrize(("names", "reason"), [
    (["nope"], "unknown extractor: nope"),
    (["density", ""], "'extractors'[1]: '' should be non-empty"),
])
def test_an_extraction_the_rules_refuse_is_refused_alike_and_starts_nothing(app, session, runner, client, names,
                                                                           reason):
    headers = bearer(session, "Ann", ADMIN)
    session.rollback()
    refused = client.post("/api/extractions", headers=headers, json={"extractors": names})
    assert refused.status_code == 400 and reason in refused.get_json()["message"]
    if "" not in names:  # the command line cannot send an empty name as an option's value the same way
        by_command = runner.invoke(args=["extract", "--background", *(f"--extractor={n}" for n in names)])
        assert by_command.exit_code == 2 and reason in by_command.output
    assert session.scalars(select(Job)).all() == []


def test_only_an_admin_starts_an_extraction_through_the_api(app, session, client):
    headers = bearer(session, "Bea", ANNOTATOR)
    refused = client.post("/api/extractions", headers=headers, json={})
    assert refused.status_code == 403 and refused.get_json()["error"] == "Forbidden"
    assert session.scalars(select(Job)).all() == []


@pytest.fixture(scope="module")
def commands(demo_shared, tmp_path_factory):
    """An app of its own on the shared demo database, whose `goldtext` commands the tests run."""
    app = demo_app_on(demo_shared.url, tmp_path_factory.mktemp("commands-instance"))
    yield app
    dispose(app)


@pytest.mark.parametrize("options", [
    ["--metric", "tokens", "--bootstrap", "200", "--seed", "3"],
    ["--metric", "shingles", "--by", "site", "--extractor", "trafilatura", "--extractor", "justext",
     "--bootstrap", "100"],
    ["--metric", "tokens", "--average", "micro", "--site", "garden-ledger.example", "--bootstrap", "0"],
], ids=["every-extractor", "two-by-site", "micro-one-site"])
def test_goldtext_score_prints_the_api_leaderboard_whole(demo_app, commands, options):
    """Not only the figures: the extras, noise, ceiling, too-few verdict, drift, pending and not-run lists."""
    printed = commands.test_cli_runner().invoke(args=["score", *options, "--format", "json"])
    assert printed.exit_code == 0, printed.output
    query = [(options[i][2:], options[i + 1]) for i in range(0, len(options), 2)]
    served = demo_app.test_client().get("/api/leaderboard", query_string=query)
    assert served.status_code == 200
    expected = json.loads(printed.output)
    assert served.get_json() == expected
    assert {"extras", "noise", "ceiling", "too_few", "drift", "pending", "not_run"} <= expected.keys()
    assert ("groups" in expected) == ("--by" in options)


@pytest.mark.parametrize(("options", "reason"), [
    (["--metric", "nope"], "unknown metric 'nope'"),
    (["--metric", "shingles", "--average", "micro"], "fixed average"),
    (["--extractor", "nope"], "unknown extractor: nope"),
])
def test_goldtext_score_and_the_api_refuse_a_leaderboard_alike(demo_app, commands, options, reason):
    printed = commands.test_cli_runner().invoke(args=["score", *options, "--format", "json"])
    assert printed.exit_code == 2 and reason in printed.output
    query = [(options[i][2:], options[i + 1]) for i in range(0, len(options), 2)]
    served = demo_app.test_client().get("/api/leaderboard", query_string=query)
    assert served.status_code == 400 and reason in served.get_json()["message"]


@pytest.mark.parametrize(("command", "query", "keys"), [
    (["sites", "--metric", "tokens"], "/api/sites?metric=tokens", ("sites", "types", "drift")),
    (["sites", "--metric", "shingles", "--site", "garden-ledger.example", "--bootstrap", "50"],
     "/api/sites?metric=shingles&site=garden-ledger.example&bootstrap=50", ("sites", "types", "drift")),
    (["pages", "trafilatura", "--limit", "5"], "/api/leaderboard/pages?extractor=trafilatura&limit=5", None),
    (["rules", "report"], "/api/site-rules", None),
    (["guard"], "/api/guard", ("guard",)),
    (["compare", "trafilatura", "justext", "--bootstrap", "100", "--top", "3"],
     "/api/compare?a=trafilatura&b=justext&bootstrap=100&top=3", ("wins", "losses", "ties", "f1_a", "f1_b", "noise")),
], ids=["sites", "sites-of-one-site", "pages", "rules-report", "guard", "compare"])
def test_the_figures_beside_the_leaderboard_are_the_apis_on_the_command_line(demo_app, commands, command, query,
                                                                              keys):
    printed = commands.test_cli_runner().invoke(args=[*command, "--format", "json"])
    assert printed.exit_code == 0, printed.output
    served = demo_app.test_client().get(query)
    assert served.status_code == 200
    expected = json.loads(printed.output)
    if keys is None:
        assert served.get_json() == expected
    else:
        wanted = expected if command[0] != "guard" else {"guard": expected}
        assert {key: served.get_json()[key] for key in keys} == {key: wanted[key] for key in keys}
    assert expected


def test_an_unknown_extractor_is_refused_alike_by_goldtext_pages_and_the_api(demo_app, commands):
    printed = commands.test_cli_runner().invoke(args=["pages", "nope"])
    served = demo_app.test_client().get("/api/leaderboard/pages?extractor=nope")
    assert printed.exit_code == 2 and served.status_code == 400
    assert served.get_json()["message"] in printed.output
