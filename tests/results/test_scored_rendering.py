"""Which rendering of a captured page the leaderboard scores: the raw response until a reviewer chooses the
rendering in Chromium for that page (a JavaScript shell), recorded in the audit log; then each extractor is
scored on its output on the rendering, and back on the raw response when the choice is undone."""

from __future__ import annotations

import pytest
from rendered_shell import RITA, captured_shell
from sqlalchemy import select
from workbench import make_page

from webapp.accounts.roles import ANNOTATOR
from webapp.foundation.settings import settings_of
from webapp.models import AuditEvent
from webapp.usecases.choose_rendering import choose_scored_rendering
from webapp.usecases.outcome import Actor, Refused


@pytest.fixture
def shell(session):
    """A JavaScript shell: trafilatura found only the menu in the raw response, the article in the rendering."""
    return captured_shell(session)


def f1(client) -> float:
    data = client.get("/api/leaderboard", query_string={"bootstrap": 0, "extractor": "trafilatura"}).get_json()
    return data["extractors"]["trafilatura"]["f1"]


def test_the_raw_response_is_scored_until_the_rendering_is_chosen(app, client, session, shell):
    assert f1(client) == pytest.approx(0.0)
    choose_scored_rendering(session, settings_of(app), RITA, shell, "rendered")
    session.commit()
    assert f1(client) == pytest.approx(1.0)
    choose_scored_rendering(session, settings_of(app), RITA, shell, "raw")
    session.commit()
    assert f1(client) == pytest.approx(0.0)
    events = session.scalars(select(AuditEvent).where(AuditEvent.action == "page.scored_rendering")).all()
    assert [e.detail for e in events] == [{"from": "raw", "to": "rendered"}, {"from": "rendered", "to": "raw"}]


def test_only_a_reviewer_chooses_and_only_a_rendering_that_exists(app, session, shell):
    settings = settings_of(app)
    with pytest.raises(Refused) as refused:
        choose_scored_rendering(session, settings, Actor("ann", ANNOTATOR), shell, "rendered")
    assert refused.value.status == 403
    bare = make_page(session, "<p>No rendering</p>").id
    with pytest.raises(Refused) as refused:
        choose_scored_rendering(session, settings, RITA, bare, "rendered")
    assert refused.value.status == 409 and "not captured with --render" in refused.value.reason
    with pytest.raises(Refused) as refused:
        choose_scored_rendering(session, settings, RITA, shell, "screenshot")
    assert refused.value.status == 400
    with pytest.raises(Refused) as refused:
        choose_scored_rendering(session, settings, RITA, 999_999, "raw")
    assert refused.value.status == 404


def test_the_annotate_view_offers_the_choice_and_records_it(client, session, shell):
    from workbench import sign_in
    token = sign_in(client)
    page = client.get(f"/pages/{shell}").get_data(as_text=True)
    assert "Scored: <strong id=\"scored-rendering\">the raw response</strong>" in page
    response = client.post(f"/pages/{shell}/scored-rendering", data={"rendering": "rendered", "csrf_token": token})
    assert response.status_code == 302
    assert "Scored: <strong id=\"scored-rendering\">the rendering</strong>" in client.get(f"/pages/{shell}").get_data(
        as_text=True)
    assert client.post(f"/pages/{shell}/scored-rendering", data={"rendering": "rendered"}).status_code == 400
