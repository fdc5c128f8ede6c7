"""Corpus readers: what each layout yields, what it rejects and why, the caps on hostile input."""

from __future__ import annotations

import gzip
import io
import json
import re
from collections import Counter
from functools import partial
from pathlib import Path

import pytest
from corpora import READABILITY, READABILITY_PAGES
from fixture_files import make_zip, write_files
from fixture_files import warc_bytes as shared_warc_bytes
from warcio.archiveiterator import ArchiveIterator

from webapp.corpus.decoding import decode
from webapp.corpus.document import Limits, RawDocument, Rejected
from webapp.corpus.readers import FORMATS, detect_format, iter_documents
from webapp.corpus.screening import problem
from webapp.corpus.visible_text import BLOCK_TAGS, CELL_TAGS, LINE_BREAK_TAGS, is_invisible, parse_html

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "corpus"
PAGE = b"<html><body><p>A page.</p></body></html>"


def read(*paths: Path, fmt: str = "auto", limits: Limits = Limits()) -> list:
    return list(iter_documents(paths, fmt, limits))


def by_item(results: list) -> dict[str, RawDocument | Rejected]:
    return {result.item: result for result in results}


# --- common checks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty payload"),
        (b" \r\n\t ", "empty payload"),
        (b"\x89PNG\r\n\x1a\n<html>", "binary file (PNG signature)"),
        (b"%PDF-1.7\n<html>", "binary file (PDF signature)"),
        (b"PK\x03\x04<html>", "binary file (ZIP signature)"),
        (b"GIF89a<html>", "binary file (GIF signature)"),
        (b"\xff\xd8\xff\xe0<html>", "binary file (JPEG signature)"),
        (b"\x1f\x8b\x08\x00<html>", "binary file (gzip signature)"),
        (b"<html>\x00</html>", "binary file (NUL byte at offset 6)"),
        (b"x" * 31, "over the size cap (31 > 30 bytes)"),
        (PAGE[:30], None),
        ("\ufeff<p>é</p>".encode("utf-16-le"), None),  # NUL bytes, but UTF-16 with its BOM
        ("\ufeff<p>é</p>".encode("utf-16-be"), None),
    ],
)
def test_common_checks(data, reason):
    assert problem(data, Limits(max_bytes=30)) == reason


def test_utf16_named_by_its_transport_charset_is_not_binary():
    assert problem("<p>é</p>".encode("utf-16-le"), Limits(), charset="UTF-16LE") is None


def test_a_nul_byte_after_the_first_8_kib_is_not_taken_for_binary():
    assert problem(b"<p>" + b"x" * 8192 + b"\x00</p>", Limits()) is None


def test_every_reader_applies_the_common_checks(tmp_path):
    write_files(tmp_path, {"photo.html": b"\x89PNG\r\n\x1a\nrest", "blank.html": b"",
                           "ok.html": PAGE})
    lines = [json.dumps({"url": None, "html": html}) for html in ("", "<p>ok</p>")]
    (tmp_path / "pages.jsonl").write_text("\n".join(lines))
    folder = by_item(read(tmp_path, fmt="folder"))
    assert folder["photo.html"] == Rejected("photo.html", str(tmp_path),
                                            "binary file (PNG signature)")
    assert folder["blank.html"].reason == "empty payload"
    assert isinstance(folder["ok.html"], RawDocument)
    jsonl = read(tmp_path / "pages.jsonl")
    assert [type(r).__name__ for r in jsonl] == ["Rejected", "RawDocument"]
    assert jsonl[0].reason == "empty payload"


# --- the shared corpus and the Readability layout ----------------------------------------------


@pytest.mark.corpus(READABILITY)
def test_the_readability_test_pages_read_whole():
    results = read(READABILITY_PAGES)
    assert [r for r in results if isinstance(r, Rejected)] == []
    assert len(results) == 130
    assert sum(r.page_type == "other" for r in results) == 8
    not_articles = [r for r in results if r.page_type == "other"]
    assert all(r.gold is None for r in not_articles)
    articles = [r for r in results if r.page_type != "other"]
    assert all(r.gold for r in articles)
    assert {r.folder for r in results} == {None}


