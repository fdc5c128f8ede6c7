"""The live leaderboard at scale: its ETag changes exactly when a save, an extraction or a setting may
change the figures; a poll costs the same few statements whatever the size of the corpus; a second web
process starts from the snapshot the first one stored."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from sqlalchemy import event
from workbench import EAGER, NO_CONTENT, add_account, add_page, fingerprint, log_in, new_batch, sign_in

from webapp import create_app
from webapp.accounts.roles import ADMIN
from webapp.annotation.annotations import save_annotation
from webapp.extractors.extraction_service import store_all
from webapp.extractors.guard import GuardThresholds
from webapp.extractors.process_pool import Result
from webapp.foundation.settings import EXTENSION as SETTINGS
from webapp.models import Job
from webapp.results.store import refresh_scores
from webapp.web.db import database, dispose

URL = "/api/leaderboard"
ARGS = {"bootstrap": 0}


@pytest.fixture
def board(session) -> list[int]:
    """Two gold pages of one site, each extracted by trafilatura and density, scored."""
    return grow(session, 2)


def grow(session, pages: int) -> list[int]:
    """`pages` more gold pages, each extracted by trafilatura and density, scored; committed."""
    batch = new_batch(session)
    ids = [add_page(session, f"site{i % 3}.example", batch, f"alpha beta gamma {i}",
                    {"trafilatura": "alpha beta", "density": f"alpha beta gamma {i}"}).id for i in range(pages)]
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    return ids


def tag(client, **args) -> str:
    response = client.get(URL, query_string={**ARGS, **args})
    assert response.status_code == 200
    return response.headers["ETag"]


def still(client, etag: str, **args) -> bool:
    """Whether a poll with this tag is answered 304."""
    return client.get(URL, query_string={**ARGS, **args}, headers={"If-None-Match": etag}).status_code == 304


def test_the_etag_changes_exactly_when_a_save_an_extraction_or_a_setting_changes(app, client, session, board):
    first = tag(client)
    assert tag(client) == first and still(client, first)
    assert tag(client, metric="wcxb") != first  # other options, other figures

    session.add(Job(kind="export", params={}, started_by="test"))  # no figure reads jobs
    session.commit()
    assert still(client, first)

    token = sign_in(client)
    saved = client.post(f"/api/pages/{board[0]}/gold", headers={"X-CSRF-Token": token},
                        json={"text": "alpha beta", "type": "article", "status": "done", "version": 1,
                              "client_save_id": "s1"})
    assert saved.status_code == 200
    assert not still(client, first)
    after_save = tag(client)

    lone = add_page(session, "elsewhere.example", new_batch(session), None, {})  # a page without gold
    session.commit()
    assert still(client, after_save)  # pages without extractions or gold show in no figure
    store_all(session, [Result(key=(lone.id, len(lone.html)), extractor_name="trafilatura",
                          fingerprint=fingerprint(session, "trafilatura"), text="", metadata={}, duration_ms=1.0,
                          error=None, incomplete=False)], GuardThresholds())
    session.commit()
    assert not still(client, after_save)  # its extraction counts in the guard's drift figures
    after_extraction = tag(client)

    settings = app.extensions[SETTINGS]  # an app created with another DRIFT_THRESHOLD_POINTS
    app.extensions[SETTINGS] = replace(settings, drift_threshold=settings.drift_threshold + 1)
    assert not still(client, after_extraction)
    assert tag(client) != after_extraction


@contextmanager
def statements(app) -> Iterator[list[str]]:
    """Every SQL statement the app's engine runs meanwhile."""
    seen: list[str] = []
    engine = database(app).engine

    def count(conn, cursor, statement, *_):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def poll_costs(app, client) -> tuple[int, int]:
    """(statements of a warm answer, statements of a poll answered 304)."""
    etag = tag(client)
    tag(client)
    with statements(app) as warm:
        assert tag(client) == etag
    with statements(app) as poll:
        assert still(client, etag)
    return len(warm), len(poll)


@pytest.mark.settings(OVERLAP=2)
def test_voiding_an_annotation_changes_the_etag_and_the_annotators_agreement_shown(app, session):
    page = add_page(session, "duo.example", new_batch(session), "a b c d", {"trafilatura": "a b c d",
                                                                             "density": "a b"})
    for name, text in (("al", "a b c d"), ("bo", "a b c d"), ("cy", "x y")):
        save_annotation(session, page, name, base_version=0, text=text, page_type="article", status="done")
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    add_account(session, "Ada", ADMIN)
    session.commit()
    admin = app.test_client()
    token = log_in(admin, "Ada")
    before = admin.get(URL, query_string=ARGS)
    assert before.get_json()["ceiling"]["pairs"] == 3  # al-bo, al-cy, bo-cy
    voided = admin.post(f"/adjudication/{page.id}/void", data={"csrf_token": token, "author": "cy"})
    assert voided.status_code == 302
    assert not still(admin, before.headers["ETag"])  # the gold is the same, the agreement is not
    after = admin.get(URL, query_string=ARGS).get_json()
    assert after["ceiling"] == {"f1": 1.0, "f1_std": None, "pages": 1, "pairs": 1}
    assert after["noise"]["annotator_noise"] == 0.0 < before.get_json()["noise"]["annotator_noise"]


def test_a_poll_runs_the_same_few_statements_whatever_the_size_of_the_corpus(app, client, session, board):
    small = poll_costs(app, client)
    grow(session, 40)
    large = poll_costs(app, client)
    assert client.get(URL, query_string=ARGS).get_json()["pages"] == 42
    assert large == small
    assert small[1] <= 3  # BEGIN, whether anyone must log in, the three epoch rows


def test_a_second_process_starts_from_the_snapshot_then_follows_the_change_log(app, client, session, board):
    first = client.get(URL, query_string=ARGS).get_json()
    assert app.extensions[SETTINGS].shared.cache.loaded_from == "database"

    token = sign_in(client)
    saved = client.post(f"/api/pages/{board[1]}/gold", headers={"X-CSRF-Token": token},
                        json={"text": "alpha", "type": "article", "status": "done", "version": 1,
                              "client_save_id": "s1"})
    assert saved.status_code == 200
    expected = client.get(URL, query_string=ARGS).get_json()
    assert expected["extractors"] != first["extractors"]

    other = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path, "DATABASE_URL": app.config["DATABASE_URL"],
                        "SECRET_KEY": "test-secret"})
    try:
        got = other.test_client().get(URL, query_string=ARGS).get_json()
        cache = other.extensions[SETTINGS].shared.cache
        assert cache.loaded_from == "snapshot"  # stored by the first process, before the save
        assert got == expected  # caught up with the save through the change log
        assert cache.epoch == app.extensions[SETTINGS].shared.cache.epoch
    finally:
        dispose(other)

