"""Exports from the browser: a background job with progress, then the zip as an attachment."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest

from webapp.gold import add_revision
from webapp.views.exports import export_jobs
from workbench import make_page, sign_in

NASTY_URL = "=HYPERLINK(\"http://evil.example\",\"x\")"


@pytest.fixture
def pages(session):
    first = make_page(session, url="https://news.example/1", candidates={"trafilatura": "Alpha beta"})
    add_revision(session, first, text="Alpha beta gamma", kind="article", status="done", author="Ann")
    second = make_page(session, url=NASTY_URL, host="-evil.example", candidates={"density": "@cmd"})
    add_revision(session, second, text="Omega", kind="article", status="done", author="Ann")
    session.commit()
    return first.id, second.id


def run_job(app, client, token: str, **form) -> tuple[str, object]:
    response = client.post("/exports", data={"csrf_token": token, **form})
    assert response.status_code == 302
    job_id = response.headers["Location"].rsplit("/", 1)[-1]
    with app.app_context():
        job = export_jobs()[job_id]
    job.thread.join(30)
    return job_id, job


def test_a_browser_export_is_a_zip_attachment_with_card_and_checksums(app, client, pages):
    token = sign_in(client)
    job_id, job = run_job(app, client, token, format="jsonl", status="done")
    progress = client.get(f"/exports/{job_id}/progress").get_json()
    assert progress == {"total": 2, "done": 2, "failure": None, "finished": True, "ready": True}
    assert f"/exports/{job_id}/download" in client.get(f"/exports/{job_id}").get_data(as_text=True)
    response = client.get(f"/exports/{job_id}/download")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/zip"
    assert response.headers["Content-Disposition"] == f"attachment; filename=goldtext-jsonl-{job_id}.zip"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    names = zipfile.ZipFile(io.BytesIO(response.get_data())).namelist()
    assert sorted(n.split("/", 1)[1] for n in names) == ["README.md", "SHA256SUMS", "pages.jsonl"]


def test_a_browser_scrapinghub_export_carries_every_extractor_s_predictions(app, client, pages):
    token = sign_in(client)
    job_id, job = run_job(app, client, token, format="scrapinghub", predictions="on")
    assert job.failure is None
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/exports/{job_id}/download").get_data()))
    outputs = {n.rsplit("/", 1)[-1] for n in archive.namelist() if "/output/" in n}
    assert {"trafilatura.json", "density.json", "whole-page.json"} <= outputs


def test_the_csv_export_neutralises_formula_cells(app, client, pages):
    token = sign_in(client)
    job_id, _ = run_job(app, client, token, format="csv")
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/exports/{job_id}/download").get_data()))
    text = archive.read(next(n for n in archive.namelist() if n.endswith("scores.csv"))).decode()
    rows = [r for r in csv.DictReader(io.StringIO(text)) if r["url"] != "https://news.example/1"]
    assert rows and {(r["url"], r["site"]) for r in rows} == {("'" + NASTY_URL, "'-evil.example")}
    assert {r["metric"] for r in rows} == {"tokens", "shingles"}


@pytest.mark.parametrize(
    "form, status",
    [({"format": "folder", "html": "without"}, 400), ({"format": "pdf"}, 400)],
)
def test_an_export_that_does_not_fit_is_refused(client, form, status):
    token = sign_in(client)
    assert client.post("/exports", data={"csrf_token": token, **form}).status_code == status


def test_an_unknown_job_is_not_found_and_posting_needs_the_csrf_token(client):
    assert client.get("/exports/0123456789abcdef/download").status_code == 404
    assert client.post("/exports", data={"format": "jsonl"}).status_code == 400
