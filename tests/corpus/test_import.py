"""`goldtext import` end to end: every layout through the command, into the database.

The readers' own cases are in test_corpus.py; here it is what a user sees after the command: the
pages, URLs, sites, gold and types stored, the per-item report printed and kept on the batch.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import zipfile
from pathlib import Path

import pytest
from fixture_files import make_zip, warc_bytes, write_files
from sqlalchemy import func, select

from webapp.models import Gold, ImportBatch, Page, Site

PAGE = "<html><body><p>Page {}.</p></body></html>"


def page(name: str) -> bytes:
    """A small, distinct HTML page."""
    return PAGE.format(name).encode()


def write_warc(path: Path, records: list[dict]) -> Path:
    path.write_bytes(warc_bytes(records, gzipped=path.name.endswith(".gz")))
    return path


@pytest.fixture
def run_import(runner, session):
    """`goldtext import ARGS`'s output; the test's session lets go of the database first (on SQLite a
    read transaction holds the write lock: BEGIN IMMEDIATE)."""

    def invoke(*args: str | Path, exit_code: int = 0) -> str:
        session.rollback()
        result = runner.invoke(args=["import", *map(str, args)])
        assert result.exit_code == exit_code, result.output
        return result.output

    return invoke


def stored(session) -> dict[str, Page]:
    """Every stored page by its item name."""
    session.expire_all()
    return {p.source_name: p for p in session.scalars(select(Page))}


def last_batch(session) -> ImportBatch:
    session.expire_all()
    return session.scalars(select(ImportBatch).order_by(ImportBatch.id.desc())).first()


def gold_of(p: Page) -> tuple[str, str] | None:
    return (p.gold.text, p.gold.page_type) if p.gold else None


# --- layouts -------------------------------------------------------------------------------------

FOLDER = {
    "a.html": page("a"),
    "a.gold.txt": "Gold of a.",
    "a.url": "https://www.harbour.example/a\n",
    "news/index.csv": "name,url,type\nb,https://news.example/b,listing\n",
    "news/b.html": page("b"),
    "blog/index.json": json.dumps({"c": {"url": "https://blog.example/c", "type": "article"}}),
    "blog/c.html": page("c"),
    "blog/c.gold.txt": "Gold of c.",
}
EXPECTED = {  # item -> (url, gold (text, type), site from the URL, site from the folder)
    "a.html": ("https://www.harbour.example/a", ("Gold of a.", "article"), "www.harbour.example", "unknown"),
    "news/b.html": ("https://news.example/b", ("", "listing"), "news.example", "news"),
    "blog/c.html": ("https://blog.example/c", ("Gold of c.", "article"), "blog.example", "blog"),
}


@pytest.mark.parametrize("site_from", ["url", "folder"])
@pytest.mark.parametrize("container", ["folder", "zip"])
def test_folder_layout_stores_pages_urls_sites_gold_and_page_types(run_import, session, tmp_path, site_from, container):
    root = write_files(tmp_path / "pages", FOLDER)
    prefix = ""
    if container == "zip":
        root = make_zip(tmp_path / "pages.zip", FOLDER)
        prefix = "zip:pages.zip/"
    output = run_import(root, "--site-from", site_from)
    assert "batch 1: 3 imported, 0 duplicate, 0 rejected" in output
    pages = stored(session)
    assert set(pages) == {prefix + item for item in EXPECTED}
    for item, (url, gold, url_site, folder_site) in EXPECTED.items():
        p = pages[prefix + item]
        assert (p.url, gold_of(p)) == (url, gold)
        assert p.site.host == (url_site if site_from == "url" else folder_site)
        assert p.raw == FOLDER[item]
        assert p.gold.revisions[0].author == "import"
    batch = last_batch(session)
    assert (batch.format, batch.source) == ("auto", str(root))
    assert {p.batch_id for p in pages.values()} == {batch.id}


@pytest.mark.parametrize("name", ["crawl.warc", "crawl.warc.gz"])
def test_warc_responses_with_their_charset_and_bad_records_rejected(run_import, session, tmp_path, name):
    body = "<html><body><p>Caf\u00e9 cr\u00e8me \u2013 \u201cna\u00efve\u201d</p></body></html>"
    path = write_warc(tmp_path / name, [
        {"url": "https://a.example/caf", "body": body.encode("windows-1252"),
         "content_type": "text/html; charset=windows-1252"},
        {"url": "https://a.example/empty", "body": b""},
        {"url": "https://a.example/cut", "body": page("cut"), "warc": {"WARC-Truncated": "length"}},
        {"url": "https://a.example/short", "body": page("short"), "headers": [("Content-Length", "900")]},
        {"url": "https://b.example/ok", "body": page("ok")},
    ])
    output = run_import(path)
    assert "batch 1: 2 imported, 0 duplicate, 3 rejected" in output
    reasons = {
        "warc record 2 https://a.example/empty": "empty payload",
        "warc record 3 https://a.example/cut": "truncated record (WARC-Truncated: length)",
        "warc record 4 https://a.example/short":
            f"truncated record (payload of {len(page('short'))} bytes, HTTP Content-Length 900)",
    }
    for item, reason in reasons.items():
        assert f"  rejected: {item}: {reason}\n" in output
    pages = stored(session)
    assert set(pages) == {"warc record 1 https://a.example/caf", "warc record 5 https://b.example/ok"}
    cafe = pages["warc record 1 https://a.example/caf"]
    assert (cafe.encoding, cafe.encoding_source, cafe.html) == ("windows-1252", "transport", body)
    assert (cafe.url, cafe.site.host) == ("https://a.example/caf", "a.example")
    assert session.scalar(select(func.count(Page.id)).where(Page.raw == b"")) == 0


def test_jsonl_lines_with_url_gold_and_page_type(run_import, session, tmp_path):
    lines = [
        {"url": "https://j.example/1", "html": "<p>J\u00f8rgen's page</p>", "gold": "J\u00f8rgen's page",
         "type": "article"},
        {"url": "https://j.example/wall", "html": "<p>Accept cookies</p>", "type": "wall"},
        {"url": None, "html": "<p>no url</p>"},
        {"url": "https://j.example/bad", "html": "<p>bad type</p>", "type": "recipe"},
    ]
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    output = run_import(path)
    assert "batch 1: 3 imported, 0 duplicate, 1 rejected" in output
    assert "  rejected: line 4: unknown page type 'recipe'" in output
    pages = stored(session)
    assert {item: (p.url, p.site.host, gold_of(p), p.encoding) for item, p in pages.items()} == {
        "line 1": ("https://j.example/1", "j.example", ("J\u00f8rgen's page", "article"), "utf-8"),
        "line 2": ("https://j.example/wall", "j.example", ("", "wall"), "utf-8"),
        "line 3": (None, "unknown", None, "utf-8"),
    }
    assert pages["line 1"].raw == "<p>J\u00f8rgen's page</p>".encode()


def test_readability_layout_with_gold_from_expected_html(run_import, session, tmp_path):
    root = write_files(tmp_path / "mozilla", {
        "story/source.html": page("story"),
        "story/expected.html": "<div><h1>Title</h1><p>First  paragraph.</p><p>Second.</p></div>",
        "story/expected-metadata.json": json.dumps({"url": "https://r.example/story", "readerable": True}),
        "menu/source.html": page("menu"),
        "menu/expected-metadata.json": json.dumps({"readerable": False}),
    })
    output = run_import(root)
    assert "batch 1: 2 imported, 0 duplicate, 0 rejected" in output
    pages = stored(session)
    assert (pages["story"].url, gold_of(pages["story"])) == (
        "https://r.example/story", ("Title\nFirst paragraph.\nSecond.", "article"))
    assert (pages["menu"].url, gold_of(pages["menu"])) == (None, ("", "other"))
    assert last_batch(session).format == "auto"


def test_readability_layout_inside_a_zip(run_import, session, tmp_path):
    archive = tmp_path / "mozilla.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("story/source.html", page("story"))
        zf.writestr("story/expected.html", "<div><p>Only the story.</p></div>")
        zf.writestr("story/expected-metadata.json", json.dumps({"readerable": True}))
    output = run_import(archive)
    assert "batch 1: 1 imported, 0 duplicate, 0 rejected" in output  # expected.html is gold, not a page
    pages = stored(session)
    assert gold_of(pages["zip:mozilla.zip/story"]) == ("Only the story.", "article")


def test_a_forced_format_reads_what_auto_would_not(run_import, session, tmp_path):
    (tmp_path / "dump.txt").write_text(json.dumps({"url": "https://f.example/", "html": "<p>f</p>"}))
    assert "1 rejected" in run_import(tmp_path / "dump.txt", exit_code=1)
    assert "1 imported" in run_import(tmp_path / "dump.txt", "--format", "jsonl")
    assert last_batch(session).format == "jsonl"


def test_empty_gold_is_imported_as_a_draft_and_the_report_says_so(run_import, session, tmp_path):
    write_files(tmp_path, {"a.html": page("a"), "a.gold.txt": " \n", "b.html": page("b"), "b.gold.txt": "Gold."})
    output = run_import(tmp_path)
    assert "batch 1: 2 imported, 0 duplicate, 0 rejected" in output
    assert "  imported: a.html: its gold text is empty: imported as a draft to review" in output
    assert "b.html" not in output
    pages = stored(session)
    assert (pages["a.html"].gold.status, pages["b.html"].gold.status) == ("draft", "done")


def test_a_gold_over_the_size_a_save_takes_is_rejected_naming_the_page_and_why(run_import, session, tmp_path):
    """The import checks a gold by the rules of a save (usecases/fields.py): a gold of 5 MB, which a save refuses
    (GOLD_MAX_BYTES, 4 MB), is not stored either, though its file is under IMPORT_MAX_BYTES."""
    large = "A harbour line of the gold.\n" * (5 * 2**20 // 28)
    write_files(tmp_path, {"big.html": page("big"), "big.gold.txt": large, "ok.html": page("ok"),
                           "ok.gold.txt": "Gold."})
    output = run_import(tmp_path)
    assert "batch 1: 1 imported, 0 duplicate, 1 rejected" in output
    assert re.search(r"  rejected: big\.html: its gold: The Markdown is 5,[0-9,]+ bytes; at most 4,194,304 "
                     r"\(GOLD_MAX_BYTES\) are stored", output), output
    assert set(stored(session)) == {"ok.html"}


@pytest.mark.settings(GOLD_MAX_BYTES=1000)
def test_an_annotation_over_gold_max_bytes_rejects_its_page_too(run_import, session, tmp_path):
    line = {"url": "https://j.example/1", "html": "<p>Quay</p>", "gold": "Quay",
            "annotations": [{"author": "Ann", "type": "article", "status": "done", "text": "Quay " * 300}]}
    (tmp_path / "pages.jsonl").write_text(json.dumps(line))
    output = run_import(tmp_path / "pages.jsonl", exit_code=1)
    assert "rejected: line 1: annotation 1's gold: The Markdown is 1,500 bytes; at most 1,000 (GOLD_MAX_BYTES)" in (
        output)
    assert stored(session) == {}


def test_an_import_that_reads_only_rejects_or_nothing_exits_non_zero(run_import, tmp_path):
    (tmp_path / "empty").mkdir()
    output = run_import(tmp_path / "empty", exit_code=1)
    assert "0 imported, 0 duplicate, 1 rejected" in output
    assert ("rejected: empty: nothing to read: looked for ground-truth.json (scrapinghub); evaldata.json "
            "(trafilatura-eval); ground-truth/ID.json and html/ID.html.gz (wcxb); "
            "datasets/combined/ground-truth/NAME.jsonl (wceb); SLUG/source.html folders (readability); "
            "JSON lines with groundtruth_content (webmainbench.jsonl in a folder) (webmainbench); "
            "JSON lines (pages.jsonl in a folder) (jsonl); NAME.html or NAME.htm pages (folder)") in output
    assert output.count("nothing to read") == 1  # said once, in the report; the error does not repeat it
    (tmp_path / "none.jsonl").write_text("\n\n")
    assert "nothing to read: looked for JSON lines (pages.jsonl in a folder) (jsonl)" in run_import(
        tmp_path / "none.jsonl", exit_code=1)
    (tmp_path / "bad.html").write_bytes(b"")
    output = run_import(tmp_path / "bad.html", exit_code=1)
    assert "0 imported, 0 duplicate, 1 rejected" in output
    assert "Error: no page was imported: the 1 item(s) read were all rejected, for the reasons above" in output


def test_a_second_import_of_the_same_pages_is_not_a_failure(run_import, tmp_path):
    root = write_files(tmp_path / "pages", {"a.html": page("a")})
    run_import(root)
    assert "0 imported, 1 duplicate" in run_import(root)


@pytest.mark.parametrize("where", ["given", "inside a folder"])
def test_a_fifo_is_rejected_and_never_read(run_import, tmp_path, where):
    root = write_files(tmp_path / "pages", {"a.html": page("a")})
    fifo = root / "pipe.html"
    os.mkfifo(fifo)  # opening it for reading would block the import forever
    output = run_import(fifo if where == "given" else root, exit_code=1 if where == "given" else 0)
    assert "rejected: pipe.html: a FIFO, not a regular file: not read" in output


# --- report, duplicates ----------------------------------------------------------------------------


def test_report_is_printed_and_stored_and_a_second_import_adds_nothing(run_import, session, tmp_path):
    root = write_files(tmp_path / "pages", {"a.html": page("a"), "b.html": page("b"), "empty.html": b""})
    first = run_import(root)
    assert first.splitlines()[-2:] == ["batch 1: 2 imported, 0 duplicate, 1 rejected",
                                       "  rejected: empty.html: empty payload"]
    ids = {item: p.id for item, p in stored(session).items()}
    batch = last_batch(session)
    assert (batch.imported, batch.duplicates, batch.rejected) == (2, 0, 1)
    assert batch.report == [
        {"item": "a.html", "status": "imported", "page_id": ids["a.html"]},
        {"item": "b.html", "status": "imported", "page_id": ids["b.html"]},
        {"item": "empty.html", "status": "rejected", "reason": "empty payload"},
    ]

    second = run_import(root)
    assert "batch 2: 0 imported, 2 duplicate, 1 rejected" in second
    assert f"  duplicate: a.html: same bytes as page {ids['a.html']}" in second
    assert stored(session).keys() == ids.keys()
    again = last_batch(session)
    assert (again.id, again.imported, again.duplicates) == (2, 0, 2)
    assert again.report[1] == {"item": "b.html", "status": "duplicate",
                               "reason": f"same bytes as page {ids['b.html']}", "page_id": ids["b.html"]}


def test_the_same_bytes_under_another_name_or_layout_are_a_duplicate(run_import, session, tmp_path):
    write_files(tmp_path, {"one/a.html": page("a"), "two/copy.html": page("a")})
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"url": "https://x.example/", "html": PAGE.format("a")}))
    output = run_import(tmp_path / "one", tmp_path / "two", path)
    assert "batch 1: 1 imported, 2 duplicate, 0 rejected" in output
    assert session.scalar(select(func.count(Page.id))) == 1


@pytest.mark.parametrize("processes", [("--processes", "1"), ("--processes", "2"), ("--jobs", "2")])
def test_worker_processes_keep_the_report_in_order_and_catch_duplicates_in_flight(run_import, session, tmp_path,
                                                                                   processes):
    titled = '<html lang="fr"><head><title>Page {0}</title></head><body><p>Page {0}.</p></body></html>'
    pages = {f"p{i:02}.html": titled.format(i).encode() for i in range(12)} | {"p99.html": titled.format(3).encode()}
    write_files(tmp_path, pages)
    output = run_import(tmp_path, *processes)
    assert ("--jobs is now called --processes" in output) == (processes[0] == "--jobs")
    assert "batch 1: 12 imported, 1 duplicate, 0 rejected" in output
    assert re.search(r"duplicate: p99.html: same bytes as (page 4|p03.html in this batch)\n", output)
    batch = session.scalars(select(ImportBatch)).one()
    assert [row["item"] for row in batch.report] == sorted(pages)
    stored = {p.source_name: p for p in session.scalars(select(Page))}
    assert stored["p05.html"].facts["lang"] == "fr" and stored["p05.html"].facts["title"] == "Page 5"
    assert stored["p05.html"].html.startswith('<html lang="fr">') and stored["p05.html"].encoding


# --- rejections ----------------------------------------------------------------------------------


@pytest.mark.settings(IMPORT_MAX_BYTES=200)
def test_every_rejection_gives_its_reason_and_the_rest_imports(app, run_import, session, tmp_path):
    root = write_files(tmp_path / "pages", {
        "png.html": b"\x89PNG\r\n\x1a\n<html></html>",
        "pdf.html": b"%PDF-1.7\n<html></html>",
        "zip.html": b"PK\x03\x04<html></html>",
        "nul.html": b"<html>\x00</html>",
        "empty.html": b"",
        "blank.html": b"  \n\t",
        "big.html": b"<p>" + b"x" * 300 + b"</p>",
        "ok.html": page("ok"),
    })
    output = run_import(root)
    assert "batch 1: 1 imported, 0 duplicate, 7 rejected" in output
    reasons = {
        "png.html": "binary file (PNG signature)",
        "pdf.html": "binary file (PDF signature)",
        "zip.html": "binary file (ZIP signature)",
        "nul.html": "binary file (NUL byte at offset 6)",
        "empty.html": "empty payload",
        "blank.html": "empty payload",
        "big.html": "over the size cap (307 > 200 bytes)",
    }
    assert {r["item"]: r.get("reason") for r in last_batch(session).report} == {**reasons, "ok.html": None}
    for item, reason in reasons.items():
        assert f"  rejected: {item}: {reason}\n" in output
    assert list(stored(session)) == ["ok.html"]


def test_unsafe_zip_members_are_rejected_and_the_rest_imports(run_import, session, tmp_path):
    path = make_zip(tmp_path / "evil.zip", {
        "../up.html": page("up"), "/etc/abs.html": page("abs"), "link.html": "/etc/passwd",
        "fine.html": page("fine"),
    }, symlinks=("link.html",))
    output = run_import(path)
    assert "batch 1: 1 imported, 0 duplicate, 3 rejected" in output
    assert {r["item"]: r.get("reason") for r in last_batch(session).report} == {
        "zip:evil.zip/../up.html": "zip member with '..' in its path",
        "zip:evil.zip//etc/abs.html": "zip member with an absolute path",
        "zip:evil.zip/link.html": "zip member that is a symbolic link",
        "zip:evil.zip/fine.html": None,
    }
    assert list(stored(session)) == ["zip:evil.zip/fine.html"]


def capped(setting: str, value: int, members: dict, reason: dict):
    """A case of the caps, its app created with the cap set."""
    return pytest.param(setting, value, members, reason, marks=pytest.mark.settings(**{setting: value}))


@pytest.mark.parametrize(
    ("setting", "value", "members", "reason"),
    [
        capped("IMPORT_MAX_BYTES", 1000, {"bomb.html": b"<p>" + b"0" * 5_000_000, "ok.html": page("ok")},
               {"zip:bomb.zip/bomb.html": "over the size cap (more than 1,000 bytes)"}),
        capped("IMPORT_ZIP_MAX_MEMBERS", 2, {f"p{i}.html": page(str(i)) for i in range(4)},
               {f"zip:bomb.zip/p{i}.html": "not read: the zip holds more than 2 members (zip bomb guard)"
                for i in (2, 3)}),
        capped("IMPORT_ZIP_MAX_TOTAL", 100, {f"p{i}.html": b"<p>" + bytes([65 + i]) * 57 for i in range(3)},
               {f"zip:bomb.zip/p{i}.html": "not read: over 100 uncompressed bytes read from this zip "
                "(zip bomb guard)" for i in (1, 2)}),
    ],
)
def test_zip_bomb_caps_come_from_the_settings(app, run_import, session, tmp_path, setting, value, members, reason):
    output = run_import(make_zip(tmp_path / "bomb.zip", members))
    rejected = {r["item"]: r["reason"] for r in last_batch(session).report if r["status"] == "rejected"}
    assert rejected == reason
    assert f"{len(members) - len(reason)} imported, 0 duplicate, {len(reason)} rejected" in output
    assert len(stored(session)) == len(members) - len(reason)


def test_a_warc_cut_short_rejects_its_last_record(run_import, session, tmp_path):
    whole = write_warc(tmp_path / "whole.warc", [{"url": "https://a.example/", "body": page("a")},
                                                 {"url": "https://b.example/", "body": page("b")}])
    cut = tmp_path / "cut.warc"
    cut.write_bytes(whole.read_bytes()[:-60])
    output = run_import(cut)
    assert "batch 1: 1 imported, 0 duplicate, 1 rejected" in output
    assert "  rejected: warc record 2 https://b.example/: truncated record" in output
    assert [p.url for p in stored(session).values()] == ["https://a.example/"]


# --- decoding and page facts ----------------------------------------------------------------------


WINDOWS_1252 = (
    "<html><head><title>Menu</title></head><body><p>The caf\u00e9\u2019s cr\u00e8me br\u00fbl\u00e9e "
    "\u2014 \u201cna\u00efve\u201d r\u00e9sum\u00e9 of the day \u2014 costs 5\u20ac.</p></body></html>"
)


@pytest.mark.parametrize(
    ("data", "encoding", "source"),
    [
        (WINDOWS_1252.encode("windows-1252"), "windows-1252", "detected"),
        (WINDOWS_1252.replace("<head>", '<head><meta charset="utf-8">').encode(), "utf-8", "meta"),
        (b"\xef\xbb\xbf" + WINDOWS_1252.encode(), "utf-8", "bom"),
    ],
)
def test_the_encoding_used_is_recorded(run_import, session, tmp_path, data, encoding, source):
    write_files(tmp_path / "pages", {"menu.html": data})
    run_import(tmp_path / "pages")
    [stored_page] = stored(session).values()
    assert (stored_page.encoding, stored_page.encoding_source) == (encoding, source)
    assert "caf\u00e9\u2019s cr\u00e8me br\u00fbl\u00e9e \u2014 \u201cna\u00efve\u201d" in stored_page.html
    assert stored_page.raw == data


ARTICLE = """<!DOCTYPE html>
<html lang="en-GB"><head>
<title>Night ferry returns | Harbour Gazette</title>
<meta property="og:type" content="article">
<meta property="og:site_name" content="Harbour Gazette">
<meta property="og:title" content="Night ferry returns">
<meta name="author" content="Mara Quell">
<meta property="article:published_time" content="2024-03-05T08:00:00Z">
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "NewsArticle", "headline": "Night ferry returns", "author": {"@type": "Person", "name": "Mara Quell"}},
  {"@type": ["WebPage", "NewsArticle"]}]}
