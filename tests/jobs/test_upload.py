"""Import from the browser: the request stores the files and queues an upload job; a worker imports
them with the same service as `goldtext import`, extracts the new pages, and the report page follows
the job.

Jobs only run when the test calls `run_jobs()` (the workers' own code, in the test's process), so the
state before the worker ran is asserted too.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from app_settings import reconfigure
from sqlalchemy import func, select
from workbench import csrf

from webapp.models import Extraction, Gold, ImportBatch, Job, JobChunk, JobFile, Page

ARTICLE = (b"<html><head><title>Upload</title></head><body><nav>Menu</nav><article><h1>Harbour news</h1>"
           b"<p>The harbour opened a new quay for ferries this week.</p></article></body></html>")
NO_WORKER = "no worker is running: start one with `goldtext worker` (or `goldtext run`)"


def upload(client, files, fmt="auto", token=None):
    data = {"csrf_token": token or csrf(client), "format": fmt, "site_from": "url",
            "files": [(io.BytesIO(content), name) for name, content in files]}
    return client.post("/upload", data=data, content_type="multipart/form-data")


def counted(session, model) -> int:
    found = session.scalar(select(func.count()).select_from(model))
    session.rollback()  # let go of the database (SQLite: the next writer must not wait for us)
    return found


def stored_files(session, job_id: int) -> list[str]:
    names = list(session.scalars(select(JobFile.name).where(JobFile.job_id == job_id).distinct()
                                 .order_by(JobFile.name)))
    session.rollback()
    return names


def job_json(client, job_id: int) -> dict:
    response = client.get(f"/api/jobs/{job_id}")
    assert response.status_code == 200
    return response.get_json()


@pytest.fixture
def quick(app):
    reconfigure(app, UPLOAD_EXTRACTORS=["whole-page"], EXTRACT_PROCESSES=1)
    return app


def test_the_upload_request_stores_the_files_and_imports_nothing_until_its_job_runs(quick, client, session):
    response = upload(client, [("harbour.html", ARTICLE), ("harbour.gold.txt", b"Harbour news\n"),
                               ("notes.txt", b"not a page")])
    assert response.status_code == 302 and response.location == "/upload/1"

    batch = session.get(ImportBatch, 1)
    assert (batch.source, batch.format, batch.imported, batch.duplicates, batch.rejected, batch.report) == (
        "harbour.html, harbour.gold.txt, notes.txt", "auto", 0, 0, 0, [])
    session.rollback()
    assert counted(session, Page) == 0
    assert counted(session, Extraction) == 0
    # loose layout files are kept together, anything else on its own, numbered by its place in the form
    assert stored_files(session, 1) == ["2-notes.txt", "pages/harbour.gold.txt", "pages/harbour.html"]
    chunks = session.execute(select(JobChunk.step, JobChunk.status).where(JobChunk.job_id == 1)).all()
    session.rollback()
    assert chunks == [("import", "queued")]

    job = job_json(client, 1)
    assert {key: job[key] for key in ("id", "kind", "status", "stage", "done", "total", "errors", "error",
                                      "result", "finished", "started_at", "stalled")} == {
        "id": 1, "kind": "upload", "status": "queued", "stage": "", "done": 0, "total": None, "errors": 0,
        "error": None, "result": {}, "finished": False, "started_at": None, "stalled": NO_WORKER}

    report = client.get("/upload/1").get_data(as_text=True)
    assert "0 imported, 0 duplicate,\n  0 rejected." in report
    assert '<div class="job" id="job" data-progress="/api/jobs/1" data-status="queued"' in report
    assert f"Stalled: {NO_WORKER}" in report
    assert '<a href="/jobs/1">Job 1</a>' in report


def test_upload_imports_pages_with_their_gold_and_extracts_them_in_the_background(
    quick, client, session, run_jobs
):
    upload(client, [("harbour.html", ARTICLE), ("harbour.gold.txt", b"Harbour news\n"),
                    ("notes.txt", b"not a page")])
    assert run_jobs() == [1]

    report = client.get("/upload/1").get_data(as_text=True)
    assert "1 imported, 0 duplicate,\n  1 rejected." in report
    assert '<td><a href="/pages/1">harbour.html</a></td>' in report
    assert "unknown format for &#39;2-notes.txt&#39;" in report
    assert '<div class="job" id="job" data-progress="/api/jobs/1" data-status="done"' in report

    job = job_json(client, 1)
    assert (job["kind"], job["status"], job["finished"], job["error"], job["errors"], job["stalled"]) == (
        "upload", "done", True, None, 0, None)
    # one page x one extractor extracted, its three scores (tokens, shingles, wcxb) cached, one page measured
    assert {key: job["result"][key] for key in ("extracted", "errors", "scores", "measured")} == {
        "extracted": 1, "errors": 0, "scores": 3, "measured": 1}
    assert job["result"]["extract_seconds"] >= 0 and job["result"]["derive_seconds"] >= 0
    chunks = session.execute(select(JobChunk.step, JobChunk.status, JobChunk.work)
                             .where(JobChunk.job_id == 1).order_by(JobChunk.id)).all()
    session.rollback()
    assert chunks == [("import", "done", []), ("pairs", "done", [[1, "whole-page"]]), ("derive", "done", [])]

    (extraction,) = session.scalars(select(Extraction)).all()
    assert (extraction.page_id, extraction.extractor, extraction.error) == (1, "whole-page", None)
    assert "Harbour news" in extraction.text and "Menu" in extraction.text
    assert session.scalars(select(Gold.text)).one().strip() == "Harbour news"
    session.rollback()


def test_an_upload_s_stored_files_are_dropped_once_imported(quick, client, session, run_jobs):
    upload(client, [("harbour.html", ARTICLE), ("harbour.gold.txt", b"Harbour news\n")])
    upload(client, [("quay.html", ARTICLE.replace(b"Harbour", b"Quay"))])
    assert stored_files(session, 1) == ["pages/harbour.gold.txt", "pages/harbour.html"]
    assert stored_files(session, 2) == ["pages/quay.html"]
    stored = session.scalar(select(func.sum(func.length(JobFile.data))).where(JobFile.job_id == 1))
    session.rollback()
    assert stored == len(ARTICLE) + len(b"Harbour news\n")

    assert run_jobs() == [1, 2]
    assert counted(session, JobFile) == 0
    assert counted(session, Page) == 2


def test_two_files_of_the_same_name_are_both_imported(quick, client, session, run_jobs):
    """Two `source.html` picked from two folders (the Readability layout's file name) are two pages."""
    other = ARTICLE.replace(b"Harbour", b"Lighthouse")
    response = upload(client, [("source.html", ARTICLE), ("source.gold.txt", b"Harbour news\n"),
                               ("source.html", other), ("source.gold.txt", b"Lighthouse news\n"),
                               ("source.html", ARTICLE)])
    assert response.status_code == 302
    assert stored_files(session, 1) == ["pages/source.gold.txt", "pages/source.html", "pages/source~2.gold.txt",
                                        "pages/source~2.html", "pages/source~3.html"]
    run_jobs()
    session.expire_all()
    batch = session.get(ImportBatch, 1)
    assert (batch.imported, batch.duplicates, batch.rejected) == (2, 1, 0)
    golds = dict(session.execute(select(Page.raw, Gold.text).join(Gold, Gold.page_id == Page.id)).all())
    assert golds == {ARTICLE: "Harbour news\n", other: "Lighthouse news\n"}
    session.rollback()


def test_a_zip_upload_uses_the_same_reader_and_reports_duplicates(quick, client, session, run_jobs):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.html", ARTICLE)
        archive.writestr("../evil.html", ARTICLE + b" ")
    upload(client, [("pages.zip", buffer.getvalue())])
    assert stored_files(session, 1) == ["0-pages.zip"]
    assert run_jobs() == [1]
    report = client.get("/upload/1").get_data(as_text=True)
    assert '<a href="/pages/1">zip:0-pages.zip/a.html</a>' in report
    assert "zip:0-pages.zip/../evil.html" in report and "zip member with &#39;..&#39; in its path" in report
    assert "1 imported, 0 duplicate,\n  1 rejected." in report

    upload(client, [("again.html", ARTICLE)])
    assert run_jobs() == [2]
    report = client.get("/upload/2").get_data(as_text=True)
    assert "0 imported, 1 duplicate,\n  0 rejected." in report
    assert "same bytes as page 1" in report
    assert job_json(client, 2)["status"] == "done"
    assert counted(session, Page) == 1
    assert counted(session, Extraction) == 1  # the duplicate is not extracted again
    steps = session.execute(select(JobChunk.step).where(JobChunk.job_id == 2).order_by(JobChunk.id)).scalars().all()
    session.rollback()
    assert steps == ["import", "derive"]


def test_an_upload_with_nothing_to_read_fails_its_job_saying_what_was_looked_for(quick, client, session, run_jobs):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("export/scores.csv", "page_id,url\n1,https://a.example/\n")
    upload(client, [("scores.zip", buffer.getvalue())])
    assert run_jobs() == [1]
    job = job_json(client, 1)
    assert job["status"] == "failed"
    assert "no page was imported" in job["error"] and "nothing to read: looked for" in job["error"]
    report = client.get("/upload/1").get_data(as_text=True)
    assert "No page was imported: every item was rejected" in report
    assert ("nothing to read: looked for NAME.html pages, SLUG/source.html folders or an export folder in the "
            "zip (zip)") in report
    assert counted(session, Page) == 0


def test_a_malformed_warc_upload_is_rejected_naming_the_file_and_the_reason_in_words(quick, client, session,
                                                                                    run_jobs):
    """A response record without WARC-Target-URI made warcio raise "AttributeError: 'NoneType' object has no
    attribute 'startswith'", which was the reason shown."""
    record = (b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\n"
              b"Content-Length: 19\r\n\r\nHTTP/1.1 200 OK\r\n\r\n\r\n\r\n")
    upload(client, [("crawl-7.warc", record)], fmt="warc")
    run_jobs()
    report = client.get("/upload/1").get_data(as_text=True)
    assert "crawl-7.warc: unreadable from here on: a record&#39;s headers are malformed: a header it needs" in report
    assert "Error" not in report.split("<table")[1] and "NoneType" not in report


def test_an_upload_of_only_duplicates_says_it_extracted_nothing(quick, client, session, run_jobs):
    upload(client, [("a.html", ARTICLE)])
    upload(client, [("again.html", ARTICLE)])
    assert run_jobs() == [1, 2]
    assert job_json(client, 2)["result"]["extracted"] == 0


def test_upload_without_files_asks_again(client, session):
    response = upload(client, [])
    assert response.status_code == 302 and response.location == "/upload"
    assert "Choose at least one file" in client.get("/upload").get_data(as_text=True)
    assert (counted(session, ImportBatch), counted(session, Job)) == (0, 0)


def test_unknown_format_is_400(client, session):
    assert upload(client, [("a.html", ARTICLE)], fmt="pdf").status_code == 400
    assert (counted(session, ImportBatch), counted(session, Job), counted(session, JobFile)) == (0, 0, 0)


def test_an_upload_over_the_size_cap_is_413(app, client, session):
    token = csrf(client)
    reconfigure(app, MAX_CONTENT_LENGTH=2000)
    response = upload(client, [("big.html", b"<p>" + b"x" * 5000 + b"</p>")], token=token)
    assert response.status_code == 413
    assert counted(session, Page) == 0
    assert (counted(session, ImportBatch), counted(session, Job), counted(session, JobFile)) == (0, 0, 0)


def test_an_upload_needs_the_csrf_token(quick, client, session):
    response = client.post("/upload", data={"format": "auto", "files": [(io.BytesIO(ARTICLE), "a.html")]},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Missing or wrong CSRF token" in response.get_data(as_text=True)
    assert (counted(session, ImportBatch), counted(session, Job), counted(session, JobFile)) == (0, 0, 0)


def test_an_unknown_batch_or_job_is_not_found_and_the_old_progress_endpoint_is_gone(
    quick, client, run_jobs
):
    upload(client, [("a.html", ARTICLE)])
    run_jobs()
    assert client.get("/upload/9").status_code == 404
    unknown = client.get("/api/jobs/9")
    assert unknown.status_code == 404
    assert unknown.get_json() == {"error": "Not Found", "message": "no job 9", "finished": True, "unknown": True}
    assert client.get("/upload/1/progress").status_code == 404


def test_an_unknown_upload_extractor_is_a_server_error_before_anything_is_stored(app, client, session):
    """UPLOAD_EXTRACTORS is the operator's setting: a name no extractor has is the server's fault, said
    at once, instead of importing pages that the job could never extract."""
    reconfigure(app, UPLOAD_EXTRACTORS=["no-such-extractor"])
    response = upload(client, [("a.html", ARTICLE)])
    assert response.status_code == 500
    assert "UPLOAD_EXTRACTORS names an unknown extractor: unknown extractor: no-such-extractor (known: " in (
        response.get_data(as_text=True))
    assert (counted(session, ImportBatch), counted(session, Job), counted(session, JobFile),
            counted(session, Page)) == (0, 0, 0, 0)
