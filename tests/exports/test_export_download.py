"""Exports from the browser: POST /exports queues an export job and shows its page; a worker writes the
zip into the database, and /jobs/<id>/download sends it as an attachment once the job is done.

Jobs only run when the test calls `run_jobs()` (the workers' own code, in the test's process)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile

import pytest
from sqlalchemy import func, select
from workbench import add_gold, make_page, sign_in

from webapp.extractors.extraction_service import current_extractors
from webapp.extractors.registry import build_registry
from webapp.foundation.settings import settings_of
from webapp.jobs.context import Context
from webapp.jobs.leases import claim
from webapp.models import Extraction, Job, JobChunk, JobFile
from webapp.steps.export_step import export_step
from webapp.web.db import database

NASTY_URL = "=HYPERLINK(\"http://evil.example\",\"x\")"


@pytest.fixture
def pages(session):
    first = make_page(session, url="https://news.example/1", candidates={"trafilatura": "Alpha beta"})
    add_gold(session, first, text="Alpha beta gamma", page_type="article", status="done", author="Ann")
    second = make_page(session, url=NASTY_URL, host="-evil.example", candidates={"density": "@cmd"})
    add_gold(session, second, text="Omega", page_type="article", status="done", author="Ann")
    session.commit()
    return first.id, second.id


def start(client, token: str, **form) -> int:
    """POST the export form; returns the job's id (the redirect goes to the job's page)."""
    response = client.post("/exports", data={"csrf_token": token, **form})
    assert response.status_code == 302, response.get_data(as_text=True)
    assert response.location.startswith("/jobs/")
    return int(response.location.rsplit("/", 1)[-1])


def job_json(client, job_id: int) -> dict:
    response = client.get(f"/api/jobs/{job_id}")
    assert response.status_code == 200
    return response.get_json()


def download(client, job_id: int) -> zipfile.ZipFile:
    response = client.get(f"/jobs/{job_id}/download")
    assert response.status_code == 200, response.get_data(as_text=True)
    return zipfile.ZipFile(io.BytesIO(response.get_data()))


def stored_files(session, job_id: int) -> list[str]:
    names = list(session.scalars(select(JobFile.name).where(JobFile.job_id == job_id).distinct()))
    session.rollback()
    return names


def test_a_browser_export_is_a_zip_attachment_with_card_and_checksums(client, session, pages, run_jobs):
    token = sign_in(client)
    job_id = start(client, token, format="jsonl", status="done")
    assert job_id == 1
    assert job_json(client, 1)["status"] == "queued"
    assert run_jobs() == [1]

    job = job_json(client, 1)
    assert {key: job[key] for key in ("kind", "status", "stage", "done", "total", "errors", "error",
                                      "finished", "started_by", "stalled")} == {
        "kind": "export", "status": "done", "stage": "exporting", "done": 2, "total": 2, "errors": 0,
        "error": None, "finished": True, "started_by": "Ann", "stalled": None}
    page = client.get("/jobs/1").get_data(as_text=True)
    assert '<a id="job-download" href="/jobs/1/download" >Download the export</a>' in page

    response = client.get("/jobs/1/download")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/zip"
    assert response.headers["Content-Disposition"] == 'attachment; filename="goldtext-jsonl-1.zip"'
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"
    data = response.get_data()
    assert int(response.headers["Content-Length"]) == len(data)
    assert job["result"] == {"file": "goldtext-jsonl-1.zip", "size": len(data), "pages": 2}

    archive = zipfile.ZipFile(io.BytesIO(data))
    names = archive.namelist()
    assert {n.split("/", 1)[0] for n in names} == {"goldtext-jsonl-1"}
    assert sorted(n.split("/", 1)[1] for n in names) == ["README.md", "SHA256SUMS", "pages.jsonl"]
    sums = dict(reversed(line.split("  ", 1)) for line in
                archive.read("goldtext-jsonl-1/SHA256SUMS").decode().splitlines())
    assert sorted(sums) == ["README.md", "pages.jsonl"]
    for name, digest in sums.items():
        assert hashlib.sha256(archive.read(f"goldtext-jsonl-1/{name}")).hexdigest() == digest
    assert len(archive.read("goldtext-jsonl-1/pages.jsonl").decode().splitlines()) == 2
    assert stored_files(session, 1) == ["goldtext-jsonl-1.zip"]


def test_the_download_answers_409_before_the_job_has_run_and_the_zip_after(client, pages, run_jobs):
    token = sign_in(client)
    job_id = start(client, token, format="jsonl")
    before = client.get(f"/jobs/{job_id}/download")
    assert before.status_code == 409
    assert f"Job {job_id} has no finished export to download (status: queued)." in before.get_data(as_text=True)
    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert f'<a id="job-download" href="/jobs/{job_id}/download" hidden>' in page
    assert f'action="/jobs/{job_id}/cancel"' in page

    assert run_jobs() == [job_id]
    assert download(client, job_id).namelist()


def test_a_cancelled_export_never_becomes_downloadable(client, session, pages, run_jobs):
    token = sign_in(client)
    job_id = start(client, token, format="jsonl")
    response = client.post(f"/jobs/{job_id}/cancel", data={"csrf_token": token})
    assert response.status_code == 302 and response.location == f"/jobs/{job_id}"
    job = job_json(client, job_id)
    assert (job["status"], job["finished"], job["result"]) == ("cancelled", True, {})
    chunks = session.execute(select(JobChunk.step, JobChunk.status).where(JobChunk.job_id == job_id)).all()
    session.rollback()
    assert chunks == [("export", "cancelled")]

    assert run_jobs() == []  # nothing open: no worker runs the cancelled export
    assert job_json(client, job_id)["status"] == "cancelled"
    assert stored_files(session, job_id) == []
    refused = client.get(f"/jobs/{job_id}/download")
    assert refused.status_code == 409
    assert "(status: cancelled)" in refused.get_data(as_text=True)
    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert f'action="/jobs/{job_id}/cancel"' not in page

    again = client.post(f"/jobs/{job_id}/cancel", data={"csrf_token": token})
    assert again.status_code == 409
    assert f"job {job_id} has already cancelled" in again.get_data(as_text=True)


def test_an_export_cancelled_after_its_zip_was_written_is_never_downloadable(app, client, session, pages,
                                                                             run_jobs):
    """The cancel arrives while a worker finishes the export: the zip is stored and named in the job's
    result, but the job is not done, so it is never sent."""
    token = sign_in(client)
    job_id = start(client, token, format="jsonl")
    (chunk_id,) = session.scalars(select(JobChunk.id).where(JobChunk.job_id == job_id)).all()
    claim(session, chunk_id, "export-worker", settings_of(app).lease)
    session.commit()
    params = dict(session.get(Job, job_id).params)
    session.rollback()  # let go of the database: the worker's step writes
    db = database(app)
    with app.app_context():
        ctx = Context(app, db.writer, db.reader, job_id, chunk_id, "export-worker", "export", params,
                      [], lambda: None)
        assert export_step(ctx) == []  # the worker's step ran; completing its chunk is still to come
    assert stored_files(session, job_id) == [f"goldtext-jsonl-{job_id}.zip"]
    running = job_json(client, job_id)
    assert (running["status"], running["result"]["file"]) == ("running", f"goldtext-jsonl-{job_id}.zip")
    assert client.get(f"/jobs/{job_id}/download").status_code == 409

    assert client.post(f"/jobs/{job_id}/cancel", data={"csrf_token": token}).status_code == 302
    assert run_jobs() == []
    assert job_json(client, job_id)["status"] == "cancelled"
    refused = client.get(f"/jobs/{job_id}/download")
    assert refused.status_code == 409
    assert "(status: cancelled)" in refused.get_data(as_text=True)


def test_a_finished_export_cannot_be_cancelled(client, pages, run_jobs):
    token = sign_in(client)
    job_id = start(client, token, format="jsonl")
    run_jobs()
    refused = client.post(f"/jobs/{job_id}/cancel", data={"csrf_token": token})
    assert refused.status_code == 409
    assert f"job {job_id} has already finished" in refused.get_data(as_text=True)
    assert job_json(client, job_id)["status"] == "done"
    assert download(client, job_id).namelist()


def test_a_browser_scrapinghub_export_carries_the_predictions_of_the_extractors_that_ran(
    client, session, pages, run_jobs
):
    current = {e.name: e.fingerprint for e in current_extractors(session, build_registry())}
    for page_id, name, text in ((pages[0], "trafilatura", "Alpha beta"), (pages[1], "density", "Omega")):
        session.add(Extraction(page_id=page_id, extractor=name, fingerprint=current[name], text=text, meta={}))
    session.commit()
    token = sign_in(client)
    job_id = start(client, token, format="scrapinghub", predictions="on")
    run_jobs()
    job = job_json(client, job_id)
    assert (job["status"], job["error"]) == ("done", None)
    archive = download(client, job_id)
    outputs = {n.rsplit("/", 1)[-1]: n for n in archive.namelist() if "/output/" in n}
    assert set(outputs) == {"trafilatura.json", "density.json"}  # none for the extractors that have not run
    texts = {entry["articleBody"] for entry in json.loads(archive.read(outputs["density.json"])).values()}
    assert texts == {"", "Omega"}


def test_the_csv_export_neutralises_formula_cells(client, pages, run_jobs):
    token = sign_in(client)
    job_id = start(client, token, format="csv")
    run_jobs()
    archive = download(client, job_id)
    text = archive.read(next(n for n in archive.namelist() if n.endswith("scores.csv"))).decode()
    rows = [r for r in csv.DictReader(io.StringIO(text)) if r["url"] != "https://news.example/1"]
    assert rows and {(r["url"], r["site"]) for r in rows} == {("'" + NASTY_URL, "'-evil.example")}
    assert {r["metric"] for r in rows} == {"tokens", "shingles", "wcxb"}


@pytest.mark.parametrize(
    "form, status",
    [({"format": "folder", "html": "without"}, 400), ({"format": "pdf"}, 400)],
)
def test_an_export_that_does_not_fit_is_refused(client, session, form, status):
    token = sign_in(client)
    assert client.post("/exports", data={"csrf_token": token, **form}).status_code == status
    assert session.scalar(select(func.count()).select_from(Job)) == 0


def test_an_unknown_job_is_not_found_and_posting_needs_the_csrf_token(client, session, pages):
    token = sign_in(client)
    assert client.get("/jobs/9/download").status_code == 404
    assert client.get("/jobs/9").status_code == 404
    unknown = client.get("/api/jobs/9")
    assert unknown.status_code == 404
    assert unknown.get_json() == {"error": "Not Found", "message": "no job 9", "finished": True, "unknown": True}
    assert client.post("/jobs/9/cancel", data={"csrf_token": token}).status_code == 404
    # the old per-export endpoints are gone
    for path in ("/exports/1", "/exports/1/progress", "/exports/1/download"):
        assert client.get(path).status_code == 404, path

    assert client.post("/exports", data={"format": "jsonl"}).status_code == 400
    assert session.scalar(select(func.count()).select_from(Job)) == 0
    session.rollback()
    job_id = start(client, token, format="jsonl")
    assert client.post(f"/jobs/{job_id}/cancel").status_code == 400
    assert job_json(client, job_id)["status"] == "queued"