def spaced_words(html: str) -> Counter[str]:
    """The words of gold HTML read apart at every block, line break and cell boundary (a reading
    independent of block_lines: a space before and after each such element, then the text)."""
    root = parse_html(html)
    for element in list(root.iter()):
        if not isinstance(element.tag, str) or is_invisible(element):  # comments too: their tails stay
            element.drop_tree()
    for element in root.iter():
        if element.tag in BLOCK_TAGS | LINE_BREAK_TAGS | CELL_TAGS:
            element.text = " " + (element.text or "")
            element.tail = " " + (element.tail or "")
    return Counter(re.findall(r"\w+", root.text_content()))


# pages whose gold glued words at block boundaries before the gold was read with visible_text.py
GLUED = {"replace-brs": "ipsumdolor", "medium-1": "mediaA", "v8-blog": "wasmhello", "pixnet": "141993林錦武"}


@pytest.mark.corpus(READABILITY)
def test_readability_gold_keeps_words_apart_at_block_boundaries():
    documents = {r.item: r for r in read(READABILITY_PAGES) if isinstance(r, RawDocument) and r.gold}
    assert len(documents) == 122
    for slug, document in documents.items():
        expected = decode((READABILITY_PAGES / slug / "expected.html").read_bytes()).text
        assert Counter(re.findall(r"\w+", document.gold)) == spaced_words(expected), slug
    for slug, glued in GLUED.items():
        assert glued not in documents[slug].gold, slug


def test_readability_gold_from_a_small_fixture_keeps_words_apart(tmp_path):
    write_files(tmp_path, {
        "p/source.html": "<p>page</p>",
        "p/expected.html": '<div id="readability-page-1" class="page"><p>Lorem ipsum<br>dolor <b>sit</b></p>'
                           "<div>amet</div>consectetur<ul><li>one</li><li>two</li></ul>"
                           "<table><tr><td>cell</td><td>next</td></tr></table><h2>Head</h2>tail</div>",
    })
    (document,) = read(tmp_path)
    assert document.gold == "Lorem ipsum\ndolor sit\namet\nconsectetur\none\ntwo\ncell next\nHead\ntail"


def test_readability_layout_fixture():
    source = str(FIXTURES / "readability")
    results = by_item(read(FIXTURES / "readability"))
    story = results["story"]
    assert story == RawDocument(
        item="story",
        data=(FIXTURES / "readability" / "story" / "source.html").read_bytes(),
        source=source,
        url="https://harbour.example/ferry",
        gold="Ferry timetable changes\nFrom Monday the first ferry leaves at 6:40.\n"
        "Weekdays: 6:40\nSundays: 8:10\nTickets are sold on board.",
        page_type="article",
        metadata={"title": "Ferry timetable changes"},  # expected-metadata.json gives its title only
    )
    menu = results["menu"]
    assert (menu.page_type, menu.gold, menu.url) == ("other", None, None)


def test_readability_page_with_broken_metadata_is_rejected(tmp_path):
    write_files(tmp_path, {"a/source.html": PAGE, "a/expected-metadata.json": "{oops",
                           "b/source.html": PAGE})
    results = by_item(read(tmp_path))
    assert results["a"].reason.startswith("expected-metadata.json is not valid JSON")
    assert (results["b"].page_type, results["b"].gold) == (None, None)


# --- folder layout -----------------------------------------------------------------------------


