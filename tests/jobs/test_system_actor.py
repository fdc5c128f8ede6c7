"""The system actor (usecases/outcome.py `Actor.system`): what Goldtext starts of itself, the checks that follow
a save, is started, audited and run as ``system:checks``, whose role only the use cases a system may start accept;
no account can be named like it; and a job's step acts as its starter now, refused when they are disabled."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from workbench import add_account, add_gold, log_in, make_page

from webapp.accounts.roles import ADMIN, ANNOTATOR, ROLES, SYSTEM, at_least
from webapp.accounts.users import set_disabled
from webapp.foundation.settings import settings_of
from webapp.jobs.records import create_job
from webapp.models import AuditEvent, Extraction, GoldCheckRun, Job, utcnow
from webapp.usecases.follow_up_checks import CHECKER
from webapp.usecases.manage_accounts import add_account as add_account_as_admin
from webapp.usecases.outcome import Actor, Refused
from webapp.usecases.run_checks import check_now, run_checks
from webapp.usecases.start_export import start_export

GOLD = {"text": "The harbour opens a new quay", "type": "article", "status": "done", "version": 0,
        "client_save_id": "first", "metadata": {"title": None, "authors": [], "published": None}}


def test_a_save_s_checks_are_started_audited_and_run_by_the_system_not_the_user(app, session, client, run_jobs):
    page_id = make_page(session).id
    add_account(session, "Ada", ADMIN)
    add_account(session, "Bea", ANNOTATOR)
    token = log_in(client, "Bea")
    saved = client.post(f"/api/pages/{page_id}/gold", json=GOLD, headers={"X-CSRF-Token": token})
    assert saved.status_code == 200, saved.get_json()
    job = session.scalars(select(Job).where(Job.kind == "check")).one()
    assert (job.started_by, job.params["follow"]) == ("system:checks", True)
    event = session.scalars(select(AuditEvent).where(AuditEvent.target == f"job {job.id}")).one()
    assert (event.actor, event.action, event.address, event.detail) == ("system:checks", "check", "system",
                                                                         {"follow": True})
    session.rollback()
    assert run_jobs() == [job.id]
    session.expire_all()
    assert session.get(Job, job.id).status == "done"
    assert session.get(GoldCheckRun, page_id) is not None  # the save's page was checked
    session.rollback()
    log_in(client, "Ada")
    assert client.get(f"/api/jobs/{job.id}").get_json()["started_by"] == "system:checks"
    assert "system:checks" in client.get("/jobs").get_data(as_text=True)
    assert "system:checks" in client.get("/audit").get_data(as_text=True)


def test_a_follow_up_check_queued_before_the_system_actor_runs_as_the_system(app, session, run_jobs):
    """A job queued by an earlier version under the bare name "checks" (no account's) still runs when accounts
    exist: as system:checks, not refused as an unknown starter."""
    page = make_page(session)
    add_gold(session, page, text="The quay opens", page_type="article", status="done", author="Ada")
    page_id = page.id
    add_account(session, "Ada", ADMIN)
    job = create_job(session, "check", {"follow": True, "delay": 0}, "checks", utcnow())
    session.commit()
    assert Actor.of_job(session, job.id) == Actor.system("checks")
    assert run_jobs() == [job.id]
    session.expire_all()
    assert session.get(Job, job.id).status == "done" and session.get(GoldCheckRun, page_id) is not None


def test_the_system_is_refused_by_every_use_case_but_those_it_may_start(app, session):
    settings = settings_of(app)
    assert Actor.system("checks") == CHECKER == Actor("system:checks", SYSTEM, "system")
    assert SYSTEM not in ROLES and not any(at_least(SYSTEM, role) for role in ROLES)
    for call in (lambda: run_checks(session, settings, CHECKER),
                 lambda: check_now(session, settings, CHECKER, settings.checks),
                 lambda: start_export(session, settings, CHECKER, {"format": "jsonl"}),
                 lambda: add_account_as_admin(session, CHECKER, "zed", ANNOTATOR, "a long password")):
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.status == 403
    assert session.scalars(select(Job)).all() == []
    session.rollback()


@pytest.mark.parametrize("name", ["system:checks", "system", "System"])
def test_no_account_can_be_named_like_the_system(session, name):
    with pytest.raises(Refused) as refused:
        add_account_as_admin(session, Actor("ada", ADMIN), name, ANNOTATOR, "a long password")
    assert refused.value.status == 400
    session.rollback()


def test_no_account_can_have_the_system_s_role(session):
    with pytest.raises(Refused) as refused:
        add_account_as_admin(session, Actor("ada", ADMIN), "zed", SYSTEM, "a long password")
    assert (refused.value.status, "unknown role" in refused.value.reason) == (400, True)
    session.rollback()


@pytest.mark.parametrize(("kind", "params", "refusal"), [
    ("check", {}, "Only a reviewer or an admin runs the checks."),
    ("extract", {"extractors": ["whole-page"]}, "Only an admin extracts."),
])
def test_a_job_whose_starter_is_disabled_since_is_refused_in_its_step(app, session, run_jobs, kind, params, refusal):
    add_account(session, "Ada", ADMIN)
    add_account(session, "Cy", ADMIN)
    add_gold(session, make_page(session), text="The harbour opens a new quay", page_type="article",
             status="done", author="Cy")
    job_id = create_job(session, kind, params, "Cy", settings_of(app).lease.until()).id
    set_disabled(session, "Cy", True)
    session.commit()
    run_jobs()
    session.expire_all()
    job = session.get(Job, job_id)
    assert job.status == "failed" and refusal in job.error
    assert session.scalars(select(GoldCheckRun)).all() == []  # nothing was checked
    assert session.scalars(select(Extraction)).all() == []  # nor extracted
    session.rollback()
