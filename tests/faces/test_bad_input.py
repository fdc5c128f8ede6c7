"""Every bad input a clear answer: the cases the attack on the team server found, each answered
with 400, 404 or 413 naming what is wrong, nothing stored, on SQLite and PostgreSQL alike. The walk over
every route is in test_access.py; the variant options in test_extractor_variants.py."""

from __future__ import annotations

import html
import io

import pytest
from app_settings import reconfigure
from sqlalchemy import func, select
from workbench import PASSWORD, add_account, add_gold, csrf, log_in, make_page

from webapp.accounts.roles import ADMIN, REVIEWER
from webapp.models import GoldRevision, ImportBatch, User
from webapp.web.bad_input import ID_MAX, JSON_MAX_DEPTH, BoundedJSON

pytestmark = pytest.mark.security

DEEP = "[" * 100_000 + "]" * 100_000


def told(response) -> str:
    """What the answer says, as a person reads it (a page's escaping undone, the API's message)."""
    return response.json["message"] if response.is_json else html.unescape(response.get_data(as_text=True))


def counted(session, model) -> int:
    found = session.scalar(select(func.count()).select_from(model))
    session.rollback()
    return found


@pytest.fixture
def admin(app, session):
    """A logged-in admin's client and CSRF token."""
    add_account(session, "Ada", ADMIN)
    client = app.test_client()
    return client, log_in(client, "Ada")


@pytest.fixture
def page_id(session) -> int:
    """A page with one gold revision (its id: reading the committed row again would open a transaction)."""
    page = make_page(session, "<html><body><p>Text</p></body></html>", url="https://a.example/1")
    add_gold(session, page, text="First", page_type="article", status="done", author="Ada")
    found = page.id
    session.commit()
    return found


def save(client, token, page_id, **fields):
    body = {"text": "Second", "type": "article", "status": "done", "version": 1, "client_save_id": "s1", **fields}
    return client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})


# --- NUL characters --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "named"), [
    ({"text": "Sec\x00ond"}, "'text'"),
    ({"client_save_id": "s\x00"}, "'client_save_id'"),
    ({"snippets": {"with": ["Sec\x00"], "without": []}}, "'snippets.with[0]'"),
])
def test_a_nul_in_a_gold_save_is_refused_naming_the_field_and_nothing_is_stored(admin, page_id, session, fields, named):
    client, token = admin
    response = save(client, token, page_id, **fields)
    assert response.status_code == 400
    assert response.json["message"].startswith(f"The JSON field {named} cannot hold a NUL character")
    assert counted(session, GoldRevision) == 1
    assert save(client, token, page_id).status_code == 200  # the same save without it goes through


def test_a_nul_in_a_login_name_answers_400_to_someone_not_logged_in(app, session):
    add_account(session, "Ada", ADMIN)
    client = app.test_client()
    response = client.post("/login", data={"name": "Ada\x00", "password": PASSWORD, "csrf_token": csrf(client)})
    assert response.status_code == 400
    assert "The form field 'name' cannot hold a NUL character" in told(response)
    assert client.get("/").status_code == 302  # not logged in


def test_a_nul_in_a_new_users_name_adds_nobody(admin, session):
    client, token = admin
    response = client.post("/users", data={"name": "Zed\x00", "role": "annotator", "password": "long enough pass",
                                           "csrf_token": token})
    assert response.status_code == 400 and "'name' cannot hold a NUL character" in told(response)
    assert counted(session, User) == 1


@pytest.mark.parametrize(("path", "named"), [
    ("/audit?actor=%00", "The query argument 'actor'"),
    ("/?q=a%00b", "The query argument 'q'"),
    ("/leaderboard?site=%00", "The query argument 'site'"),
    ("/api/leaderboard?extractor=x%00", "The query argument 'extractor'"),
    ("/annotator?next=/%00/evil.example/", "The query argument 'next'"),
    ("/extractors/variants/no%00such/remove", "The address's 'name'"),
])
def test_a_nul_in_a_query_argument_or_the_address_answers_400_naming_it(admin, path, named):
    client, token = admin
    method = "POST" if path.endswith("/remove") else "GET"
    response = client.open(path, method=method, headers={"X-CSRF-Token": token})
    assert response.status_code == 400
    assert f"{named} cannot hold a NUL character (\\x00)" in told(response)


def test_a_nul_in_an_uploaded_files_name_answers_400_and_imports_nothing(admin, session):
    client, token = admin
    response = client.post("/upload", content_type="multipart/form-data", data={
        "csrf_token": token, "format": "auto", "files": [(io.BytesIO(b"<p>Hello</p>"), "a\x00.html")]})
    assert response.status_code == 400 and "The name of the file sent as 'files'" in told(response)
    assert counted(session, ImportBatch) == 0


# --- nesting --------------------------------------------------------------------------------------------


def test_snippets_nested_100000_deep_are_refused_by_the_api(admin, page_id, session):
    client, token = admin
    response = client.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                           content_type="application/json",
                           data='{"text": "x", "type": "article", "status": "done", "version": 1, '
                                f'"client_save_id": "s", "snippets": {DEEP}}}')
    assert response.status_code == 400
    assert response.json["message"] == (
        f"The request's body is not JSON Goldtext can read: it is nested deeper than {JSON_MAX_DEPTH} levels.")
    assert counted(session, GoldRevision) == 1


