"""Every action a face offers is a use-case call whose role is the face's: each route that changes data
calls a use case stating its role (usecases/outcome.py `needs`), the route's access rule
(web/access.py ACCESS) is the highest role of the use cases it calls, and the figures' routes read through
use cases stating theirs (`reads`). Every `goldtext` command that changes data calls a use case too; the
use case refuses a role below its own by itself, whichever face forgot to check."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
import types
from collections.abc import Callable, Iterator

import click
import pytest
from sqlalchemy import select
from workbench import make_page

from webapp import create_app
from webapp.accounts.roles import ANNOTATOR, REVIEWER, ROLES
from webapp.cli.command_index import COMMANDS
from webapp.usecases.adjudicate import adjudicate_page, adjudication_request
from webapp.usecases.extract import ExtractionRequest, start_extraction
from webapp.usecases.manage_accounts import add_account
from webapp.usecases.outcome import Actor, Refused, needs, role_of
from webapp.usecases.run_checks import run_checks
from webapp.web.access import ACCESS, PUBLIC

APP = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "use-case-roles"})

NOT_ACTIONS = {
    "accounts.login": "who asks is not known until it ends: accounts/login.py's three steps, audited there",
    "annotate.name": "keeps the name typed in local mode in the browser's session cookie; stores nothing",
    "api.preview_json": "renders Markdown for the editor's preview; stores nothing",
}
"""POST routes that are no user's action on the data, and why."""

READ_ONLY_COMMANDS = {"agreement", "audit verify", "compare", "crawl-report", "guard", "jobs list", "extractors list",
                      "rules list", "rules report", "score", "sites", "pages", "structure-tests", "users list",
                      "guidelines export"}
"""Commands that change no data (`score` and `compare` bring the scores' cache up to date first, as a
read does)."""

NOT_A_USE_CASE = {
    "audit checkpoint": "writes the audit chain's head to the instance folder, outside the data",
    "db": "the schema's migrations: the database itself, before any user",
    "run": "serves the app", "serve": "serves the app", "worker": "runs the jobs the use cases queued",
}
"""Commands that change data without a role-stating use case, and why (the lead's list to finish)."""


FACES = ("webapp.views", "webapp.web", "webapp.cli")


