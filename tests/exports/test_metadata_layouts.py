"""The metadata gold (title, authors, published) through the layouts: read from WCXB (title, author,
publish_date), Readability's test pages (expected-metadata.json: title, byline, publishedTime) and jsonl; written
to WCXB's layout (the benchmark's own strings kept), jsonl and the CSV of scores. Round trips on the shared
corpora keep every field."""

from __future__ import annotations

import csv
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from corpora import READABILITY, READABILITY_PAGES, WCXB, WCXB_SAMPLE
from sqlalchemy import select
from workbench import empty_database

from webapp.annotation.article_metadata import checked
from webapp.corpus.document import Limits, RawDocument
from webapp.corpus.metadata_fields import joined_names, layout_metadata, split_names
from webapp.corpus.readers import READERS
from webapp.exports.folder_writer import FolderWriter
from webapp.exports.jsonl_writer import FILE, JsonlWriter
from webapp.exports.selection import ExportedPage, GoldRecord
from webapp.exports.wcxb_writer import WcxbWriter
from webapp.exports.writer import WriterOptions
from webapp.models import Gold, GoldRevision, Page

KEYS = {"title": "title", "authors": "author", "published": "publish_date"}
WHEN = datetime(2026, 1, 2, tzinfo=UTC)


@pytest.mark.parametrize("given, names", [
    ("Jared Newman and Sam Singleton", ["Jared Newman", "Sam Singleton"]),
    ("Rui Ma, Heba Ledwon, Manoel Cortes Mendez & Suparn Patra",
     ["Rui Ma", "Heba Ledwon", "Manoel Cortes Mendez", "Suparn Patra"]),
    ("Ann  Lee; Bo Chen", ["Ann Lee", "Bo Chen"]),
    ("Andersen Anderson", ["Andersen Anderson"]),  # "and" inside a word is no separator
    ("Sergio Martínez-Beltrán | The Texas Newsroom", ["Sergio Martínez-Beltrán | The Texas Newsroom"]),
    (" ", []),
])
def test_a_byline_is_split_into_names_at_commas_semicolons_ampersands_and_and(given, names):
    assert split_names(given) == names


def test_the_benchmarks_own_author_string_is_written_back_while_the_names_are_its_own():
    given = "Rui Ma, Heba Ledwon, Manoel Cortes Mendez & Suparn Patra"
    assert joined_names(split_names(given), given) == given
    assert joined_names(["Rui Ma", "Heba Ledwon"], given) == "Rui Ma, Heba Ledwon"  # the annotator changed them
    assert joined_names(None, "") == "" and joined_names(None, None) is None


def test_a_layouts_fields_read_as_values_none_on_the_page_or_not_annotated():
    said = layout_metadata({"title": " A  title ", "author": "", "publish_date": "1 March"}, KEYS)
    assert said == {"title": "A title", "authors": None}  # a date not in ISO 8601 is left out, not guessed
    assert layout_metadata({"author": None, "publish_date": "2024-03-01"}, KEYS) == {
        "authors": None, "published": "2024-03-01"}


def stored_metadata(session) -> dict[str, dict | None]:
    found = session.execute(select(Page.source_name, Gold.article_metadata).join(Gold, Gold.page_id == Page.id))
    return dict(found.all())


def exported(number: int, doc: RawDocument, layout: dict | None = None) -> ExportedPage:
    gold = GoldRecord(doc.gold or "", doc.page_type or "article", "done", None, ("import",), 1, WHEN,
                      metadata=checked(doc.metadata) or None)
    return ExportedPage(number, doc.url, "site.example", f"{number:064d}", "utf-8", WHEN, doc.data, gold, (),
                        layout=layout or {})


def written_and_read(writer, reader: str, pages: list[ExportedPage], out: Path, path: str) -> list[RawDocument]:
    out.mkdir(parents=True, exist_ok=True)
    target = writer(out, WriterOptions())
    for page in pages:
        target.add(page)
    target.close()
    return [doc for doc in READERS[reader](str(out / path), Limits()) if isinstance(doc, RawDocument)]


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_every_wcxb_pages_metadata_is_read_and_written_back_as_the_benchmark_gave_it(tmp_path):
    docs = [doc for doc in READERS["wcxb"](str(WCXB_SAMPLE), Limits()) if isinstance(doc, RawDocument)]
    truths = {path.stem: json.loads(path.read_text())["ground_truth"]
              for path in (WCXB_SAMPLE / "dev" / "ground-truth").glob("*.json")}
    assert len(docs) == len(truths) == 280
    said = {doc.item: checked(doc.metadata) for doc in docs}
    four = next(key for key, truth in truths.items() if (truth.get("author") or "").startswith("Rui Ma, "))
    assert said[four]["authors"] == ["Rui Ma", "Heba Ledwon", "Manoel Cortes Mendez", "Suparn Patra"]
    assert sum(bool(m.get("published")) for m in said.values()) == 80
    assert sum(bool(m.get("authors")) for m in said.values()) == 76
    assert all(m.get("title") for m in said.values())

    pages = [exported(number, doc, doc.layout) for number, doc in enumerate(docs, start=1)]
    written_and_read(WcxbWriter, "wcxb", pages, tmp_path / "wcxb", "")
    for key, truth in truths.items():
        written = json.loads((tmp_path / "wcxb" / "dev" / "ground-truth" / f"{key}.json").read_text())["ground_truth"]
        assert [written[k] for k in KEYS.values()] == [truth[k] for k in KEYS.values()], key
    back = written_and_read(JsonlWriter, "jsonl", pages, tmp_path / "jsonl", FILE)
    assert [checked(doc.metadata) for doc in back] == [checked(doc.metadata) for doc in docs]