def test_folder_layout(tmp_path):
    write_files(tmp_path, {
        "a.html": PAGE,
        "a.gold.txt": b"\xef\xbb\xbfGold of a\r\nsecond line",
        "a.url": "\n  https://a.example/1  \n",
        "site-b/index.csv": "name,url,type\n"
                            "b,https://b.example/b,listing\n"
                            "c.htm,https://b.example/c,\n",
        "site-b/b.htm": PAGE + b"b",
        "site-b/c.HTM": PAGE + b"c",
        "site-b/deeper/d.html": PAGE + b"d",
        "site-b/deeper/index.json": json.dumps({"d": {"url": "https://d.example/",
                                                      "type": "wall"}}),
        "site-b/image.png": b"\x89PNG",
        ".hidden/e.html": PAGE,
        ".f.html": PAGE,
    })
    source = str(tmp_path)
    assert read(tmp_path) == [
        RawDocument("a.html", PAGE, source, url="https://a.example/1",
                    gold="Gold of a\nsecond line"),
        RawDocument("site-b/b.htm", PAGE + b"b", source, url="https://b.example/b", page_type="listing",
                    folder="site-b"),
        RawDocument("site-b/c.HTM", PAGE + b"c", source, url="https://b.example/c",
                    folder="site-b"),
        RawDocument("site-b/deeper/d.html", PAGE + b"d", source, url="https://d.example/",
                    page_type="wall", folder="site-b/deeper"),
    ]


def test_index_csv_without_header_and_json_with_plain_urls(tmp_path):
    write_files(tmp_path, {
        "x/index.csv": "a,https://a.example/\n",
        "x/a.html": PAGE,
        "y/index.json": json.dumps({"b": "https://b.example/"}),
        "y/b.html": PAGE + b"b",
    })
    assert [r.url for r in read(tmp_path)] == ["https://a.example/", "https://b.example/"]


def test_a_windows_internet_shortcut_gives_its_url(tmp_path):
    write_files(tmp_path, {"a.html": PAGE,
                           "a.url": "[InternetShortcut]\r\nIDList=\r\nURL=https://a.example/x\r\n"})
    assert [r.url for r in read(tmp_path)] == ["https://a.example/x"]


def test_companion_files_match_whatever_their_case(tmp_path):
    write_files(tmp_path, {"Page.HTML": PAGE, "page.Gold.txt": "gold",
                           "INDEX.CSV": "PAGE,https://p.example/\n"})
    assert read(tmp_path) == [
        RawDocument("Page.HTML", PAGE, str(tmp_path), url="https://p.example/", gold="gold")
    ]


def test_a_url_file_wins_over_the_index(tmp_path):
    write_files(tmp_path, {"index.csv": "a,https://index.example/\n", "a.html": PAGE,
                           "a.url": "https://file.example/"})
    assert [r.url for r in read(tmp_path)] == ["https://file.example/"]


@pytest.mark.parametrize(
    ("index_name", "content", "reason"),
    [
        ("index.json", "{not json", "index.json is not valid JSON (Expecting property name"),
        ("index.json", '["a"]', "index.json must be an object"),
        ("index.json", '{"a": {"url": 3}}', "index.json entry 'a': expected a URL"),
        ("index.csv", "name,url\na,https://a.example/,article,extra\n",
         "index.csv row 2: expected name,url[,type], got 4 cells"),
        ("index.csv", b"a,https://a.example/caf\xe9\n", "index.csv is not UTF-8 text (byte 23)"),
    ],
)
def test_an_unreadable_index_rejects_itself_and_the_pages_of_its_folder(tmp_path, index_name,
                                                                      content, reason):
    write_files(tmp_path, {f"sub/{index_name}": content, "sub/a.html": PAGE, "b.html": PAGE})
    results = by_item(read(tmp_path))
    assert results[f"sub/{index_name}"].reason.startswith(reason)
    assert results["sub/a.html"].reason == f"not read: the {index_name} beside it is unreadable"
    assert isinstance(results["b.html"], RawDocument)


def test_a_page_type_that_is_no_type_name_in_the_index_rejects_that_page_only(tmp_path):
    write_files(tmp_path, {"index.csv": "a,,Recipe!\nb,,listing\n", "a.html": PAGE, "b.html": PAGE})
    results = by_item(read(tmp_path))
    assert results["a.html"].reason.startswith("unknown page type 'Recipe!' in the index (a type is ")
    assert results["b.html"].page_type == "listing"