def test_snippets_nested_100000_deep_are_refused_by_the_adjudication_form(app, page_id, session):
    add_account(session, "Rex", REVIEWER)
    client = app.test_client()
    token = log_in(client, "Rex")
    response = client.post(f"/adjudication/{page_id}", data={
        "csrf_token": token, "version": "1", "type": "article", "status": "done", "text": "x", "snippets": DEEP})
    assert response.status_code == 400
    assert f"snippets: it is nested deeper than {JSON_MAX_DEPTH} levels" in told(response)
    assert counted(session, GoldRevision) == 1


def test_json_is_read_to_its_depth_limit_and_no_further(app):
    reader = BoundedJSON(app)
    assert reader.loads("[" * JSON_MAX_DEPTH + "]" * JSON_MAX_DEPTH) is not None
    with pytest.raises(ValueError, match=f"nested deeper than {JSON_MAX_DEPTH} levels"):
        reader.loads('{"a": ' + "[" * JSON_MAX_DEPTH + "]" * JSON_MAX_DEPTH + "}")


# --- numbers beyond the database's integers -------------------------------------------------------------


def test_the_largest_id_is_looked_up_and_one_more_is_refused_naming_the_range(admin):
    client, _ = admin
    largest = client.get(f"/pages/{ID_MAX}")
    assert largest.status_code == 404 and "ids are whole numbers" not in told(largest)
    assert client.get(f"/pages/{'0' * 5000}{ID_MAX}").status_code == 404  # read as ID_MAX
    beyond = (f"/pages/{ID_MAX + 1}", f"/api/pages/{2**63}/gold", f"/jobs/{'9' * 5000}", f"/jobs/{'0' * 5000}{2**40}")
    for path in beyond:
        response = client.get(path)
        assert response.status_code == 404, path
        assert f"ids are whole numbers up to {ID_MAX}" in told(response)
    assert client.get(f"/api/pages/{2**63}/gold").json["message"] == (
        f"Nothing has the id {2**63}: ids are whole numbers up to {ID_MAX}.")


@pytest.mark.parametrize(("path", "named"), [
    (f"/audit?before={2**64}", "'before' must be a whole number"),
    (f"/?batch={2**64}", "'batch' must be an import batch id"),
    (f"/api/leaderboard?batch={2**31}", "'batch' must be an import batch id"),
])
def test_a_whole_number_beyond_the_integer_columns_in_a_query_answers_400_naming_it(admin, path, named):
    client, _ = admin
    response = client.get(path)
    assert response.status_code == 400 and named in told(response)


def test_a_version_beyond_the_integer_columns_in_the_adjudication_form_answers_400(app, page_id, session):
    add_account(session, "Rex", REVIEWER)
    client = app.test_client()
    token = log_in(client, "Rex")
    response = client.post(f"/adjudication/{page_id}", data={
        "csrf_token": token, "version": str(2**64), "type": "article", "status": "done", "text": "x"})
    assert response.status_code == 400 and "'version' must be a whole number" in told(response)
    assert counted(session, GoldRevision) == 1


# --- the CSRF token -------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["é", "\u2603" * 40])
def test_a_csrf_token_beyond_ascii_is_a_wrong_token(admin, token):
    client, _ = admin
    by_header = client.post("/logout", headers={"X-CSRF-Token": token.encode().decode("latin-1")})
    by_form = client.post("/logout", data={"csrf_token": token})
    for response in (by_header, by_form):
        assert response.status_code == 400 and "Missing or wrong CSRF token" in told(response)


# --- sizes per route ------------------------------------------------------------------------------------


def test_a_gold_save_over_request_max_bytes_is_413_naming_the_setting_and_nothing_is_stored(admin, page_id, session):
    client, token = admin
    response = save(client, token, page_id, text="x" * (16 * 2**20))
    assert response.status_code == 413
    assert response.json["limit"] == 16 * 2**20
    assert "the limit is 16 MB (16777216 bytes, the REQUEST_MAX_BYTES setting" in response.json["message"]
    assert counted(session, GoldRevision) == 1


def test_an_upload_may_be_larger_than_request_max_bytes_and_a_form_may_not(app, admin, session):
    client, token = admin
    reconfigure(app, REQUEST_MAX_BYTES=2000)
    page = b"<html><body><p>" + b"Hello. " * 1000 + b"</p></body></html>"
    uploaded = client.post("/upload", content_type="multipart/form-data", data={
        "csrf_token": token, "format": "auto", "site_from": "url", "files": [(io.BytesIO(page), "a.html")]})
    assert uploaded.status_code == 302 and counted(session, ImportBatch) == 1
    refused = client.post("/extractors/variants", data={"name": "v", "base": "trafilatura",
                                                         "options": "prune_xpath=" + "x" * 3000, "csrf_token": token})
    assert refused.status_code == 413
    assert "the limit is 1.95 KB (2000 bytes, the REQUEST_MAX_BYTES setting" in told(refused)


# A body over MAX_CONTENT_LENGTH: the 413 names the limit ----------


@pytest.mark.parametrize("path, kwargs, wants_json", [
    ("/api/pages/1/gold", {"data": "x" * 5000, "content_type": "application/json"}, True),
    ("/upload", {"data": {"format": "auto", "notes": "x" * 5000}}, False),
])
def test_the_413_answer_says_the_limit(app, client, path, kwargs, wants_json):
    from workbench import sign_in

    token = sign_in(client)
    reconfigure(app, MAX_CONTENT_LENGTH=1000)
    if wants_json:
        response = client.post(path, headers={"X-CSRF-Token": token}, **kwargs)
    else:
        kwargs["data"]["csrf_token"] = token
        response = client.post(path, **kwargs)
    assert response.status_code == 413
    message = response.get_json()["message"] if wants_json else response.get_data(as_text=True)
    assert "1000 bytes" in message and "MAX_CONTENT_LENGTH" in message
