"""The readers of the benchmark layouts: scrapinghub (gzip or plain HTML) and trafilatura-eval (snippets);
and CSV cells that a spreadsheet would run are neutralised."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from webapp.corpus.document import Limits, RawDocument
from webapp.corpus.readers import detect_format, iter_documents
from webapp.exports.csv_scores import neutralise

pytestmark = pytest.mark.security

PAGE = b"<html><body><p>Harbour news</p></body></html>"


def outcomes(path: Path) -> list[tuple[str, object]]:
    return [(d.item, d if isinstance(d, RawDocument) else d.reason) for d in iter_documents([path], limits=Limits())]


def test_scrapinghub_reads_gzip_and_plain_html_with_the_ground_truth_as_gold(tmp_path):
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "a1.html.gz").write_bytes(gzip.compress(PAGE))
    (tmp_path / "html" / "b2.html").write_bytes(PAGE + b"<!-- b -->")
    (tmp_path / "html" / "zz.html.gz").write_bytes(gzip.compress(PAGE + b"<!-- z -->"))
    truth = {"a1": {"articleBody": "Harbour news", "url": "https://a.example/1"},
             "b2": {"articleBody": "Other", "url": None},
             "c3": {"articleBody": "No page", "url": None}}
    (tmp_path / "ground-truth.json").write_text(json.dumps(truth))
    assert detect_format(tmp_path) == "scrapinghub"
    got = outcomes(tmp_path)
    first, second = got[0][1], got[1][1]
    assert (first.data, first.gold, first.url, first.page_type) == (PAGE, "Harbour news", "https://a.example/1", None)
    assert (second.data, second.gold, second.url) == (PAGE + b"<!-- b -->", "Other", None)
    assert got[2:] == [("c3", "no html/c3.html.gz nor html/c3.html"),
                       ("html/zz.html.gz", "not in ground-truth.json")]


def test_scrapinghub_rejects_a_broken_ground_truth(tmp_path):
    (tmp_path / "ground-truth.json").write_text("[1, 2]")
    assert outcomes(tmp_path) == [("ground-truth.json", "ground-truth.json is not a JSON object")]


def test_trafilatura_eval_reads_snippets_beside_or_in_cache(tmp_path):
    (tmp_path / "cache").mkdir()
    (tmp_path / "one.html").write_bytes(PAGE)
    (tmp_path / "cache" / "two.html").write_bytes(PAGE + b"<!-- 2 -->")
    evaldata = {
        "https://a.example/one": {"file": "one.html", "with": ["Harbour"], "without": ["Menu"], "author": "x"},
        "two.html": {"file": "two.html", "with": ["news"], "url": None, "type": "listing", "status": "draft"},
        "https://a.example/up": {"file": "../secret.html", "with": []},
        "https://a.example/bad": {"file": "one.html", "with": "Harbour"},
    }
    (tmp_path / "evaldata.json").write_text(json.dumps(evaldata))
    assert detect_format(tmp_path) == "trafilatura-eval"
    got = outcomes(tmp_path)
    one, two = got[0][1], got[1][1]
    assert (one.url, one.snippets, one.gold, one.page_type) == (
        "https://a.example/one", {"with": ["Harbour"], "without": ["Menu"]}, None, None)
    assert (two.data, two.url, two.snippets, two.page_type, two.status) == (
        PAGE + b"<!-- 2 -->", None, {"with": ["news"], "without": []}, "listing", "draft")
    assert got[2:] == [("https://a.example/up", "file name '../secret.html' leaves the folder"),
                       ("https://a.example/bad", "snippets 'with' must be a list of strings")]


def test_jsonl_reader_rejects_an_unknown_status_and_malformed_snippets(tmp_path):
    lines = [{"html": "<p>a</p>", "status": "finished"}, {"html": "<p>b</p>", "snippets": {"with": "x"}},
             {"html": "<p>c</p>", "snippets": {"must": []}}]
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    assert [reason for _, reason in outcomes(path)] == [
        "unknown gold status 'finished' (known: done, draft, skipped)",
        "snippets 'with' must be a list of strings",
        'snippets must be an object with "with" and "without" lists of strings',
    ]


@pytest.mark.parametrize(
    "cell, expected",
    [
        ("=HYPERLINK(\"http://evil.example\")", "'=HYPERLINK(\"http://evil.example\")"),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "' =1"),
        ("\r=1", "' =1"),
        (" =1+1", "' =1+1"),  # after leading white space
        ("\n\u3000@SUM(A1)", "' \u3000@SUM(A1)"),  # a line break and an ideographic space
        ("＝HYPERLINK(\"http://evil.example\")", "'＝HYPERLINK(\"http://evil.example\")"),  # full-width signs
        ("＋1", "'＋1"),
        ("－1", "'－1"),
        ("＠SUM(A1)", "'＠SUM(A1)"),
        ("\u202e=1", "'=1"),  # a bidirectional override is dropped, then the formula is seen
        ("ann\x1b[31m\x07", "ann[31m"),  # an escape sequence and a bell lose their control characters
        ("line one\nline two", "line one line two"),
        ("https://a.example/=x", "https://a.example/=x"),
        ("", ""),
        (0.5, 0.5),
        (None, None),
    ],
)
def test_csv_cells_that_start_like_a_formula_are_neutralised(cell, expected):
    assert neutralise(cell) == expected