def test_files_matching_no_page_are_reported(tmp_path):
    write_files(tmp_path, {"index.csv": "gone,https://gone.example/\n", "a.html": PAGE,
                           "b.gold.txt": "gold", "c.url": "https://c.example/"})
    assert {r.item: r.reason for r in read(tmp_path) if isinstance(r, Rejected)} == {
        "gone": "listed in the index, but no gone.html",
        "b.gold.txt": "gold text with no b.html beside it",
        "c.url": "URL file with no c.html beside it",
    }


def test_a_gold_file_that_is_not_utf8_rejects_its_page(tmp_path):
    write_files(tmp_path, {"a.html": PAGE, "a.gold.txt": "café".encode("windows-1252")})
    assert read(tmp_path)[0].reason == "a.gold.txt is not UTF-8 text (byte 3)"


def test_a_single_html_file_with_its_gold_and_url(tmp_path):
    write_files(tmp_path, {"p.html": PAGE, "p.gold.txt": "gold", "p.url": "https://p.example/",
                           "q.html": PAGE + b"q", "index.csv": "p,https://index.example/\n"})
    assert read(tmp_path / "p.html") == [
        RawDocument("p.html", PAGE, str(tmp_path / "p.html"), url="https://p.example/", gold="gold")
    ]


def test_a_file_over_the_cap_is_rejected_with_its_size(tmp_path):
    write_files(tmp_path, {"big.html": b"<p>" + b"x" * 97, "small.html": PAGE[:30]})
    results = by_item(read(tmp_path, limits=Limits(max_bytes=50)))
    assert results["big.html"].reason == "over the size cap (100 > 50 bytes)"
    assert isinstance(results["small.html"], RawDocument)


# --- zip ---------------------------------------------------------------------------------------


def test_zip_holds_the_folder_layout(tmp_path):
    path = make_zip(tmp_path / "pages.zip", {
        "a.html": PAGE, "a.gold.txt": "gold a",
        "site/index.json": json.dumps({"b": "https://b.example/"}), "site/b.html": PAGE + b"b",
        "__MACOSX/._a.html": b"\x00\x05\x16\x07", "site/": b"",
    })
    assert read(path) == [
        RawDocument("zip:pages.zip/a.html", PAGE, str(path), gold="gold a"),
        RawDocument("zip:pages.zip/site/b.html", PAGE + b"b", str(path), url="https://b.example/",
                    folder="site"),
    ]


def test_zip_members_that_could_escape_are_rejected(tmp_path):
    path = make_zip(tmp_path / "evil.zip", {
        "../up.html": PAGE, "a/../../up.html": PAGE, "/etc/abs.html": PAGE, "C:\\win.html": PAGE,
        "link.html": "/etc/passwd", "fine.html": PAGE,
    }, symlinks=("link.html",))
    assert {r.item: getattr(r, "reason", "ok") for r in read(path)} == {
        "zip:evil.zip/../up.html": "zip member with '..' in its path",
        "zip:evil.zip/a/../../up.html": "zip member with '..' in its path",
        "zip:evil.zip//etc/abs.html": "zip member with an absolute path",
        "zip:evil.zip/C:/win.html": "zip member with an absolute path",
        "zip:evil.zip/link.html": "zip member that is a symbolic link",
        "zip:evil.zip/fine.html": "ok",
    }


def test_zip_member_over_the_cap_is_stopped_while_reading(tmp_path):
    bomb = b"<p>" + b"0" * 10_000_000  # deflates to about 10 KB
    path = make_zip(tmp_path / "bomb.zip", {"bomb.html": bomb, "ok.html": PAGE})
    results = by_item(read(path, limits=Limits(max_bytes=1000)))
    assert results["zip:bomb.zip/bomb.html"].reason == "over the size cap (more than 1,000 bytes)"
    assert isinstance(results["zip:bomb.zip/ok.html"], RawDocument)