def test_a_gold_not_from_wcxb_writes_its_own_metadata_to_wcxbs_layout(tmp_path):
    doc = RawDocument("a", b"<p>x</p>", "", url="https://a.example/", gold="x",
                      metadata={"title": "T", "authors": ["Ann Lee", "Bo"], "published": None})
    written_and_read(WcxbWriter, "wcxb", [exported(1, doc)], tmp_path, "")
    (truth,) = [json.loads(path.read_text())["ground_truth"] for path in tmp_path.glob("dev/ground-truth/*.json")]
    assert [truth[k] for k in KEYS.values()] == ["T", "Ann Lee, Bo", None]


@pytest.mark.corpus(READABILITY)
def test_every_readability_pages_expected_metadata_is_read_and_kept_through_jsonl_and_the_folder_layout(tmp_path):
    docs = {doc.item: doc for doc in READERS["readability"](str(READABILITY_PAGES), Limits())
            if isinstance(doc, RawDocument)}
    said = {item: checked(doc.metadata) for item, doc in docs.items()}
    expected = json.loads((READABILITY_PAGES / "gitlab-blog" / "expected-metadata.json").read_text())
    assert said["gitlab-blog"] == {"title": expected["title"], "authors": [expected["byline"]],
                                   "published": expected["publishedTime"]}
    assert said["aktualne"]["published"] == "2021-11-01T10:52:50+0100"  # kept as Readability gives it
    assert said["schema-org-context-object"]["authors"] == ["Stella Kim", "Jennifer Jett"]
    assert said["cnn"]["published"] is None  # null: Readability found none
    with_gold = [doc for doc in docs.values() if doc.gold is not None]
    assert all(said[doc.item] for doc in with_gold) and not any(said[doc.item] for doc in docs.values()
                                                               if doc.gold is None)
    pages = [exported(number, doc) for number, doc in enumerate(with_gold, start=1)]
    for writer, layout, path in ((JsonlWriter, "jsonl", FILE), (FolderWriter, "folder", "")):
        back = written_and_read(writer, layout, pages, tmp_path / layout, path)
        assert {doc.data: checked(doc.metadata) for doc in back} == {doc.data: said[doc.item] for doc in with_gold}


@pytest.mark.corpus(WCXB)
def test_an_import_stores_the_metadata_and_an_export_and_import_keep_it(cli, session, tmp_path):
    root = tmp_path / "wcxb" / "dev"
    for folder in ("ground-truth", "html"):
        (root / folder).mkdir(parents=True)
    picked = [path.stem for path in sorted((WCXB_SAMPLE / "dev" / "ground-truth").glob("*.json"))
              if json.loads(path.read_text())["ground_truth"].get("author")][:6]
    for key in picked:  # a few pages with an author, copied to the test's own folder
        shutil.copy(WCXB_SAMPLE / "dev" / "ground-truth" / f"{key}.json", root / "ground-truth")
        shutil.copy(WCXB_SAMPLE / "dev" / "html" / f"{key}.html.gz", root / "html")
    cli("import", tmp_path / "wcxb")
    stored = stored_metadata(session)
    assert sorted(stored) == picked and all(m["authors"] for m in stored.values())
    first = session.scalars(select(GoldRevision)).first()
    assert first.provenance["fields"] == {name: "import" for name in first.article_metadata}
    out = tmp_path / "jsonl"
    cli("export", "--format", "jsonl", "--out", out)
    session.rollback()
    empty_database(session)
    cli("import", out)
    assert sorted(stored_metadata(session).values(), key=str) == sorted(stored.values(), key=str)


def test_the_csv_of_scores_has_each_pages_metadata_gold(cli, session, tmp_path):
    source = tmp_path / "pages.jsonl"
    rows = [{"url": "https://a.example/1", "html": "<p>One two three</p>", "gold": "One two three",
             "metadata": {"title": "=One", "authors": ["Ann Lee", "Bo"], "published": None}},
            {"url": "https://a.example/2", "html": "<p>Four</p>", "gold": "Four", "metadata": {"title": "Four"}}]
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    cli("import", source)
    cli("extract", "--extractor", "whole-page")
    out = tmp_path / "csv"
    cli("export", "--format", "csv", "--out", out)
    with (out / "scores.csv").open(newline="", encoding="utf-8") as stream:
        read = list(csv.DictReader(stream))
    by_url = {row["url"]: (row["title"], row["authors"], row["published"]) for row in read}
    assert by_url == {"https://a.example/1": ("'=One", "Ann Lee; Bo", "(none)"),  # a formula is neutralised
                      "https://a.example/2": ("Four", "", "")}


def test_a_jsonl_line_whose_metadata_is_not_in_shape_is_rejected_naming_it(runner, session, tmp_path):
    source = tmp_path / "pages.jsonl"
    source.write_text(json.dumps({"html": "<p>x</p>", "gold": "x", "metadata": {"published": "soon"}}) + "\n")
    result = runner.invoke(args=["import", str(source)])
    assert "line 1: the gold's metadata field 'published' is not an ISO 8601 date" in result.output
    assert session.scalars(select(Page)).first() is None
