"""The crawl on datatrove: the exported pipeline, run by datatrove's local executor over the shared corpora
written as WARC files, gives every page the text Goldtext stores for it; a hanging page is a timeout, not a
lost page; a killed run completes only its missing tasks; the version check refuses drifted libraries; the
crawl's least certain pages come back as a batch; `goldtext crawl-report` reports the run."""

from __future__ import annotations

import base64
import gzip
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from corpora import READABILITY, READABILITY_PAGES, WCXB, WCXB_SAMPLE
from extractor_fixtures import installed
from sqlalchemy import delete, func, or_, select
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter
from workbench import sign_in

from webapp.crawl.pins import VersionDrift, build_pinned
from webapp.crawl.plan import Plan
from webapp.crawl.sample import Candidate, sample, shares
from webapp.extractors.registry import build_registry
from webapp.models import Extraction, ImportBatch, Job, Page
from webapp.scoring.agreement_maths import text_f1

pytest.importorskip("datatrove")

ROOT = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parents[1]
WCXB_SITES = "wcxb-dev-sites"



def record_id(page_id: int) -> str:
    return f"<urn:goldtext:page:{page_id}>"


def page_of(doc_id: str) -> int:
    return int(doc_id.strip("<>").rsplit(":", 1)[1])


def write_warcs(folder: Path, pages: list[tuple[int, str, bytes]], files: int) -> list[Path]:
    """The pages as HTTP 200 text/html responses, shared round-robin among `files` gzipped WARC files."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"crawl-{n}.warc.gz" for n in range(files)]
    streams = [path.open("wb") for path in paths]
    writers = [WARCWriter(stream, gzip=True) for stream in streams]
    for number, (page_id, url, raw) in enumerate(pages):
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        record = writers[number % files].create_warc_record(
            url, "response", payload=BytesIO(raw), http_headers=http,
            warc_headers_dict={"WARC-Record-ID": record_id(page_id)})
        writers[number % files].write_record(record)
    for stream in streams:
        stream.close()
    return paths


def stored_pages(session) -> list[tuple[int, str, bytes]]:
    """Every page's (id, URL, bytes); a page imported without a URL is given one first, as every page of a crawl
    has one (Readability's test pages mostly have none)."""
    for page in session.scalars(select(Page).where(or_(Page.url.is_(None), Page.url == ""))):
        page.url = f"https://readability.example/{page.id}"
    session.commit()
    return [(p.id, p.url, p.raw) for p in session.scalars(select(Page).order_by(Page.id))]


def run_pipeline(folder: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`python pipeline.py ARGS`, as a user runs it, with this checkout (and the test plugins) importable."""
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(folder / "pipeline.py"), *args], env=env, capture_output=True,
                          text=True, timeout=1200)
    if check:
        assert done.returncode == 0, done.stderr[-3000:]
    return done


def documents(out: Path) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for path in sorted((out / "data").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            for line in stream:
                doc = json.loads(line)
                assert doc["id"] not in found, f"{doc['id']} written twice"
                found[doc["id"]] = doc
    return found


def stored_texts(session, fingerprint: str) -> dict[int, str]:
    rows = session.execute(select(Extraction.page_id, Extraction.text).where(Extraction.fingerprint == fingerprint))
    return dict(rows.all())


@pytest.mark.slow
@pytest.mark.corpus(READABILITY, WCXB, WCXB_SITES)
def test_every_page_of_the_shared_corpora_gets_the_text_goldtext_stores_and_the_least_certain_come_back(
    app, cli, session, tmp_path
):
    cli("import", str(READABILITY_PAGES), str(WCXB_SAMPLE), str(WCXB_SAMPLE.parent / WCXB_SITES))
    pages = stored_pages(session)
    cli("extract", "--extractor", "trafilatura", "--extractor", "resiliparse")
    output = cli("export", "--format", "datatrove", "--extractor", "trafilatura", "--keep-html-bytes", "5000000",
                 "--out", str(tmp_path / "pipeline"))
    assert "challenger: resiliparse" in output  # the runner-up on the corpora's gold
    config = json.loads((tmp_path / "pipeline" / "pipeline.json").read_text())
    registry = build_registry()
    assert [(p["name"], p["fingerprint"]) for p in config["extractors"]] == [
        ("trafilatura", registry["trafilatura"].fingerprint), ("resiliparse", registry["resiliparse"].fingerprint)]

    # --by type: each type's winner on the leaderboard, as `goldtext score --by type` ranks them
    cli("export", "--format", "datatrove", "--by", "type", "--out", str(tmp_path / "by-type"))
    routes = json.loads((tmp_path / "by-type" / "pipeline.json").read_text())["routes"]
    board = json.loads(cli("score", "--by", "type", "--format", "json", "--bootstrap", "0"))
    assert set(routes) == set(app.config["PAGE_TYPES"])
    for page_type, group in board["groups"].items():
        f1 = {name: figures["f1"] for name, figures in group["extractors"].items()}
        if group["pages"] >= 5:
            assert f1[routes[page_type]["extractor"]] == max(f1.values()), page_type
            fallback = routes[page_type]["fallback"]
            assert fallback in f1 and fallback != routes[page_type]["extractor"]
            assert f"on the {group['pages']} scored gold pages of this type" in routes[page_type]["why"]

    write_warcs(tmp_path / "warc", pages, files=2)
    run_pipeline(tmp_path / "pipeline", "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / "out"),
                 "--tasks", "2", "--workers", "2")

    docs = documents(tmp_path / "out")
    assert sorted(page_of(doc_id) for doc_id in docs) == [page_id for page_id, _, _ in pages]
    main = stored_texts(session, registry["trafilatura"].fingerprint)
    challenger = stored_texts(session, registry["resiliparse"].fingerprint)
    urls = {page_id: url for page_id, url, _ in pages}
    raws = {page_id: raw for page_id, _, raw in pages}
    page_types = set(app.config["PAGE_TYPES"])
    for doc_id, doc in docs.items():
        page_id, meta = page_of(doc_id), doc["metadata"]
        assert doc["text"] == main[page_id], f"page {page_id}: the step's text is not the stored extraction"
        assert (meta["url"], meta["extractor"], meta["fingerprint"]) == (
            urls[page_id], "trafilatura", registry["trafilatura"].fingerprint)
        assert meta["page_type"] in page_types
        assert meta["agreement"] == round(text_f1(main[page_id], challenger[page_id]), 6)
        raw = raws[page_id]
        if len(raw) <= 5_000_000:
            assert base64.b64decode(meta["html_base64"]) == raw
        else:  # one WCXB page is larger than the cap
            assert meta["html_omitted"] == f"{len(raw):,} bytes, over the cap of 5,000,000"
            assert "html_base64" not in meta
    report = cli("crawl-report", str(tmp_path / "out"))
    assert f"| trafilatura | {len(pages)} |" in report
    assert f"and resiliparse's, on {len(pages)} documents" in report

    # the next batch: the 20 least certain documents (of those whose HTML was kept), shared among the page types
    # read from the facts in proportion to their documents
    by_type: dict[str, dict[str, float]] = {}
    for doc_id, doc in docs.items():
        if "html_base64" in doc["metadata"]:
            by_type.setdefault(doc["metadata"]["page_type"], {})[doc_id] = doc["metadata"]["agreement"]
    share = shares({page_type: len(found) for page_type, found in by_type.items()}, 20)
    session.execute(delete(Page))
    session.commit()
    output = cli("import", "--datatrove", str(tmp_path / "out"), "--sample", "20", "--by", "type",
                 "--lowest-agreement")
    batch = session.scalars(select(ImportBatch).order_by(ImportBatch.id.desc())).first()
    assert (batch.imported, batch.duplicates, batch.rejected) == (20, 0, 0), output
    imported = session.scalars(select(Page).where(Page.batch_id == batch.id)).all()
    taken: dict[str, set[str]] = {page_type: set() for page_type in by_type}
    for page in imported:
        layout = page.facts["layout"]
        meta = docs[layout["id"]]["metadata"]
        assert (layout["name"], layout["page_type"], layout["agreement"]) == ("datatrove", meta["page_type"],
                                                                              meta["agreement"])
        assert page.raw == base64.b64decode(meta["html_base64"]) and page.url == meta["url"] and page.html
        taken[meta["page_type"]].add(layout["id"])
    for page_type, found in by_type.items():
        assert len(taken[page_type]) == share[page_type], page_type
        left = [agreement for doc_id, agreement in found.items() if doc_id not in taken[page_type]]
        assert max((found[doc_id] for doc_id in taken[page_type]), default=0.0) <= min(left, default=1.0), page_type


@pytest.fixture
def hanging_plugin(tmp_path, monkeypatch):
    """A distribution registering extractor_fixtures' hang-on-mark, visible here and to the pipeline's processes."""
    plugins = installed(tmp_path, "hanging", {"hang-on-mark": "HANG_ON_MARK"})
    monkeypatch.syspath_prepend(str(plugins))
    monkeypatch.setenv("PYTHONPATH", str(plugins))


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
@pytest.mark.settings(EXTRACT_TIMEOUT=3.0)
def test_a_hanging_page_is_a_timeout_and_a_killed_run_completes_only_its_missing_tasks(
    app, cli, session, tmp_path, hanging_plugin
):
    folders = sorted(p for p in READABILITY_PAGES.iterdir() if (p / "source.html").is_file())[:10]
    pages = [(n + 1, f"https://pages.example/{f.name}", (f / "source.html").read_bytes())
             for n, f in enumerate(folders)]
    pages.append((99, "https://pages.example/hangs", b"<html><body><p>goldtext-test-hang</p></body></html>"))
    # task 1's file starts with the hanging page, so a kill after task 0 completes finds task 1 in its call
    first, second = pages[:5], [pages[-1], *pages[5:10]]
    write_warcs(tmp_path / "warc" / "a", first, files=1)
    write_warcs(tmp_path / "warc" / "b", second, files=1)
    cli("export", "--format", "datatrove", "--extractor", "hang-on-mark", "--out", str(tmp_path / "pipeline"))
    out = tmp_path / "out"
    args = ["--warc", str(tmp_path / "warc" / "*" / "*.warc.gz"), "--out", str(out), "--tasks", "2", "--workers", "1"]

    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS), os.environ["PYTHONPATH"]])}
    killed = subprocess.Popen([sys.executable, str(tmp_path / "pipeline" / "pipeline.py"), *args], env=env,
                              start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not (out / "logs" / "completions" / "00000").exists():
            assert killed.poll() is None, "the pipeline ended before task 0 completed"
            time.sleep(0.05)
    finally:
        os.killpg(killed.pid, signal.SIGKILL)
        killed.wait()
    assert not (out / "logs" / "completions" / "00001").exists()
    task_0 = (out / "data" / "00000.jsonl.gz").read_bytes(), (out / "logs" / "stats" / "00000.json").read_text()

    rerun = run_pipeline(tmp_path / "pipeline", *args)
    assert "Skipping 1 already completed tasks" in rerun.stderr
    assert ((out / "data" / "00000.jsonl.gz").read_bytes(), (out / "logs" / "stats" / "00000.json").read_text()) \
        == task_0
    docs = documents(out)
    assert sorted(page_of(doc_id) for doc_id in docs) == sorted(page_id for page_id, _, _ in pages)
    hung = docs[record_id(99)]
    assert (hung["text"], hung["metadata"]["error"], hung["metadata"]["accepted"]) == ("", "timeout after 3 s", False)
    for page_id, url, _ in pages[:-1]:
        assert docs[record_id(page_id)]["text"].endswith(f" characters from {url}")
    task_1 = json.loads((out / "logs" / "stats" / "00001.json").read_text())
    counters = next(step["stats"] for step in task_1 if "⛏ Goldtext" in step["name"])
    assert (counters["timeout"], counters["extracted"]) == (1, 5)

    report = cli("crawl-report", str(out))
    assert "| timeout | 1 |" in report and "| extracted | 10 |" in report
    assert "| hang-on-mark: timeout after 3 s | 1 |" in report
    assert (out / "CRAWL_REPORT.md").read_text().startswith("# Crawl report: out")


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_the_pipeline_refuses_libraries_other_than_the_pinned_ones_unless_drift_is_allowed(cli, tmp_path):
    folders = sorted(p for p in READABILITY_PAGES.iterdir() if (p / "source.html").is_file())[:3]
    pages = [(n, f"https://pages.example/{n}", (f / "source.html").read_bytes()) for n, f in enumerate(folders)]
    write_warcs(tmp_path / "warc", pages, 1)
    cli("export", "--format", "datatrove", "--extractor", "trafilatura", "--out", str(tmp_path / "pipeline"))
    path = tmp_path / "pipeline" / "pipeline.json"
    config = json.loads(path.read_text())
    installed = config["extractors"][0]["version"]
    assert installed.startswith("trafilatura 2.")
    config["extractors"][0]["version"] = "trafilatura 1.11.0"
    pin = config["extractors"][0]
    pin["fingerprint"] = pin["fingerprint"].replace(installed, "trafilatura 1.11.0")
    path.write_text(json.dumps(config))

    refused = run_pipeline(tmp_path / "pipeline", "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / "out"),
                           check=False)
    assert refused.returncode == 2
    library = installed.split(", ")[0]  # the drift names the libraries; the version says more
    assert f"trafilatura: pinned trafilatura 1.11.0, installed {library}" in refused.stderr
    assert not (tmp_path / "out").exists()
    with pytest.raises(VersionDrift, match="pinned trafilatura 1.11.0"):
        build_pinned(Plan.from_config(config).pins)

    allowed = run_pipeline(tmp_path / "pipeline", "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / "out"),
                           "--allow-version-drift")
    assert f"warning: version drift: trafilatura: pinned trafilatura 1.11.0, installed {library}" in allowed.stderr
    docs = documents(tmp_path / "out")
    assert len(docs) == 3
    assert {doc["metadata"]["fingerprint"] for doc in docs.values()} == {build_registry()["trafilatura"].fingerprint}


def test_the_sample_shares_itself_among_strata_and_takes_the_lowest_agreement():
    pool = [Candidate(("0.jsonl.gz", n), "article" if n < 30 else "forum", n / 100) for n in range(40)]
    pool.append(Candidate(("0.jsonl.gz", 99), "product", None))
    assert shares({"article": 30, "forum": 10, "product": 1}, 8) == {"article": 6, "forum": 2, "product": 0}
    assert shares({"article": 30, "forum": 1}, 8) == {"article": 8, "forum": 0}
    assert shares({"article": 3, "forum": 1}, 10) == {"article": 3, "forum": 1}
    chosen = sample(pool, 8, lowest_agreement=True)
    assert [c.position[1] for c in chosen] == [0, 1, 2, 3, 4, 5, 30, 31]
    assert len(sample(pool, 100)) == 41


def test_the_extractors_page_exports_the_pipeline_through_an_export_job(client, session, run_jobs):
    token = sign_in(client)
    assert 'action="/extractors/pipeline"' in client.get("/extractors").get_data(as_text=True)
    form = {"extractor": "trafilatura", "challenger": "none", "keep_html_bytes": "100000"}
    assert client.post("/extractors/pipeline", data=form).status_code == 400  # no CSRF token
    refused = client.post("/extractors/pipeline", data={**form, "csrf_token": token, "extractor": "<b>nope</b>"})
    assert refused.status_code == 400
    assert "unknown extractor: &lt;b&gt;nope&lt;/b&gt;" in refused.get_data(as_text=True)
    assert session.scalar(select(func.count(Job.id))) == 0
    session.rollback()

    response = client.post("/extractors/pipeline", data={**form, "csrf_token": token})
    assert response.status_code == 302 and response.location.startswith("/jobs/")
    job_id = int(response.location.rsplit("/", 1)[-1])
    assert run_jobs() == [job_id]
    archive = client.get(f"/jobs/{job_id}/download")
    assert archive.status_code == 200
    with zipfile.ZipFile(BytesIO(archive.get_data())) as zipped:
        names = set(zipped.namelist())
        assert {f"goldtext-datatrove-{job_id}/pipeline.py", f"goldtext-datatrove-{job_id}/pipeline.json"} <= names
        config = json.loads(zipped.read(f"goldtext-datatrove-{job_id}/pipeline.json"))
        script = zipped.read(f"goldtext-datatrove-{job_id}/pipeline.py").decode()
    assert (config["extractor"], config["challenger"], config["keep_html_bytes"]) == ("trafilatura", None, 100000)
    assert [pin["fingerprint"] for pin in config["extractors"]] == [build_registry()["trafilatura"].fingerprint]
    assert "from webapp.crawl.launch import main" in script and "extractor trafilatura" in script


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_a_variant_and_the_site_rules_run_by_name_with_their_stored_options(cli, session, tmp_path):
    folders = sorted(p for p in READABILITY_PAGES.iterdir() if (p / "source.html").is_file())[:6]
    pages = tmp_path / "pages"
    pages.mkdir()
    for folder in folders:
        (pages / f"{folder.name}.html").write_bytes((folder / "source.html").read_bytes())
    (pages / "index.json").write_text(json.dumps({f.name: f"https://pages.example/{f.name}" for f in folders}))
    cli("import", str(pages))
    cli("extractors", "add", "traf-precise", "--base", "trafilatura", "--option", "favor_precision=true")
    cli("rules", "set", "pages.example", "--body", "body", "--drop", "nav", "--drop", "footer")
    cli("extract", "--extractor", "site-rules", "--extractor", "traf-precise")
    cli("export", "--format", "datatrove", "--extractor", "site-rules", "--challenger", "traf-precise",
        "--out", str(tmp_path / "pipeline"))
    config = json.loads((tmp_path / "pipeline" / "pipeline.json").read_text())
    pins = {pin["name"]: pin for pin in config["extractors"]}
    assert pins["site-rules"]["options"] == {"rules": {"pages.example": {"body": "body", "drop": ["nav", "footer"]}}}
    assert (pins["traf-precise"]["base"], pins["traf-precise"]["options"]["favor_precision"]) == ("trafilatura", True)

    stored = stored_pages(session)
    write_warcs(tmp_path / "warc", stored, files=1)
    run_pipeline(tmp_path / "pipeline", "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / "out"))
    docs = documents(tmp_path / "out")
    rules = stored_texts(session, pins["site-rules"]["fingerprint"])
    variant = stored_texts(session, pins["traf-precise"]["fingerprint"])
    assert len(docs) == len(stored) == 6
    for doc_id, doc in docs.items():
        page_id = page_of(doc_id)
        assert doc["text"] == rules[page_id]
        assert doc["metadata"]["agreement"] == round(text_f1(rules[page_id], variant[page_id]), 6)
