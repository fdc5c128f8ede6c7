"""A form's or a query string's bad value answered 400 naming the field and the reason (web/request_input.py):
as the JSON error under /api/, as a page elsewhere, the form shown again where the page did so."""

from __future__ import annotations

import html

import pytest
from workbench import add_account, log_in

from webapp.accounts.roles import ADMIN

pytestmark = pytest.mark.security


def told(response) -> str:
    return response.json["message"] if response.is_json else html.unescape(response.get_data(as_text=True))


@pytest.fixture
def admin(app, session):
    add_account(session, "Ada", ADMIN)
    client = app.test_client()
    return client, log_in(client, "Ada")


@pytest.mark.parametrize(("path", "named"), [
    ("/api/leaderboard/pages?extractor=density&limit=0", "'limit' must be a whole number from 1 to 10000."),
    ("/api/leaderboard?bootstrap=lots", "'bootstrap' must be a whole number from 0 to 10000."),
    ("/api/compare?a=x&b=y&top=-1", "'top' must be a whole number from 0 to 200."),
    ("/api/agreement?by=colour", "'by' must be one of site, type, annotator, guideline."),
    ("/agreement?by=colour", "'by' must be one of site, type, annotator, guideline."),
    ("/?offset=ten", "'offset' must be a whole number from"),
    ("/audit/export?format=xml", "'format' must be one of json, csv."),
    ("/guidelines/article?version=two", "'version' must be a whole number from"),
])
def test_a_bad_value_in_a_query_answers_400_naming_the_field(admin, path, named):
    client, _ = admin
    response = client.get(path)
    assert response.status_code == 400
    assert response.is_json == path.startswith("/api/")
    assert named in told(response)


def test_a_bad_tab_position_answers_400_naming_the_field(admin):
    client, token = admin
    response = client.post("/team/tabs", data={"csrf_token": token, "extractor": ["density"],
                                               "state-density": "pinned", "position-density": "first"})
    assert response.status_code == 400 and "'position-density' must be a whole number from 0 to" in told(response)
    refused = client.post("/team/tabs", data={"csrf_token": token, "extractor": ["density"],
                                              "state-density": "upside-down"})
    assert refused.status_code == 400 and "'state-density' must be one of shown, hidden, pinned." in told(refused)


def test_the_pipeline_form_is_shown_again_naming_a_bad_field(admin):
    client, token = admin
    response = client.post("/extractors/pipeline", data={"csrf_token": token, "extractor": "trafilatura",
                                                         "keep_html_bytes": "lots"})
    page = told(response)
    assert response.status_code == 400 and "'keep_html_bytes' must be a number of bytes: a whole number" in page
    assert 'name="keep_html_bytes"' in page  # the form, again


def test_a_bad_json_field_of_the_adjudication_form_is_named(admin, session):
    client, token = admin
    response = client.post("/adjudication/1", data={"csrf_token": token, "version": "1", "type": "article",
                                                    "status": "done", "text": "x", "effort": "{not json"})
    assert response.status_code == 400 and "effort: Expecting property name" in told(response)


def test_the_previews_body_is_checked_by_its_schema_naming_the_field(admin):
    client, token = admin
    missing = client.post("/api/preview", json={"text": "x"}, headers={"X-CSRF-Token": token})
    assert missing.status_code == 400 and missing.json["message"] == "'markdown' is a required property."
    wrong = client.post("/api/preview", json={"markdown": 3}, headers={"X-CSRF-Token": token})
    assert wrong.status_code == 400 and wrong.json["message"] == "'markdown': 3 is not of type 'string'."
