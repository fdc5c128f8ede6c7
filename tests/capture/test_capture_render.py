"""`goldtext capture --render` against a local server, in Debian's Chromium: the page whose article only
JavaScript writes is kept as its raw response and, beside it, its rendering (the DOM and a screenshot),
extracted apart, suggested as a JavaScript shell with the evidence; every request the browser makes goes
through the capture's address rules; the rendering is a resource record of the WARC concurrent to the
response, and the WARC imported into another instance gives the same renderings and styled snapshots."""

from __future__ import annotations

import pytest
from capture_server import Handler, capture_server
from sqlalchemy import select
from warcio.archiveiterator import ArchiveIterator
from workbench import page_data, sign_in

from webapp import create_app
from webapp.annotation.type_signals import JS_SHELL, suggest_type
from webapp.foundation.settings import settings_of
from webapp.models import Extraction, Page, PageRendering, PageRequisite, RenderingExtraction
from webapp.web.db import dispose, sessions

pytestmark = [pytest.mark.browser,
              pytest.mark.settings(CAPTURE_ALLOWED_NETWORKS=["127.0.0.1/32"], CAPTURE_ALLOWED_PORTS=["1024-65535"],
                                   CAPTURE_DELAY_SECONDS=0.0, CAPTURE_TIMEOUT_SECONDS=2.0,
                                   CAPTURE_RENDER_SECONDS=15.0)]

ARTICLE = "Boats leave every forty minutes from the north pier"


@pytest.fixture(scope="module")
def rendered_capture(tmp_path_factory):
    """The WARC of one capture of the JavaScript page and the styled page, rendered."""
    folder = tmp_path_factory.mktemp("capture")
    warc = folder / "capture.warc.gz"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder), "SECRET_KEY": "x",
                      "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite'}", "CAPTURE_ALLOWED_NETWORKS": ["127.0.0.1/32"],
                      "CAPTURE_ALLOWED_PORTS": ["1024-65535"], "CAPTURE_DELAY_SECONDS": 0.0,
                      "CAPTURE_TIMEOUT_SECONDS": 2.0, "CAPTURE_RENDER_SECONDS": 15.0, "EXTRACT_PROCESSES": 1})
    app.test_cli_runner().invoke(args=["db", "upgrade"])
    with capture_server() as base:
        result = app.test_cli_runner().invoke(args=["capture", f"{base}/js-article", f"{base}/styled", "--render",
                                                    "--extractor", "trafilatura", "--warc", str(warc)])
    assert result.exit_code == 0, result.output
    assert f"fetched  {base}/js-article  (rendered)" in result.output
    assert Handler.counts.get("/api/article") == 1  # the page's script ran: its request answered through the capture
    yield app, base, warc
    dispose(app)


def _pages(app, base):
    with sessions(app)() as session:
        pages = {p.url.removeprefix(base): p for p in session.scalars(select(Page))}
        renderings = {r.page_id: (r.html, r.screenshot) for r in session.scalars(select(PageRendering))}
        requisites = {(r.page_id, r.url.removeprefix(base)): r.data for r in session.scalars(select(PageRequisite))}
        raw = {(e.page_id, e.extractor): e.text for e in session.scalars(select(Extraction))}
        on_rendering = {(session.get(PageRendering, e.rendering_id).page_id, e.extractor): e.text
                        for e in session.scalars(select(RenderingExtraction))}
        for page in pages.values():
            page.html  # noqa: B018 - deferred: loaded before the page leaves the session
            session.expunge(page)
    return pages, renderings, requisites, raw, on_rendering


def test_the_javascript_page_is_kept_raw_and_rendered_and_extracted_apart(rendered_capture):
    app, base, _ = rendered_capture
    pages, renderings, _, raw, on_rendering = _pages(app, base)
    shell = pages["/js-article"]
    html, screenshot = renderings[shell.id]
    assert ARTICLE in html and ARTICLE not in shell.html  # the raw response is what the server sent
    assert screenshot[:8] == b"\x89PNG\r\n\x1a\n"
    assert ARTICLE in on_rendering[(shell.id, "trafilatura")]
    assert ARTICLE not in raw.get((shell.id, "trafilatura"), "")
    facts = shell.facts
    assert facts["rendering"]["rendered_text_chars"] > 3 * facts["rendering"]["raw_text_chars"]
    suggestion = suggest_type(facts, shell.url, settings_of(app).taxonomy)
    assert suggestion.page_type == JS_SHELL and "rendering in Chromium" in suggestion.signal
    styled = pages["/styled"]
    suggested = suggest_type(styled.facts, styled.url, settings_of(app).taxonomy)
    assert "rendering" in styled.facts and suggested.page_type != JS_SHELL


