"""Every action a face offers is one use-case call: each route and each `goldtext` command that changes data is
in the tables below with the use cases it calls (read from its source, tests/use_case_calls.py), and writes
nothing of its own (no audit record, job, batch, row or score of its own: it parses, calls, commits and
answers); a new one fails here until it is. Each route's access rule (web/access.py ACCESS) is the highest
role of its use cases, as are the figures' routes'. Starting an extraction, reading a leaderboard and the
figures beside it: the command line and the API make the same use-case call, so they start the same job and
show the same figures, and refuse the same requests with the same reason."""

from __future__ import annotations

import json

import click
import pytest
from demo_fixtures import demo_app_on
from sqlalchemy import select
from use_case_calls import calls_of
from use_case_calls import commands as all_commands
from workbench import add_account, make_page

from webapp import create_app
from webapp.accounts.credentials import TOKEN, issue
from webapp.accounts.roles import ADMIN, ANNOTATOR, ROLES
from webapp.models import AuditEvent, Job
from webapp.usecases.outcome import role_of
from webapp.web.access import ACCESS, PUBLIC
from webapp.web.db import dispose

APP = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "one-call-per-action"})
CHANGES = {"POST", "PUT", "PATCH", "DELETE"}

ROUTES = {
    "accounts.add": {"add_account"},
    "accounts.change_password": {"change_own_password", "wrong_current_password"},
    "accounts.disable": {"disable_account", "enable_account"},
    "accounts.logout": {"log_out"},
    "accounts.logout_everywhere": {"log_out_everywhere"},
    "accounts.logout_user": {"log_user_out"},
    "accounts.revoke_tokens_of": {"revoke_user_tokens"},
    "accounts.role": {"change_role"},
    "accounts.token": {"new_token"},
    "accounts.unlock": {"unlock_account"},
    "adjudication.save": {"adjudicate_page"},
    "adjudication.void": {"void_annotation"},
    "annotate.restore": {"restore"},
    "api.start_extraction_json": {"start_extraction"},
    "api.write_gold": {"save"},
    "capture.start": {"start_capture"},
    "checks.run": {"run_checks"},
    "console.assign": {"assign_pages", "reassign_pages", "unassign_pages"},
    "console.changes": {"request_changes"},
    "console.comment": {"add_comment"},
    "console.controls": {"give_control", "make_control"},
    "console.end": {"end_control"},
    "console.tabs": {"arrange_tabs"},
    "console.undo": {"undo_assignment"},
    "exports.start": {"start_export"},
    "extractors.add": {"add_extractor_variant"},
    "extractors.compose": {"compose_extractors"},
    "extractors.pipeline": {"start_pipeline_export"},
    "extractors.remove": {"remove_extractor_variant"},
    "extractors.remove_composition": {"remove_composed"},
    "guidelines.save": {"save_guideline"},
    "jobs.cancel": {"cancel"},
    "leaderboard.refresh": {"start_refresh"},
    "pages.choose_scored": {"choose_scored_rendering"},
    "queue.hand_back": {"unassign_pages"},
    "sites.accept_learned": {"accept_learned_rule"},
    "upload.receive": {"start_upload"},
}
"""Each route that changes data (POST, PUT, PATCH, DELETE) and the use cases it calls: several where one form
offers several actions (enable or disable; assign, reassign or unassign), one each time."""

NOT_ACTIONS = {
    "accounts.login": "who asks is not known until it ends: accounts/login.py's three steps, audited there",
    "annotate.name": "keeps the name typed in local mode in the browser's session cookie; stores nothing",
    "api.preview_json": "renders Markdown for the editor's preview; stores nothing",
}
"""Routes that take a POST but are no user's action on the data, and why."""

COMMANDS = {
    "assign": {"assign_pages", "unassign_pages", "undo_assignment"},
    "capture": {"start_capture"},
    "check": {"check_now"},
    "demo": {"start_import", "import_pages", "end_import", "set_site_rule", "start_extraction"},
    "export": {"refresh_counts", "export_pages", "export_pipeline_choice"},
    "extract": {"start_extraction"},
    "extractors add": {"add_extractor_variant"},
    "extractors remove": {"remove_composed", "remove_extractor_variant"},
    "extractors compose": {"compose_extractors"},
    "guidelines import": {"save_guideline"},
    "import": {"start_import", "import_pages", "import_documents_into", "end_import"},
    "jobs cancel": {"cancel"},
    "rules set": {"set_site_rule"},
    "rules delete": {"delete_site_rule"},
    "users add": {"add_account"},
    "users set-role": {"change_role"},
    "users disable": {"disable_account"},
    "users enable": {"enable_account"},
    "users password": {"reset_password"},
    "users logout": {"log_user_out"},
    "users unlock": {"unlock_account"},
    "users token": {"new_token"},
}
"""Each command that changes data and the use cases it calls (an import: its start, its pages, its end; the demo:
an import, its site rules and an extraction)."""

