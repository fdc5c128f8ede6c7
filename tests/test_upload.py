"""Import from the browser: the import service's per-item report, extraction in the background."""

from __future__ import annotations

import io
import zipfile

import pytest
from sqlalchemy import func, select

from webapp.models import Extraction, Gold, Page
from webapp.views.upload import JOBS
from workbench import csrf

ARTICLE = (b"<html><head><title>Upload</title></head><body><nav>Menu</nav><article><h1>Harbour news</h1>"
           b"<p>The harbour opened a new quay for ferries this week.</p></article></body></html>")


def upload(client, files, fmt="auto", token=None):
    data = {"csrf_token": token or csrf(client), "format": fmt, "site_from": "url",
            "files": [(io.BytesIO(content), name) for name, content in files]}
    return client.post("/upload", data=data, content_type="multipart/form-data")


def finish_jobs(app):
    for job in app.extensions[JOBS].values():
        job.thread.join(timeout=120)
    return app.extensions[JOBS]


def counted(session, model):
    found = session.scalar(select(func.count()).select_from(model))
    session.rollback()
    return found


@pytest.fixture
def quick(app):
    app.config["UPLOAD_EXTRACTORS"] = ["whole-page"]
    return app


def test_upload_imports_pages_with_their_gold_and_extracts_them_in_the_background(quick, client, session):
    response = upload(client, [("harbour.html", ARTICLE), ("harbour.gold.txt", b"Harbour news\n"),
                               ("notes.txt", b"not a page")])
    assert response.status_code == 302 and response.location == "/upload/1"
    report = client.get("/upload/1").get_data(as_text=True)
    assert "1 imported" in report and "1 rejected" in report and "unknown format" in report
    (job,) = finish_jobs(quick).values()
    assert (job.total, job.done, job.errors, job.failure, job.finished) == (1, 1, 0, None, True)
    assert client.get("/upload/1/progress").json == {"batch": 1, "total": 1, "done": 1, "errors": 0,
                                                     "failure": None, "finished": True}
    text = session.scalars(select(Extraction.text)).one()
    assert "Harbour news" in text and "Menu" in text
    assert session.scalars(select(Gold.text)).one().strip() == "Harbour news"
    session.rollback()


def test_a_zip_upload_uses_the_same_reader_and_reports_duplicates(quick, client, session):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.html", ARTICLE)
        archive.writestr("../evil.html", ARTICLE + b" ")
    upload(client, [("pages.zip", buffer.getvalue())])
    report = client.get("/upload/1").get_data(as_text=True)
    assert "zip:0-pages.zip/a.html" in report and ".." in report and "1 rejected" in report
    upload(client, [("again.html", ARTICLE)])
    assert "1 duplicate" in client.get("/upload/2").get_data(as_text=True)
    finish_jobs(quick)
    assert counted(session, Page) == 1


def test_upload_without_files_asks_again(client):
    response = upload(client, [])
    assert response.status_code == 302 and response.location == "/upload"
    assert "Choose at least one file" in client.get("/upload").get_data(as_text=True)


def test_unknown_format_is_400(client):
    assert upload(client, [("a.html", ARTICLE)], fmt="pdf").status_code == 400


def test_an_upload_over_the_size_cap_is_413(app, client, session):
    token = csrf(client)
    app.config["MAX_CONTENT_LENGTH"] = 2000
    response = upload(client, [("big.html", b"<p>" + b"x" * 5000 + b"</p>")], token=token)
    assert response.status_code == 413
    assert counted(session, Page) == 0


def test_progress_of_a_batch_without_a_job_comes_from_the_database(quick, client, app):
    upload(client, [("a.html", ARTICLE)])
    finish_jobs(quick)
    app.extensions[JOBS].clear()  # as after a restart
    assert client.get("/upload/1/progress").json["done"] == 1
    assert client.get("/upload/9/progress").status_code == 404
    assert client.get("/upload/9").status_code == 404


def test_an_unknown_upload_extractor_imports_but_says_why_nothing_is_extracted(app, client):
    app.config["UPLOAD_EXTRACTORS"] = ["no-such-extractor"]
    upload(client, [("a.html", ARTICLE)])
    assert "not extracted" in client.get("/upload/1").get_data(as_text=True)
    assert app.extensions[JOBS] == {}