def test_zip_members_past_the_member_cap_are_rejected(tmp_path):
    path = make_zip(tmp_path / "many.zip", {f"p{i}.html": PAGE + bytes([65 + i]) for i in range(4)})
    results = read(path, limits=Limits(zip_max_members=2))
    assert [type(r) for r in results] == [Rejected, Rejected, RawDocument, RawDocument]
    assert {r.item for r in results[:2]} == {"zip:many.zip/p2.html", "zip:many.zip/p3.html"}
    assert results[0].reason == "not read: the zip holds more than 2 members (zip bomb guard)"


def test_zip_members_past_the_total_cap_are_rejected(tmp_path):
    members = {f"p{i}.html": b"<p>" + bytes([65 + i]) * 57 for i in range(3)}  # 60 bytes each
    path = make_zip(tmp_path / "total.zip", members)
    results = read(path, limits=Limits(zip_max_total=100))
    assert isinstance(results[0], RawDocument)
    assert [r.reason for r in results[1:]] == [
        "not read: over 100 uncompressed bytes read from this zip (zip bomb guard)"
    ] * 2


def test_a_file_named_zip_that_is_not_one(tmp_path):
    (tmp_path / "fake.zip").write_bytes(PAGE)
    [result] = read(tmp_path / "fake.zip")
    assert result.item == "fake.zip" and result.reason.startswith("not a readable zip archive")


def test_a_corrupt_zip_member_is_rejected_and_the_rest_read(tmp_path):
    path = make_zip(tmp_path / "crc.zip", {"a.html": PAGE, "b.html": PAGE + b"b"})
    raw = bytearray(path.read_bytes())
    start = raw.index(b"a.html") + len(b"a.html")  # a.html's deflated bytes follow its local header
    raw[start + 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    results = by_item(read(path))
    assert results["zip:crc.zip/a.html"].reason.startswith("unreadable zip member")
    assert results["zip:crc.zip/b.html"].data == PAGE + b"b"


# --- WARC --------------------------------------------------------------------------------------


warc_bytes = partial(shared_warc_bytes, content_type="text/html; charset=windows-1252", body=PAGE)


@pytest.mark.parametrize(("name", "gzipped"), [("crawl.warc", False), ("crawl.warc.gz", True)])
def test_warc_html_responses(tmp_path, name, gzipped):
    path = tmp_path / name
    path.write_bytes(warc_bytes([
        {"url": "https://a.example/", "body": "<p>café</p>".encode("windows-1252")},
        {"url": "https://a.example/logo.png", "content_type": "image/png", "body": b"\x89PNG"},
        {"url": "https://a.example/x", "type": "request", "status": "GET /x HTTP/1.1"},
        {"url": "https://a.example/x.xhtml", "content_type": "application/xhtml+xml"},
        {"url": "https://a.example/missing", "status": "404 Not Found"},
    ], gzipped))
    source = str(path)
    assert read(path) == [
        RawDocument("warc record 1 https://a.example/", "<p>café</p>".encode("windows-1252"),
                    source, url="https://a.example/", charset="windows-1252"),
        RawDocument("warc record 4 https://a.example/x.xhtml", PAGE, source,
                    url="https://a.example/x.xhtml"),
        Rejected("warc record 5 https://a.example/missing", source, "HTTP 404"),
    ]


def test_warc_payloads_are_dechunked_and_decompressed(tmp_path):
    body = gzip.compress(PAGE)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    path = tmp_path / "enc.warc"
    path.write_bytes(warc_bytes([{
        "url": "https://a.example/", "body": chunked,
        "headers": [("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")],
    }]))
    assert [r.data for r in read(path)] == [PAGE]


def test_arc_gz_responses(tmp_path):
    http = b"HTTP/1.0 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>arc page</p>"
    version = b"1 0 Example\nURL IP-address Archive-date Content-type Archive-length\n"
    filedesc = b"filedesc://t.arc 0.0.0.0 20200101000000 text/plain %d\n%s\n" % (
        len(version), version)
    record = b"http://a.example/ 1.2.3.4 20200101000000 text/html %d\n%s\n" % (len(http), http)
    path = tmp_path / "t.arc.gz"
    path.write_bytes(gzip.compress(filedesc) + gzip.compress(record))
    assert read(path) == [
        RawDocument("warc record 2 http://a.example/", b"<p>arc page</p>", str(path),
                    url="http://a.example/", charset="utf-8")
    ]


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ({"warc": {"WARC-Truncated": "length"}}, "truncated record (WARC-Truncated: length)"),
        ({"headers": [("Content-Length", "500")]},
         f"truncated record (payload of {len(PAGE)} bytes, HTTP Content-Length 500)"),
        ({"body": b""}, "empty payload"),
        ({"body": b"<p>" + b"x" * 200}, "over the size cap (more than 100 bytes)"),
    ],
)
def test_warc_records_that_cannot_be_pages(tmp_path, spec, reason):
    path = tmp_path / "bad.warc"
    path.write_bytes(warc_bytes([{"url": "https://a.example/", **spec},
                                 {"url": "https://b.example/", "body": PAGE[:90]}]))
    first, second = read(path, limits=Limits(max_bytes=100))
    assert first == Rejected("warc record 1 https://a.example/", str(path), reason)
    assert second.url == "https://b.example/"


