"""`goldtext capture` end to end against a local server: each URL fetched, refused or failed with its
reason, the fetched pages imported with their fetch facts and extracted, the WARC kept and written where
asked, and that WARC imported into another instance gives the same pages and facts."""

from __future__ import annotations

import pytest
from capture_server import capture_server
from sqlalchemy import select
from warcio.archiveiterator import ArchiveIterator

from webapp import create_app
from webapp.models import AuditEvent, Extraction, Job, Page
from webapp.web.db import dispose, sessions

pytestmark = pytest.mark.settings(CAPTURE_ALLOWED_NETWORKS=["127.0.0.1/32"], CAPTURE_ALLOWED_PORTS=["1024-65535"],
                                  CAPTURE_DELAY_SECONDS=0.0, CAPTURE_TIMEOUT_SECONDS=1.0, CAPTURE_MAX_BYTES=100_000)


@pytest.mark.slow
def test_a_capture_fetches_refuses_and_reports_each_url(runner, session, tmp_path):
    warc = tmp_path / "out.warc.gz"
    with capture_server() as base:
        listed = tmp_path / "urls.txt"
        listed.write_text(f"# the list\n{base}/private/secret\n{base}/huge\n\n{base}/data.json\n")
        result = runner.invoke(args=["capture", f"{base}/redirect", f"{base}/other", "--file", str(listed),
                                     "--extractor", "trafilatura", "--warc", str(warc)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"fetched  {base}/redirect  -> {base}/page" in out
    assert f"refused  {base}/private/secret  refused by robots: Disallow: /private (user-agent: *)" in out
    assert f"failed   {base}/huge  too large: " in out and "not HTML: Content-Type application/json" in out
    assert "2 fetched, 1 refused by robots.txt, 2 failed" in out
    pages = {p.url: p for p in session.scalars(select(Page))}
    assert set(pages) == {f"{base}/page", f"{base}/other"}
    facts = pages[f"{base}/page"].facts["fetch"]
    assert facts["requested_url"] == f"{base}/redirect" and facts["redirects"][0]["status"] == 301
    assert facts["robots"]["allowed"] is True and facts["headers"]["content-type"].startswith("text/html")
    assert session.scalars(select(Extraction.extractor)).all() == ["trafilatura", "trafilatura"]
    kinds = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI")) for r in ArchiveIterator(warc.open("rb"))]
    assert kinds[0][0] == "warcinfo" and ("response", f"{base}/robots.txt") in kinds
    assert ("response", f"{base}/huge") not in kinds  # nothing half-fetched is kept as a response
    event = session.scalars(select(AuditEvent).where(AuditEvent.action == "capture")).one()
    assert event.detail["obey_robots"] is True and event.detail["urls"] == 5
    job = session.scalars(select(Job).where(Job.kind == "capture")).one()
    again = runner.invoke(args=["capture", "--report", str(job.id)])
    assert again.exit_code == 0 and "2 fetched, 1 refused by robots.txt, 2 failed" in again.output


def test_without_robots_the_refused_page_is_captured_and_the_choice_recorded(runner, session, tmp_path):
    with capture_server() as base:
        result = runner.invoke(args=["capture", f"{base}/private/secret", "--no-robots", "--extractor",
                                     "trafilatura"])
    assert result.exit_code == 0, result.output
    page = session.scalars(select(Page)).one()
    assert page.facts["fetch"]["robots"] == {"obeyed": False}
    warc = session.scalars(select(Job).where(Job.kind == "capture")).one().result["warc"]
    info = next(ArchiveIterator(open(warc, "rb")))
    assert b'"robots_txt": "not obeyed"' in info.content_stream().read()


@pytest.mark.slow
def test_the_warc_imported_elsewhere_gives_the_same_pages_and_facts(runner, session, tmp_path):
    warc = tmp_path / "capture.warc.gz"
    with capture_server() as base:
        result = runner.invoke(args=["capture", f"{base}/page", f"{base}/gzipped", "--extractor", "trafilatura",
                                     "--warc", str(warc)])
    assert result.exit_code == 0, result.output
    here = {p.url: (p.sha256, p.facts["fetch"]) for p in session.scalars(select(Page))}
    (tmp_path / "other").mkdir()
    other = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "other"), "SECRET_KEY": "other",
                        "DATABASE_URL": f"sqlite:///{tmp_path / 'other' / 'other.sqlite'}"})
    imported = other.test_cli_runner().invoke(args=["import", str(warc), "--format", "warc"])
    assert imported.exit_code == 0, imported.output
    with sessions(other)() as there:
        elsewhere = {p.url: (p.sha256, p.facts["fetch"]) for p in there.scalars(select(Page))}
    dispose(other)
    assert elsewhere == here and len(here) == 2


@pytest.mark.parametrize(("args", "message"), [
    ([], "Give at least one URL"), (["not a url"], "is not an http or https URL"),
    (["ftp://a.example/x"], "is not an http or https URL"),
])
def test_a_capture_that_cannot_start_says_why(runner, args, message):
    result = runner.invoke(args=["capture", *args])
    assert result.exit_code == 2 and message in result.output


def test_a_capture_where_nothing_is_fetched_ends_with_its_report_and_imports_nothing(runner, session):
    with capture_server() as base:
        result = runner.invoke(args=["capture", f"{base}/private/secret", f"{base}/data.json"])
    assert result.exit_code == 1, result.output
    assert "0 fetched, 1 refused by robots.txt, 1 failed" in result.output
    assert "Error: no URL was captured: the report above says why each was not" in result.output
    assert "NothingImported" not in result.output
    job = session.scalars(select(Job).where(Job.kind == "capture")).one()
    assert job.status == "done" and session.scalars(select(Page)).all() == []