READ_ONLY_COMMANDS = {"agreement", "audit", "audit verify", "compare", "crawl-report", "guard", "jobs",
                      "extractors", "extractors list", "rules", "rules list", "rules report", "score", "sites",
                      "pages", "structure-tests", "users", "users list", "guidelines", "guidelines export"}
"""Commands that change no data (`score` and `compare` bring the scores' cache up to date first, as a read does,
through usecases/refresh.py; a group alone lists or prints)."""

NOT_USE_CASES = {
    "db": "the schema's migrations: the database itself, before any user or action",
    "db upgrade": "the schema's migrations", "db downgrade": "the schema's migrations",
    "run": "serves the app: its routes call the use cases", "serve": "serves the app: its routes call the use cases",
    "worker": "runs the jobs the use cases queued: their steps call the use cases as the job's starter "
              "(test_one_call_per_step.py)",
    "audit checkpoint": "writes the audit chain's head to a file outside the database, changing no data",
}
"""The commands that are not use cases by nature, and why: the one list of them."""


def changing_routes() -> set[str]:
    return {rule.endpoint for rule in APP.url_map.iter_rules() if CHANGES & (rule.methods or set())}


def test_every_route_that_changes_data_is_an_action_of_the_table_or_says_why_not():
    assert changing_routes() - set(NOT_ACTIONS) == set(ROUTES)
    assert set(NOT_ACTIONS) <= changing_routes()


def test_every_command_is_an_action_a_read_or_not_a_use_case_by_nature():
    names = [name for name, _ in all_commands()]
    kinds = [set(COMMANDS), READ_ONLY_COMMANDS, set(NOT_USE_CASES)]
    assert sorted(name for name in names if sum(name in kind for kind in kinds) != 1) == []
    assert set().union(*kinds) == set(names)


def highest(roles: set[str]) -> str:
    return max(roles, key=ROLES.index)


@pytest.mark.parametrize("endpoint", sorted(ROUTES))
def test_a_route_calls_its_use_cases_writes_nothing_itself_and_its_rule_is_their_role(endpoint):
    calls = calls_of(APP.view_functions[endpoint])
    assert {use_case.__name__ for use_case in calls.use_cases} == ROUTES[endpoint]
    assert calls.writes == set()
    assert ACCESS[endpoint] == highest({role_of(use_case) for use_case in calls.use_cases}), sorted(
        (f.__name__, role_of(f)) for f in calls.use_cases)


@pytest.mark.parametrize("endpoint", sorted(NOT_ACTIONS))
def test_a_route_that_is_no_action_is_open_to_anyone_signed_in(endpoint):
    assert ACCESS[endpoint] in (PUBLIC, ANNOTATOR)


FIGURES = ["api.sites_json", "api.compare_json", "api.guard_json", "api.site_rules_json", "api.leaderboard_pages_json",
           "api.editor_json", "sites.index", "sites.guard", "sites.rules", "leaderboard.pages", "leaderboard.compare",
           "annotate.page", "api.leaderboard_json", "api.leaderboard_metadata_json", "leaderboard.index",
           "leaderboard.table", "leaderboard.metadata"]


@pytest.mark.parametrize("endpoint", FIGURES)
def test_a_route_of_figures_reads_them_through_use_cases_whose_role_is_its_access_rule(endpoint):
    called = calls_of(APP.view_functions[endpoint]).use_cases
    assert called
    assert ACCESS[endpoint] == highest({role_of(use_case) for use_case in called})


COMMANDS_BY_NAME = dict(all_commands())


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_command_that_changes_data_calls_its_use_cases_and_writes_nothing_itself(name):
    command = COMMANDS_BY_NAME[name]
    assert not isinstance(command, click.Group)
    calls = calls_of(command.callback)
    assert {use_case.__name__ for use_case in calls.use_cases} == COMMANDS[name]
    assert calls.writes == set()


@pytest.mark.parametrize("name", sorted(READ_ONLY_COMMANDS))
def test_a_command_that_reads_writes_nothing_itself(name):
    assert calls_of(COMMANDS_BY_NAME[name].callback).writes == set()


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