def test_a_warc_cut_short_rejects_the_cut_record(tmp_path):
    whole = warc_bytes([{"url": "https://a.example/"}, {"url": "https://b.example/"}])
    path = tmp_path / "cut.warc"
    path.write_bytes(whole[: whole.rindex(b"</p>")])
    first, second = read(path)
    assert first.url == "https://a.example/"
    assert second.item == "warc record 2 https://b.example/"
    # the cut took "</p></body></html>", 18 bytes
    assert second.reason.startswith("truncated record (payload ends 18 bytes before")


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_warc_cut_anywhere_never_loses_a_page_silently(tmp_path, gzipped):
    whole = warc_bytes([
        {"url": "https://a.example/"},
        {"url": "https://a.example/logo.png", "content_type": "image/png", "body": b"\x89PNG" * 30},
        {"url": "https://b.example/"},
    ], gzipped)
    records = ArchiveIterator(io.BytesIO(whole))
    html_starts = [records.get_record_offset() for record in records
                   if record.http_headers.get_header("Content-Type").startswith("text/html")]
    path = tmp_path / ("cut.warc.gz" if gzipped else "cut.warc")
    for keep in range(1, len(whole), 7):
        path.write_bytes(whole[:keep])
        results = read(path)
        begun = sum(start < keep for start in html_starts)
        assert len(results) >= begun, (keep, results)  # each page begun is a document or rejected
        assert all(r.data == PAGE for r in results if isinstance(r, RawDocument))


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("notes.warc", b"just some notes\n", "notes.warc: unreadable from here on: it is not a WARC or ARC file here"),
        ("notes.warc.gz", gzip.compress(b"notes\n", mtime=0),
         "notes.warc.gz: unreadable from here on: it is not a WARC or ARC file here"),
        ("notes.warc", b"five words make an ARC header\n", "record without a valid Content-Length"),
        ("no-uri.warc", b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\n"
                        b"Content-Length: 19\r\n\r\nHTTP/1.1 200 OK\r\n\r\n\r\n\r\n",
         "no-uri.warc: unreadable from here on: a record's headers are malformed: a header it needs"),
    ],
)
def test_a_file_that_is_no_warc_is_rejected(tmp_path, name, content, reason):
    (tmp_path / name).write_bytes(content)
    results = read(tmp_path / name)
    assert results and all(r.reason.startswith(reason) for r in results)


