"""Every use case states its role (usecases/outcome.py `needs`, `reads`) and refuses a role below its own by
itself, whichever face forgot to check; audit actions are one typed list; one's own account is one's own.
That every route's access rule is its use cases' role: test_one_call_per_action.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from workbench import make_page

from webapp.accounts.roles import ADMIN, ANNOTATOR, REVIEWER
from webapp.annotation.boilerplate import BoilerplateCache
from webapp.exports.export_service import ExportRequest
from webapp.usecases.adjudicate import adjudicate_page, adjudication_request
from webapp.usecases.export_pages import export_pages
from webapp.usecases.extract import ExtractionRequest, start_extraction
from webapp.usecases.import_pages import start_import
from webapp.usecases.manage_accounts import add_account
from webapp.usecases.open_page import open_page
from webapp.usecases.outcome import Actor, Refused, needs, role_of
from webapp.usecases.run_checks import run_checks


def test_the_use_case_refuses_a_role_below_its_own_whichever_face_calls_it(app, session):
    """adjudicate_page and start_extraction relied on the route table alone; now each checks its own."""
    page = make_page(session)
    annotator = Actor("ann", ANNOTATOR)
    request = adjudication_request(_settings(app), version=0, page_type="article", status="done", note="",
                                   snippets=None, markdown="Text")
    with pytest.raises(Refused) as refused:
        adjudicate_page(session, _settings(app), annotator, page.id, request)
    assert (refused.value.status, refused.value.reason) == (403, "Only a reviewer or an admin adjudicates a page.")
    rita = Actor("rita", REVIEWER)
    for call in (lambda: start_extraction(session, _settings(app), rita, ExtractionRequest()),
                 lambda: start_import(session, rita, "pages", "auto", {}),
                 lambda: export_pages(session, _settings(app), rita, ExportRequest("jsonl"), Path("out"), metrics={}),
                 lambda: open_page(session, _settings(app), Actor("nobody", ""), page.id, BoilerplateCache()),
                 lambda: run_checks(session, _settings(app), annotator),
                 lambda: add_account(session, Actor("rita", REVIEWER), "zed", ANNOTATOR, "a long password")):
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.status == 403
    session.rollback()


def test_a_job_step_acts_as_the_user_who_started_the_job(app, session):
    """Actor.of_job: a step's use case checks the starter's role now and audits under their name."""
    from workbench import add_account as account

    from webapp.accounts.users import set_role
    from webapp.cli.actor import command_actor
    from webapp.jobs.records import create_job

    lease = _settings(app).lease.until()
    local = create_job(session, "upload", {}, "local", lease).id
    assert Actor.of_job(session, local) == Actor("local", ADMIN)  # local mode: everyone an admin, as the starter
    account(session, "ada", ADMIN)
    by_ada = create_job(session, "upload", {}, "ada", lease).id
    by_command = create_job(session, "export", {}, command_actor().name, lease).id
    assert Actor.of_job(session, by_ada) == Actor("ada", ADMIN)
    assert Actor.of_job(session, by_command) == command_actor()
    assert Actor.of_job(session, local) == Actor("local", "")  # no such account any more: no role
    account(session, "bob", ADMIN)
    set_role(session, "ada", ANNOTATOR)
    demoted = Actor.of_job(session, by_ada)
    with pytest.raises(Refused) as refused:
        start_import(session, demoted, "pages", "auto", {})
    assert (refused.value.status, refused.value.reason) == (403, "Only an admin imports pages.")
    with pytest.raises(LookupError):
        Actor.of_job(session, 10_000)
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
    from webapp.foundation.settings import settings_of

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