def use_cases_called(func: Callable, seen: set | None = None) -> set[Callable]:
    """The use cases (functions stating a role) a face's function calls, itself or through a helper of the
    faces, read from its source: every name it uses, resolved in its module."""
    seen = set() if seen is None else seen
    func = inspect.unwrap(func)
    if func in seen or not isinstance(func, types.FunctionType):
        return set()
    seen.add(func)
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    found: set[Callable] = set()
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Name):
            target = func.__globals__.get(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = func.__globals__.get(node.value.id)
            target = getattr(owner, node.attr, None) if isinstance(owner, types.ModuleType) else None
        if not isinstance(target, types.FunctionType):  # request, session and other proxies are no use case
            continue
        if role_of(target) is not None:
            found.add(target)
        elif (getattr(target, "__module__", None) or "").startswith(FACES):
            found |= use_cases_called(target, seen)
    return found


def highest(roles: set[str]) -> str:
    return max(roles, key=ROLES.index)


POSTS = sorted({rule.endpoint for rule in APP.url_map.iter_rules() if "POST" in (rule.methods or ())})


@pytest.mark.parametrize("endpoint", POSTS)
def test_a_route_that_changes_data_calls_use_cases_whose_role_is_its_access_rule(endpoint):
    if endpoint in NOT_ACTIONS:
        assert ACCESS[endpoint] in (PUBLIC, ANNOTATOR)
        return
    called = use_cases_called(APP.view_functions[endpoint])
    assert called, f"{endpoint} calls no use case: a face parses, calls one use case, commits and answers"
    assert ACCESS[endpoint] == highest({role_of(use_case) for use_case in called}), sorted(
        (f.__name__, role_of(f)) for f in called)


FIGURES = ["api.sites_json", "api.compare_json", "api.guard_json", "api.site_rules_json", "api.leaderboard_pages_json",
           "sites.index", "sites.guard", "sites.rules", "leaderboard.pages", "leaderboard.compare"]


@pytest.mark.parametrize("endpoint", FIGURES)
def test_a_route_of_figures_reads_them_through_use_cases_whose_role_is_its_access_rule(endpoint):
    called = use_cases_called(APP.view_functions[endpoint])
    assert called
    assert ACCESS[endpoint] == highest({role_of(use_case) for use_case in called})


def commands() -> Iterator[tuple[str, click.Command]]:
    for name, entry in COMMANDS.items():
        module = importlib.import_module(f"webapp.cli.{entry.module}")
        (command,) = [c for c in module.COMMANDS if c.name == name]
        if isinstance(command, click.Group):
            for sub_name, sub in command.commands.items():
                yield f"{name} {sub_name}", sub
        yield name, command


CHANGING = [(name, command) for name, command in commands() if not isinstance(command, click.Group)
            and name not in READ_ONLY_COMMANDS and name not in NOT_A_USE_CASE
            and name.split()[0] not in NOT_A_USE_CASE]


@pytest.mark.parametrize("command", [c for _, c in CHANGING], ids=[n for n, _ in CHANGING])
def test_a_command_that_changes_data_calls_a_use_case(command):
    assert use_cases_called(command.callback), f"{command.name} calls no use case"


def test_the_use_case_refuses_a_role_below_its_own_whichever_face_calls_it(app, session):
    """adjudicate_page and start_extraction relied on the route table alone; now each checks its own."""
    page = make_page(session)
    annotator = Actor("ann", ANNOTATOR)
    request = adjudication_request(_settings(app), version=0, page_type="article", status="done", note="",
                                   snippets=None, markdown="Text")
    with pytest.raises(Refused) as refused:
        adjudicate_page(session, _settings(app), annotator, page.id, request)
    assert (refused.value.status, refused.value.reason) == (403, "Only a reviewer or an admin adjudicates a page.")
    for call in (lambda: start_extraction(session, _settings(app), Actor("rita", REVIEWER), ExtractionRequest()),
                 lambda: run_checks(session, _settings(app), annotator),
                 lambda: add_account(session, Actor("rita", REVIEWER), "zed", ANNOTATOR, "a long password")):
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.status == 403
    session.rollback()


def test_a_role_is_stated_once_and_checked_before_anything_runs():
    ran = []

    @needs(REVIEWER, "Only a lead.")
    def act(session, actor: Actor, value: int) -> int:
        ran.append(value)
        return value

    assert role_of(act) == REVIEWER
    assert act(None, Actor("rita", REVIEWER), 1) == 1 and act(None, actor=Actor("ada", "admin"), value=2) == 2
    with pytest.raises(Refused) as refused:
        act(None, Actor("ann", ANNOTATOR), 3)
    assert (refused.value.status, refused.value.reason, ran) == (403, "Only a lead.", [1, 2])
    with pytest.raises(TypeError):
        needs(REVIEWER, "no actor")(lambda session: None)


def _settings(app):
    from webapp.settings import settings_of

    return settings_of(app)


def test_an_action_outside_the_one_list_is_never_audited(app, session):
    from webapp.accounts import audit_log
    from webapp.accounts.audit_actions import Action
    from webapp.models import AuditEvent

    with pytest.raises(ValueError):
        audit_log.record(session, "ann", "gold.saved", "page 1")  # type: ignore[arg-type]
    Actor("ann", ANNOTATOR, "127.0.0.1").record(session, Action.GOLD_SAVE, "page 1")
    events = session.scalars(select(AuditEvent)).all()
    assert [(e.actor, e.action, e.address) for e in events] == [("ann", "gold.save", "127.0.0.1")]
    session.rollback()


def test_ones_own_account_is_ones_own_only(app, session):
    from workbench import add_account

    from webapp.accounts.credentials import LOGIN
    from webapp.usecases.own_account import log_out_everywhere

    bob = add_account(session, "bob", ANNOTATOR)
    with pytest.raises(Refused) as refused:
        log_out_everywhere(session, Actor("ann", "admin"), bob, keep_tokens=False)
    assert (refused.value.status, refused.value.reason) == (403, "ann may not change bob's account: only their own.")
    assert log_out_everywhere(session, Actor("bob", ANNOTATOR), bob, keep_tokens=True) == {LOGIN: 0}
    session.rollback()
