"""The Add URLs form's render choice: a URL followed by the word `render` is rendered in Chromium too (and
only that one), the box renders every URL, and any other word after a URL is no URL (refused, naming it)."""

from __future__ import annotations

from sqlalchemy import select
from workbench import sign_in

from webapp.models import AuditEvent, Job


def posted(client, session, text: str, **form: str) -> Job:
    token = sign_in(client)
    response = client.post("/capture", data={"urls": text, "csrf_token": token, **form})
    assert response.status_code == 302, response.get_data(as_text=True)
    return session.scalars(select(Job).where(Job.kind == "capture")).one()


def test_a_url_followed_by_render_is_rendered_and_the_others_are_not(client, session):
    job = posted(client, session, "https://a.example/shell render\n# a comment\nhttps://a.example/plain\n")
    assert job.params["urls"] == ["https://a.example/shell", "https://a.example/plain"]
    assert job.params["render"] == ["https://a.example/shell"]
    event = session.scalars(select(AuditEvent).where(AuditEvent.action == "capture")).one()
    assert event.detail["rendered"] == 1


def test_the_box_renders_every_url(client, session):
    job = posted(client, session, "https://a.example/one\nhttps://a.example/two", render_all="yes")
    assert job.params["render"] == ["https://a.example/one", "https://a.example/two"]


def test_another_word_after_a_url_is_refused_naming_the_line(client):
    token = sign_in(client)
    response = client.post("/capture", data={"urls": "https://a.example/one please", "csrf_token": token})
    assert response.status_code == 400
    assert "is not a URL: it holds a space" in response.get_data(as_text=True)
