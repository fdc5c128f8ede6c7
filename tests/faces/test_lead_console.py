"""The lead's console through the client: only a lead reaches it (every route refuses an annotator), every
form needs its CSRF token, assignment and undo through the form do what the use case does, and the team's
candidate tabs (hidden, pinned, ordered) are what everyone's annotate view shows, each with its key."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from workbench import add_account, log_in, make_page, page_data

from webapp.accounts.roles import ADMIN, ANNOTATOR, REVIEWER
from webapp.models import Assignment, CandidateTab, Extraction

ROUTES = [("get", "/team"), ("post", "/team/assign"), ("post", "/team/undo"), ("post", "/team/controls"),
          ("post", "/team/controls/1/end"), ("post", "/team/tabs"), ("get", "/team/pages?page=1"),
          ("post", "/team/pages/1/changes")]
NAMES = [f"x{n:02d}" for n in range(19)]


@pytest.fixture
def people(app, session):
    for name, role in (("ann", ANNOTATOR), ("bob", ANNOTATOR), ("rita", REVIEWER), ("adam", ADMIN)):
        add_account(session, name, role)
    return {name: app.test_client() for name in ("ann", "bob", "rita", "adam")}


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_an_annotator_cannot_reach_the_console(session, people, method, path):
    make_page(session)
    ann = people["ann"]
    token = log_in(ann, "ann")
    response = getattr(ann, method)(path, data={"csrf_token": token} if method == "post" else None)
    assert response.status_code == 403


def test_the_console_is_in_the_leads_menu_only(people):
    log_in(people["ann"], "ann")
    log_in(people["rita"], "rita")
    assert 'href="/team"' not in people["ann"].get("/").get_data(as_text=True)
    assert 'href="/team"' in people["rita"].get("/").get_data(as_text=True)


@pytest.mark.settings(OVERLAP=2)
def test_assign_by_form_needs_its_token_and_undo_takes_it_back(session, people):
    pages = [make_page(session, host="news.example").id for _ in range(3)]
    rita = people["rita"]
    token = log_in(rita, "rita")
    form = {"action": "assign", "to": "ann, bob", "pages": f"{pages[0]} {pages[2]}"}
    assert rita.post("/team/assign", data=form).status_code == 400  # no CSRF token
    assert session.scalars(select(Assignment)).all() == []
    session.rollback()  # the test's session writes (BEGIN IMMEDIATE): it must not hold the lock
    done = rita.post("/team/assign", data={**form, "csrf_token": token}, follow_redirects=True)
    assert "4 assignments made (ann, bob)." in done.get_data(as_text=True)
    session.expire_all()
    assert {(a.page_id, a.author) for a in session.scalars(select(Assignment))} == {
        (pages[0], "ann"), (pages[2], "ann"), (pages[0], "bob"), (pages[2], "bob")}
    session.rollback()
    assert 'id="last-change">assign: 4 added' in done.get_data(as_text=True)
    bad = rita.post("/team/assign", data={**form, "pages": "3, four", "csrf_token": token})
    assert bad.status_code == 400 and "&#39;four&#39; is not a page id" in bad.get_data(as_text=True)
    undone = rita.post("/team/undo", data={"csrf_token": token}, follow_redirects=True)
    assert "Undone: 4 assignments removed, 0 assignments restored." in undone.get_data(as_text=True)
    session.expire_all()
    assert session.scalars(select(Assignment)).all() == []


def test_the_teams_tabs_are_hidden_pinned_and_ordered_for_everyone_each_with_a_key(session, people):
    page = make_page(session, candidates={name: f"Text of {name}." for name in NAMES})
    adam, ann = people["adam"], people["ann"]
    token = log_in(adam, "adam")
    log_in(ann, "ann")
    form = {"csrf_token": token, "extractor": NAMES, "state-x18": "pinned", "position-x18": "0",
            "state-x05": "pinned", "position-x05": "1", "state-x01": "hidden", "state-x02": "hidden"}
    assert adam.post("/team/tabs", data=form).status_code == 302
    shown = [c["name"] for c in page_data(ann.get(f"/pages/{page.id}"))["candidates"]]
    assert shown[:2] == ["x18", "x05"] and "x01" not in shown and "x02" not in shown and len(shown) == 17
    body = ann.get(f"/pages/{page.id}").get_data(as_text=True)
    keys = [part.split("</kbd>")[0] for part in body.split('role="tab"')[1:] for part in [part.split("<kbd>")[1]]]
    assert keys == [str(n) for n in range(1, 10)] + ["0"] + [str(n) for n in range(11, 18)]
    refused = adam.post("/team/tabs", data={**form, "state-x05": "pinned", "position-x05": "1000"})
    assert refused.status_code == 400
    assert {t.extractor for t in session.scalars(select(CandidateTab))} == {"x18", "x05", "x01", "x02"}


def test_the_queues_filter_carries_to_the_console_and_assigns_only_what_it_selects(session, people):
    rejected = make_page(session, host="shop.example", candidates={"density": "x"})
    make_page(session, host="shop.example", candidates={"density": "y"})
    make_page(session, host="news.example")
    session.get(Extraction, session.scalars(select(Extraction.id).where(Extraction.page_id == rejected.id)).one()
                ).accepted = False
    session.commit()
    rita = people["rita"]
    token = log_in(rita, "rita")
    queue = rita.get("/?site=shop.example&verdict=rejected").get_data(as_text=True)
    assert 'href="/team?site=shop.example&amp;verdict=rejected#assign"' in queue
    console = rita.get("/team?site=shop.example&verdict=rejected").get_data(as_text=True)
    assert "<option selected>shop.example</option>" in console
    assert '<input type="hidden" name="verdict" value="rejected">' in console
    done = rita.post("/team/assign", data={"csrf_token": token, "action": "assign", "to": "ann",
                                           "site": "shop.example", "verdict": "rejected"})
    assert done.status_code == 302
    assert session.scalars(select(Assignment.page_id)).all() == [rejected.id]
    session.rollback()
    log_in(people["ann"], "ann")
    assert 'id="assign-filtered"' not in people["ann"].get("/").get_data(as_text=True)  # a lead's link only