# --- JSON Lines ----------------------------------------------------------------------------------


def test_jsonl(tmp_path):
    lines = [
        {"url": "https://a.example/", "html": "<p>café</p>", "gold": "café", "type": "article"},
        "",
        {"url": None, "html": "<p>b</p>"},
        "{broken",
        {"url": "https://c.example/"},
        {"url": 7, "html": "<p>c</p>"},
        {"html": "<p>d</p>", "type": "Recipe"},
        ["html"],
        {"html": "<p>\ud800</p>"},
    ]
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines))
    source = str(path)
    assert read(path) == [
        RawDocument("line 1", "<p>café</p>".encode(), source, url="https://a.example/",
                    charset="utf-8", gold="café", page_type="article"),
        RawDocument("line 3", b"<p>b</p>", source, charset="utf-8"),
        Rejected("line 4", source, "invalid JSON (Expecting property name enclosed in double "
                                   "quotes at column 2)"),
        Rejected("line 5", source, "no html field"),
        Rejected("line 6", source, "url is not a string"),
        Rejected("line 7", source, "unknown page type 'Recipe' (a type is lower-case letters, digits and "
                                   "hyphens)"),
        Rejected("line 8", source, "not a JSON object"),
        Rejected("line 9", source,
                 "html holds a lone surrogate escape (\\ud800-\\udfff), not text"),
    ]


def test_a_jsonl_line_over_the_cap_is_skipped_without_losing_the_next(tmp_path):
    path = tmp_path / "big.ndjson"
    path.write_text(json.dumps({"html": "x" * 1000}) + "\n" + json.dumps({"html": "<p>ok</p>"}))
    first, second = read(path, limits=Limits(max_bytes=100))
    assert first == Rejected("line 1", str(path), "over the size cap (more than 600 bytes)")
    assert second.data == b"<p>ok</p>"


# --- dispatch ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("a.zip", "zip"), ("a.ZIP", "zip"), ("a.warc", "warc"), ("a.warc.gz", "warc"),
        ("a.arc.gz", "warc"), ("a.jsonl", "jsonl"), ("a.ndjson", "jsonl"), ("a.html", "folder"),
        ("a.htm", "folder"), ("a.csv", None), ("a.gz", None),
    ],
)
def test_detect_format_by_name(tmp_path, name, fmt):
    (tmp_path / name).write_bytes(b"x")
    assert detect_format(tmp_path / name) == fmt


def test_detect_format_of_folders(tmp_path):
    write_files(tmp_path, {"plain/a.html": PAGE, "mozilla/slug/source.html": PAGE})
    assert (detect_format(tmp_path / "plain"), detect_format(tmp_path / "mozilla")) == (
        "folder", "readability")


def test_unknown_inputs_are_rejected_and_the_rest_read(tmp_path):
    write_files(tmp_path, {"notes.txt": "hi", "a.html": PAGE})
    results = read(tmp_path / "notes.txt", tmp_path / "nothing-here", tmp_path / "a.html")
    assert results == [
        Rejected("notes.txt", str(tmp_path / "notes.txt"),
                 "unknown format for 'notes.txt'; pass --format"),
        Rejected("nothing-here", str(tmp_path / "nothing-here"), "no such file or folder"),
        RawDocument("a.html", PAGE, str(tmp_path / "a.html")),
    ]


def test_a_forced_format_overrides_detection(tmp_path):
    write_files(tmp_path, {"pages.txt": json.dumps({"html": "<p>a</p>"}), "slug/source.html": PAGE})
    assert read(tmp_path / "pages.txt", fmt="jsonl")[0].data == b"<p>a</p>"
    assert [r.item for r in read(tmp_path, fmt="folder")] == ["slug/source.html"]


def test_an_unknown_format_name_is_an_error():
    assert "readability" in FORMATS and "auto" in FORMATS
    with pytest.raises(ValueError, match="format must be one of"):
        read(Path("."), fmt="pdf")