def test_the_annotate_view_offers_the_output_on_the_rendering_after_the_scored_ones(rendered_capture):
    app, base, _ = rendered_capture
    pages, *_ = _pages(app, base)
    client = app.test_client()
    sign_in(client)
    data = page_data(client.get(f"/pages/{pages['/js-article'].id}"))
    names = [c["name"] for c in data["candidates"]]
    assert names == ["trafilatura", "trafilatura on the rendering"]
    assert ARTICLE in data["candidates"][1]["text"] and data["candidates"][1]["saved_scores"] == {}


def test_the_browser_reaches_no_refused_address(rendered_capture):
    app, base, _ = rendered_capture
    pages, *_ = _pages(app, base)
    render = pages["/js-article"].facts["fetch"]["render"]
    refused = {r["url"]: r["reason"] for r in render["refusals"]}
    assert "10.0.0.7 is private" in refused["http://10.0.0.7:8080/pixel.gif"] or \
        "a private address" in refused["http://10.0.0.7:8080/pixel.gif"]
    assert render["waited_for"] == "network idle" and render["requests"] >= 1  # the JSON the page asks for


def test_the_styled_snapshot_keeps_the_stylesheets_fonts_and_images(rendered_capture):
    app, base, _ = rendered_capture
    pages, _, requisites, *_ = _pages(app, base)
    styled = pages["/styled"].id
    kept = {url for page_id, url in requisites if page_id == styled}
    assert kept == {"/css/site.css", "/css/extra.css", "/fonts/harbour.woff2", "/img/back.png", "/img/dot.png",
                    "/img/photo.png"}
    left_out = {r["url"] for r in pages["/styled"].facts["fetch"]["styles"]["left_out"]}
    assert "http://10.0.0.7:8080/evil.css" in left_out and "http://10.0.0.7:8080/track.gif" in left_out


def test_the_rendering_is_a_resource_record_concurrent_to_the_response(rendered_capture):
    _, base, warc = rendered_capture
    records = {}
    for record in ArchiveIterator(warc.open("rb")):
        records[(record.rec_type, record.rec_headers.get_header("WARC-Target-URI"))] = (
            record.rec_headers.get_header("WARC-Record-ID"), record.rec_headers.get_header("WARC-Concurrent-To"),
            record.rec_headers.get_header("Content-Type"))
    response_id = records[("response", f"{base}/js-article")][0]
    dom = records[("resource", f"urn:goldtext:rendered-dom:{base}/js-article")]
    shot = records[("resource", f"urn:goldtext:screenshot:{base}/js-article")]
    assert dom[1] == response_id and dom[2].startswith("text/html")
    assert shot[1] == response_id and shot[2] == "image/png"
    assert ("response", f"{base}/css/site.css") in records


def test_the_warc_imported_elsewhere_gives_the_same_renderings_and_snapshots(rendered_capture, tmp_path):
    app, base, warc = rendered_capture
    here = _pages(app, base)
    other = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "other",
                        "DATABASE_URL": f"sqlite:///{tmp_path / 'other.sqlite'}"})
    imported = other.test_cli_runner().invoke(args=["import", str(warc), "--format", "warc"])
    assert imported.exit_code == 0, imported.output
    there = _pages(other, base)
    dispose(other)

    def by_url(found):
        pages, renderings, requisites, *_ = found
        url_of = {p.id: url for url, p in pages.items()}
        return ({url: (p.sha256, p.facts) for url, p in pages.items()},
                {url_of[k]: v for k, v in renderings.items()},
                {(url_of[k[0]], k[1]): v for k, v in requisites.items()})

    assert by_url(there) == by_url(here)
