"""The lead's assignment on the database (usecases/assign.py): by page number and by filter, re-assigning
from one annotator to others, OVERLAP and disabled users respected, and undo of the lead's newest change,
whichever face made it. Only a lead (a reviewer or an admin) assigns."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from workbench import add_account, add_gold, make_page

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.annotation.page_filter import PageFilter
from webapp.foundation.settings import settings_of
from webapp.models import Assignment, AuditEvent, Page
from webapp.usecases.assign import assign_pages, reassign_pages, unassign_pages, undo_assignment
from webapp.usecases.outcome import Actor, Refused

pytestmark = pytest.mark.settings(OVERLAP=2)

LEAD = Actor("rita", REVIEWER, "127.0.0.1")


def assigned(session) -> set[tuple[int, str]]:
    return {(page, name) for page, name in session.execute(select(Assignment.page_id, Assignment.author))}


@pytest.fixture
def team(session):
    for name in ("ann", "bob", "cleo"):
        add_account(session, name, ANNOTATOR)
    add_account(session, "rita", REVIEWER)
    news = [make_page(session, host="news.example").id for _ in range(3)]
    shop = [make_page(session, host="shop.example").id for _ in range(2)]
    return news, shop


def test_assign_by_page_number_and_by_site_then_undo_in_reverse_order(app, session, team):
    news, shop = team
    settings = settings_of(app)
    assert assign_pages(session, settings, LEAD, ("ann",), PageFilter(), page_ids=(news[0], shop[1])) == 2
    assert assign_pages(session, settings, LEAD, ("bob",), PageFilter(sites=("shop.example",))) == 2
    assert assigned(session) == {(news[0], "ann"), (shop[1], "ann"), (shop[0], "bob"), (shop[1], "bob")}
    assert undo_assignment(session, LEAD) == (2, 0)  # bob's, the newest
    assert assigned(session) == {(news[0], "ann"), (shop[1], "ann")}
    assert undo_assignment(session, LEAD) == (2, 0)
    assert assigned(session) == set()
    with pytest.raises(Refused) as nothing:
        undo_assignment(session, LEAD)
    assert nothing.value.status == 409 and "no assignment change left to undo" in nothing.value.reason


def test_overlap_leaves_a_third_annotator_out_and_a_page_with_gold_is_never_assigned(app, session, team):
    news, _ = team
    settings = settings_of(app)
    add_gold(session, session.get(Page, news[2]), text="Known.", page_type="article", status="done", author="rita")
    made = assign_pages(session, settings, LEAD, ("ann", "bob", "cleo"), PageFilter(sites=("news.example",)))
    assert made == 4  # two free pages, two places each: cleo finds none left
    assert {name for _, name in assigned(session)} == {"ann", "bob"}
    assert news[2] not in {page for page, _ in assigned(session)}


def test_reassign_moves_the_selected_pages_and_undo_moves_them_back(app, session, team):
    news, shop = team
    settings = settings_of(app)
    assign_pages(session, settings, LEAD, ("ann",), PageFilter())
    moved_news = reassign_pages(session, settings, LEAD, "ann", ("bob", "cleo"), PageFilter(sites=("news.example",)))
    assert moved_news == (3, 3)
    moved = assigned(session)
    assert {(p, n) for p, n in moved if p in news} == {(news[0], "bob"), (news[1], "cleo"), (news[2], "bob")}
    assert {(p, n) for p, n in moved if p in shop} == {(shop[0], "ann"), (shop[1], "ann")}
    assert undo_assignment(session, LEAD) == (3, 3)
    assert assigned(session) == {(page, "ann") for page in news + shop}


def test_disabled_users_annotators_and_a_reassignment_to_oneself_are_refused(app, session, runner, team):
    settings = settings_of(app)
    runner.invoke(args=["users", "disable", "cleo"])
    session.expire_all()
    cases = [
        (lambda: assign_pages(session, settings, LEAD, ("cleo",), PageFilter()), 400, "User 'cleo' is disabled"),
        (lambda: assign_pages(session, settings, Actor("ann", ANNOTATOR), ("ann",), PageFilter()), 403,
         "Only a lead"),
        (lambda: reassign_pages(session, settings, LEAD, "ann", ("ann",), PageFilter()), 400, "name other annotators"),
        (lambda: undo_assignment(session, Actor("ann", ANNOTATOR)), 403, "Only a lead"),
    ]
    for call, status, reason in cases:
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.status == status and reason in refused.value.reason
    assert assigned(session) == set()


def test_an_annotator_hands_back_only_their_own_a_lead_removes_anyones(app, session, team):
    news, _ = team
    assign_pages(session, settings_of(app), LEAD, ("ann", "bob"), PageFilter(), page_ids=(news[0],))
    with pytest.raises(Refused) as refused:
        unassign_pages(session, Actor("ann", ANNOTATOR), ("bob",), PageFilter())
    assert refused.value.status == 403
    assert unassign_pages(session, LEAD, ("bob",), PageFilter()) == 1
    assert assigned(session) == {(news[0], "ann")}
    actions = session.scalars(select(AuditEvent.action).where(AuditEvent.actor == "rita").order_by(AuditEvent.id))
    assert list(actions) == ["assign", "unassign"]


def test_the_command_assigns_by_page_and_undoes_its_own_last_change(app, session, runner, team):
    news, shop = team
    result = runner.invoke(args=["assign", "--to", "ann", "--page", str(news[1]), "--page", str(shop[0])])
    assert result.exit_code == 0 and "2 assignments made (ann)." in result.output, result.output
    session.expire_all()
    assert assigned(session) == {(news[1], "ann"), (shop[0], "ann")}
    session.rollback()
    undone = runner.invoke(args=["assign", "--undo"])
    assert undone.exit_code == 0 and "Undone: 2 assignments removed, 0 restored." in undone.output, undone.output
    session.expire_all()
    assert assigned(session) == set()
    session.rollback()
    again = runner.invoke(args=["assign", "--undo"])
    assert again.exit_code == 2 and "no assignment change left to undo" in again.output
    assert "Name the annotators with --to" in runner.invoke(args=["assign"]).output
