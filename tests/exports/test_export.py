"""`goldtext export`: the demo corpus in every format, re-imported into an emptied database, comes back
the same; the scrapinghub export scores as `goldtext score` does; the card and checksums hold."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from sqlalchemy import delete, select
from workbench import METRICS, add_gold, empty_database

from webapp.exports.export_service import WRITERS
from webapp.extractors.registry import METADATA_ONLY, build_registry, runnable
from webapp.models import Extraction, Gold, Page
from webapp.scoring import summarize

SNIPPETS = {"with": ["Skarvik", "royal hunting lodge"], "without": ["Most read", "cookies"]}
SHINGLES = METRICS["shingles"]
STRUCTURED = ("# A heading\n\n1. one\n2. two\n   - nested\n\n| cell | other |\n| --- | --- |\n| 1 | 2 |\n\n"
              "```python\nx = 1\n```")



@pytest.fixture
def database_url(demo_copy) -> str:
    """Each test's database: its own copy of the demo corpus (as `goldtext demo --no-serve` leaves it)."""
    return demo_copy


@pytest.fixture
def demo(cli, session) -> dict[str, tuple]:
    """The demo corpus with snippet gold on two pages, a draft, CRLF and awkward characters in a gold;
    returns its snapshot."""
    pages = session.scalars(select(Page).join(Gold).order_by(Page.id)).all()
    first, second, third = pages[0], pages[1], pages[2]
    add_gold(session, first, text=first.gold.text, page_type="article", status="done", author="Bea", snippets=SNIPPETS)
    add_gold(session, second, text="", page_type="article", status="done", author="Cy",
                 snippets={"with": ["a\u2028b"], "without": []})
    add_gold(session, third, text="Line one\r\nמשפט \u202eעברי\U0001F600\n\u0007tab\there", page_type="listing",
                 status="draft", author="Bea")
    session.commit()
    return snapshot(session)


@pytest.fixture
def structured(session, demo) -> dict[str, tuple]:
    """The demo as above, with a gold saved as Markdown and a page with two golds (a text and a Markdown
    given apart); returns its snapshot."""
    pages = session.scalars(select(Page).join(Gold).order_by(Page.id)).all()
    add_gold(session, pages[3], markdown=STRUCTURED, page_type="documentation", status="done", author="Di")
    add_gold(session, pages[4], text="Given text\nits second line", markdown="## Given Markdown\n\n> quoted",
             page_type="article", status="done", author="import")
    session.commit()
    return snapshot(session)


def snapshot(session) -> dict[str, tuple]:
    """sha256 -> (url, gold text, type, snippets, status, Markdown, text source) of every page (None fields
    without gold)."""
    rows = session.execute(
        select(Page.sha256, Page.url, Gold.text, Gold.page_type, Gold.snippets, Gold.status, Gold.markdown,
               Gold.text_source).outerjoin(Gold)
    ).all()
    session.rollback()
    return {row[0]: tuple(row[1:]) for row in rows}