</script>
</head><body><article><h1>Night ferry returns</h1><p>The night ferry sails again from Monday.</p></article>
</body></html>"""


def test_page_facts_are_stored(run_import, session, tmp_path):
    write_files(tmp_path / "pages", {"ferry.html": ARTICLE, "ferry.url": "https://gazette.example/ferry",
                                     "bare.html": "<p>Just a fragment.</p>"})
    run_import(tmp_path / "pages")
    pages = stored(session)
    classified = pages["ferry.html"].facts.pop("rs_trafilatura_type")
    assert pages["ferry.html"].facts == {
        "og_type": "article",
        "jsonld_types": ["NewsArticle", "Person", "WebPage"],
        "lang": "en-GB",
        "title": "Night ferry returns",
        "author": "Mara Quell",
        "date": "2024-03-05",
        "sitename": "Harbour Gazette",
    }
    bare = pages["bare.html"].facts
    assert (bare["og_type"], bare["jsonld_types"], bare["lang"], bare["author"]) == (None, [], None, None)
    if importlib.util.find_spec("rs_trafilatura") is None:
        assert classified is None and bare["rs_trafilatura_type"] is None
    else:  # rs-trafilatura's classifier: the news article is an article, said with its confidence
        assert classified["type"] == "article" and 0 < classified["confidence"] <= 1


def test_sites_are_shared_between_pages_and_batches(run_import, session, tmp_path):
    write_files(tmp_path / "one", {"a.html": page("a"), "a.url": "https://Gazette.example/a"})
    write_files(tmp_path / "two", {"b.html": page("b"), "b.url": "https://gazette.example/b"})
    run_import(tmp_path / "one")
    run_import(tmp_path / "two")
    assert list(session.scalars(select(Site.host))) == ["gazette.example"]
    assert session.scalar(select(func.count(Gold.id))) == 0


def test_a_nul_character_in_an_imported_gold_rejects_that_page_naming_the_field(run_import, session, tmp_path):
    lines = [{"url": "https://a.example/1", "html": "<p>one</p>", "gold": "one\u0000two"},
             {"url": "https://a.example/2", "html": "<p>two</p>", "gold": "two", "snippets": {"with": ["t\u0000"]}},
             {"url": "https://a.example/3", "html": "<p>three</p>", "gold": "three"}]
    (tmp_path / "pages.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    output = run_import(tmp_path / "pages.jsonl", "--format", "jsonl")
    assert "batch 1: 1 imported, 0 duplicate, 2 rejected" in output
    assert "rejected: line 1: its gold holds a NUL character, which no text may hold" in output
    assert "rejected: line 2: its snippets holds a NUL character" in output
    assert [p.url for p in stored(session).values()] == ["https://a.example/3"]


# An empty gold file: a draft to review ----------


def test_an_empty_gold_file_is_imported_as_a_draft_to_review(runner, session, tmp_path):
    import json

    from sqlalchemy import select

    from webapp.models import ImportBatch, Page

    folder = tmp_path / "pages"
    folder.mkdir()
    for name, gold in (("empty", ""), ("blank", " \n\t\n"), ("full", "The story.")):
        (folder / f"{name}.html").write_text(f"<html><body><p>Page {name}.</p></body></html>")
        (folder / f"{name}.gold.txt").write_text(gold)
    lines = tmp_path / "pages.jsonl"
    lines.write_text("\n".join(json.dumps(line) for line in (
        {"url": "https://j.example/e", "html": "<p>e</p>", "gold": "", "type": "article"},
        {"url": "https://j.example/w", "html": "<p>w</p>", "gold": "", "type": "wall"},
        {"url": "https://j.example/n", "html": "<p>n</p>", "type": "forum"},
    )))
    session.rollback()
    for source in (folder, lines):
        result = runner.invoke(args=["import", str(source)])
        assert result.exit_code == 0, result.output
    session.expire_all()
    statuses = {p.source_name: (p.gold.status, p.gold.page_type) for p in session.scalars(select(Page))}
    assert statuses == {
        "empty.html": ("draft", "article"), "blank.html": ("draft", "article"), "full.html": ("done", "article"),
        "line 1": ("draft", "article"), "line 2": ("done", "wall"), "line 3": ("done", "forum"),
    }
    notes = {row["item"]: row.get("reason") for batch in session.scalars(select(ImportBatch))
             for row in batch.report}
    assert "empty" in notes["empty.html"] and "draft" in notes["empty.html"]
    assert notes["full.html"] is None and notes["line 2"] is None