def jsonl_records(path: Path) -> list[dict]:
    """The objects of a JSON Lines file, split at \\n only (as JSON Lines readers do)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


# format, extra options, the snapshot fields it carries (url, text, type, snippets, status, Markdown, text
# source: the layouts of plain text carry the text, those of Markdown both), which pages
CASES = [
    ("jsonl", [], (0, 1, 2, 3, 4, 5, 6), "all"),
    ("jsonl", ["--with-extractions"], (0, 1, 2, 3, 4, 5, 6), "all"),
    ("folder", [], (0, 1, 2, 3, 4, 5, 6), "all"),
    ("folder", ["--with-extractions"], (0, 1, 2, 3, 4, 5, 6), "all"),
    ("scrapinghub", ["--predictions"], (0, 1, 2, 3, 4), "gold"),
    ("trafilatura-eval", [], (0, 2, 3, 4), "snippets"),
    ("wcxb", ["--predictions"], (0, 1, 2, 3, 4, 5, 6), "gold"),
    ("webmainbench", [], (0, 1, 2, 3, 4, 5, 6), "gold"),
]


def test_the_structured_demo_holds_each_kind_of_gold(structured):
    assert {row[6] for row in structured.values() if row[6]} == {"flat", "derived", "given"}


def test_every_export_format_is_read_back_or_is_scores():
    # csv holds scores; wceb re-encodes pages as UTF-8 (its own test below)
    assert {case[0] for case in CASES} | {"csv", "wceb"} == set(WRITERS)


@pytest.mark.parametrize("fmt, options, fields, which", CASES)
def test_export_then_import_by_its_folder_into_an_empty_database_reproduces_the_pages(
    cli, session, structured, tmp_path, fmt, options, fields, which
):
    demo = structured
    out = tmp_path / "export"
    cli("export", "--format", fmt, "--out", str(out), *options)
    empty_database(session)
    assert f": {len(demo) if which != 'snippets' else 2} imported, 0 duplicate, 0 rejected" in cli("import", str(out))
    expected = {
        sha: tuple(row[i] for i in fields)
        for sha, row in demo.items()
        if which == "all" or (which == "gold" and row[1] is not None) or (which == "snippets" and row[3])
    }
    got = {sha: tuple(row[i] for i in fields) for sha, row in snapshot(session).items()}
    assert got == expected
    assert len(expected) == {"all": 15, "gold": 15, "snippets": 2}[which]


def test_importing_a_scores_export_is_an_error_naming_what_it_looked_for(runner, session, demo, tmp_path):
    out = tmp_path / "scores"
    assert runner.invoke(args=["export", "--format", "csv", "--out", str(out)]).exit_code == 0
    session.rollback()
    result = runner.invoke(args=["import", str(out)])
    assert result.exit_code == 1
    assert "rejected: scores: nothing to read: looked for ground-truth.json (scrapinghub);" in result.output
    assert "NAME.html or NAME.htm pages (folder)" in result.output


def test_wceb_export_holds_utf8_pages_and_reimports_the_same_gold_and_text(cli, session, demo, tmp_path):
    before = {p.url: (p.sha256, p.encoding, p.html) for p in session.scalars(select(Page))}
    out = tmp_path / "export"
    cli("export", "--format", "wceb", "--out", str(out), "--predictions")
    empty_database(session)
    cli("import", str(out))
    after = {p.url: (p.sha256, p.encoding, p.html) for p in session.scalars(select(Page))}
    assert {row[0] for row in snapshot(session).values()} == set(before)
    by_url = {row[0]: row[:5] for row in snapshot(session).values()}
    assert by_url == {row[0]: row[:5] for row in demo.values()}  # url, gold text, type, snippets, status
    for url, (sha, encoding, html) in before.items():
        assert after[url][2] == html, url  # the same text: WCEB's HTML is UTF-8, and is read as such
        assert (after[url][0] == sha) == (encoding == "utf-8"), url  # a page in another encoding is re-encoded
    assert {encoding for _, encoding, _ in before.values()} != {"utf-8"}


def test_status_site_and_page_type_narrow_the_export(cli, demo, tmp_path):
    out = tmp_path / "export"
    cli("export", "--format", "jsonl", "--out", str(out), "--status", "done", "--type", "article",
        "--site", "garden-ledger.example", "--without-html")
    records = jsonl_records(out / "pages.jsonl")
    expected = sorted((row[0] or "") for row in demo.values()
                      if row[0] and "garden-ledger.example" in row[0] and row[2] == "article" and row[4] == "done")
    assert sorted(r["url"] for r in records) == expected and len(records) == 4
    assert all("html" not in r for r in records)


def test_jsonl_lines_share_one_schema_for_datasets(cli, demo, tmp_path):
    out = tmp_path / "export"
    cli("export", "--format", "jsonl", "--out", str(out), "--with-extractions")
    records = jsonl_records(out / "pages.jsonl")
    assert {frozenset(r) for r in records} == {frozenset(records[0])}
    for key in records[0]:
        assert len({type(r[key]).__name__ for r in records if r[key] is not None}) <= 1, key
    first = records[0]
    assert first["annotators"] == ["import", "Bea"] and first["revisions"] == 2
    assert first["snippets"] == SNIPPETS
    assert {e["extractor"] for e in first["extractions"]} >= {"trafilatura", "readability"}


def test_jsonl_export_loads_with_datasets(cli, demo, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    import datasets  # a test dependency: the export must load with the library people train from
    out = tmp_path / "export"
    cli("export", "--format", "jsonl", "--out", str(out), "--with-extractions")
    loaded = datasets.load_dataset("json", data_files=str(out / "pages.jsonl"), split="train",
                                   cache_dir=str(tmp_path / "cache"))
    records = jsonl_records(out / "pages.jsonl")
    assert loaded.num_rows == len(records) == 15
    assert loaded[0]["gold"] == records[0]["gold"] and loaded[0]["sha256"] == records[0]["sha256"]


def test_scrapinghub_export_scores_as_goldtext_score_does(cli, demo, tmp_path):
    out = tmp_path / "bench"
    cli("export", "--format", "scrapinghub", "--out", str(out), "--predictions", "--status", "done",
        "--type", "article")
    truth = json.loads((out / "ground-truth.json").read_text())
    for key, entry in truth.items():
        raw = gzip.decompress((out / "html" / f"{key}.html.gz").read_bytes())
        assert hashlib.sha256(raw).hexdigest() == key and set(entry) == {"articleBody", "url"}
    scored = {k for k, v in truth.items() if v["articleBody"]}
    board = json.loads(cli("score", "--metric", "shingles", "--format", "json", "--bootstrap", "0",
                           "--type", "article"))
    outputs = sorted((out / "output").glob("*.json"))
    assert sorted(p.stem for p in outputs) == sorted(board["extractors"])
    for path in outputs:
        predicted = json.loads(path.read_text())
        assert predicted.keys() == truth.keys()
        rows = [SHINGLES.counts(predicted[k]["articleBody"], truth[k]["articleBody"]) for k in sorted(scored)]
        summary = summarize(METRICS["shingles"], rows, bootstrap=0)
        figures = board["extractors"][path.stem]
        assert (summary.precision, summary.recall, summary.f1) == pytest.approx(
            (figures["precision"], figures["recall"], figures["f1"]), abs=1e-9), path.stem
    assert board["pages"] == len(scored) == 8  # 10 done articles, less one emptied and one made a draft listing


def test_every_export_has_a_card_and_checksums_that_verify(cli, demo, tmp_path):
    out = tmp_path / "export"
    cli("export", "--format", "folder", "--out", str(out), "--status", "done")
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "goldtext export --format folder --out" in card and "--status done" in card
    assert "| transit-times.example | 4 |" in card
    assert "| article | 9 |" in card and "| wall | 1 |" in card  # the draft listing is left out
    assert "| Bea | 1 |" in card and "| import | 14 |" in card
    assert "- pages: 14" in card and "Goldtext version: " in card
    lines = (out / "SHA256SUMS").read_text().splitlines()
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.name != "SHA256SUMS")
    assert sorted(line.split("  ", 1)[1] for line in lines) == files
    for line in lines:
        digest, name = line.split("  ", 1)
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest


def test_folder_export_writes_raw_bytes_exactly(cli, session, demo, tmp_path):
    out = tmp_path / "export"
    cli("export", "--format", "folder", "--out", str(out))
    for page in session.scalars(select(Page)):
        assert (out / f"{page.id}.html").read_bytes() == page.raw
        meta = json.loads((out / f"{page.id}.json").read_text())
        assert (meta["sha256"], meta["encoding"]) == (page.sha256, page.encoding)


def test_csv_export_has_a_row_per_page_extraction_and_metric(cli, session, demo, tmp_path):
    import csv

    out = tmp_path / "scores"
    cli("export", "--format", "csv", "--out", str(out))
    with (out / "scores.csv").open(newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    metrics = {row["metric"] for row in rows}
    assert metrics == {"tokens", "shingles", "snippets", "wcxb", "title", "authors", "published"}
    snippet_rows = [r for r in rows if r["metric"] == "snippets"]
    texts = [e for e in runnable(build_registry()) if e.name not in METADATA_ONLY]  # those that give text
    assert len(snippet_rows) == 2 * len(texts)  # two pages with snippet gold x the extractors
    pages = {metric: {r["page_id"] for r in rows if r["metric"] == metric} for metric in metrics}
    empty = session.scalars(select(Gold.page_id).where(Gold.text == "", Gold.status == "done",
                                                       Gold.page_type.in_(["article", "listing"])))
    assert len(pages["tokens"]) == 9 and pages["wcxb"] - pages["tokens"] == {str(i) for i in empty}
    whole = next(r for r in snippet_rows if r["extractor"] == "whole-page")
    assert float(whole["recall"]) == 1.0


@pytest.mark.parametrize(
    "options, message",
    [
        (["--format", "folder", "--without-html"], "--without-html applies to the jsonl format only"),
        (["--format", "csv", "--with-extractions"], "--with-extractions applies to the jsonl and folder formats"),
        (["--format", "jsonl", "--predictions"],
         "--predictions applies to the scrapinghub, wcxb, wceb, webmainbench formats"),
    ],
)
def test_options_that_do_not_fit_the_format_are_usage_errors(runner, tmp_path, options, message):
    result = runner.invoke(args=["export", "--out", str(tmp_path / "x"), *options])
    assert result.exit_code == 2 and message in result.output


def test_a_non_empty_out_folder_is_refused(runner, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    result = runner.invoke(args=["export", "--format", "jsonl", "--out", str(mine)])
    assert result.exit_code == 1 and "is not an empty folder" in result.output
    assert [p.name for p in mine.iterdir()] == ["keep.txt"]


def test_predictions_are_written_only_for_extractors_that_have_run(cli, session, demo, tmp_path):
    session.execute(delete(Extraction).where(Extraction.extractor == "justext"))
    session.commit()
    out = tmp_path / "bench"
    cli("export", "--format", "scrapinghub", "--out", str(out), "--predictions")
    written = sorted(p.stem for p in (out / "output").glob("*.json"))
    assert "justext" not in written and {"trafilatura", "readability", "whole-page"} <= set(written)
    for path in (out / "output").glob("*.json"):
        assert any(entry["articleBody"] for entry in json.loads(path.read_text()).values()), path.stem


def test_webmainbench_predictions_are_each_extractions_markdown_as_its_result_files_hold_them(cli, session, demo,
                                                                                             tmp_path):
    stored = {(row.sha256, row.extractor): (row.markdown, row.error) for row in session.execute(
        select(Page.sha256, Extraction.extractor, Extraction.markdown, Extraction.error).join(Extraction))}
    session.rollback()
    out = tmp_path / "export"
    cli("export", "--format", "webmainbench", "--out", str(out), "--predictions")
    lines = jsonl_records(out / "webmainbench.jsonl")
    written = {(line["track_id"], key.removesuffix("_content")): line[key]
               for line in lines for key in line
               if key.endswith("_content") and key not in ("groundtruth_content", "convert_main_content")}
    assert written and len(lines) == 15
    for (page, extractor), markdown in written.items():
        expected, error = stored[(page, extractor)]
        assert markdown == ("" if error else expected)
