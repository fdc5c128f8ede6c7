"""An export downloaded from the app is its folder in a zip (exports/archive.zip_folder): importing that
zip reads the layout inside it exactly as the folder is read, for every export layout, with the zip's
checks (unsafe members, its size cap) and without the per-page cap on the layout's own files."""

from __future__ import annotations

import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from webapp.corpus.document import Limits, RawDocument, Rejected
from webapp.corpus.readers import iter_documents
from webapp.exports.archive import zip_folder
from webapp.exports.folder_writer import FolderWriter
from webapp.exports.jsonl_writer import JsonlWriter
from webapp.exports.scrapinghub_writer import ScrapinghubWriter
from webapp.exports.selection import ExportedPage, GoldRecord
from webapp.exports.trafilatura_eval_writer import TrafilaturaEvalWriter
from webapp.exports.wceb_writer import WcebWriter
from webapp.exports.wcxb_writer import WcxbWriter
from webapp.exports.writer import WriterOptions

WHEN = datetime(2026, 1, 2, tzinfo=UTC)
WRITERS = {"jsonl": JsonlWriter, "folder": FolderWriter, "scrapinghub": ScrapinghubWriter,
           "trafilatura-eval": TrafilaturaEvalWriter, "wcxb": WcxbWriter, "wceb": WcebWriter}


def pages(count: int = 3) -> list[ExportedPage]:
    return [
        ExportedPage(n, f"https://site{n}.example/story", f"site{n}.example", f"{n:064x}", "utf-8", WHEN,
                     f"<html><body><nav>Home</nav><p>Story {n} é</p></body></html>".encode(),
                     GoldRecord(f"Story {n} é\nSecond line", "forum" if n % 2 else "article", "done",
                                {"with": [f"Story {n}"], "without": ["Home"]}, ("Ann",), 1, WHEN), ())
        for n in range(1, count + 1)
    ]


def export(layout: str, folder: Path, count: int = 3) -> Path:
    folder.mkdir()
    writer = WRITERS[layout](folder, WriterOptions())
    for page in pages(count):
        writer.add(page)
    writer.close()
    return folder


def read(path: Path, limits: Limits = Limits()) -> list[RawDocument | Rejected]:
    return list(iter_documents([path], "auto", limits))


def fields(found: RawDocument | Rejected) -> tuple:
    if isinstance(found, Rejected):
        return ("rejected", found.item, found.reason)
    return (found.item, found.data, found.url, found.charset, found.gold, found.page_type, found.snippets,
            found.status, found.layout)


@pytest.mark.parametrize("layout", sorted(WRITERS))
def test_a_downloaded_export_reads_as_its_folder(tmp_path, layout):
    folder = export(layout, tmp_path / f"goldtext-{layout}")
    archive = zip_folder(folder, tmp_path / "download.zip")
    from_folder, from_zip = read(folder), read(archive)
    assert len(from_folder) == 3 and all(isinstance(found, RawDocument) for found in from_folder)
    if layout == "trafilatura-eval":  # snippet gold only
        assert [found.snippets for found in from_folder] == [page.gold.snippets for page in pages()]
    else:
        assert sorted(found.gold or "" for found in from_folder) == [f"Story {n} é\nSecond line" for n in (1, 2, 3)]
    # the folder layout's zip is read member by member, its items named by their place in the zip
    named = (lambda item: f"zip:download.zip/{folder.name}/{item}") if layout == "folder" else (lambda item: item)
    assert [fields(found) for found in from_zip] == [(named(found.item), *fields(found)[1:]) for found in from_folder]
    assert {found.source for found in from_zip} == {str(archive)}


def test_a_layout_file_larger_than_the_page_cap_is_read(tmp_path):
    # pages.jsonl holds every page: only each page is held to the per-page cap
    archive = zip_folder(export("jsonl", tmp_path / "out", count=12), tmp_path / "download.zip")
    limits = Limits(max_bytes=400)
    assert (tmp_path / "out" / "pages.jsonl").stat().st_size > 400 * 4
    found = read(archive, limits)
    assert [type(item) for item in found] == [RawDocument] * 12


def test_an_unsafe_member_is_refused_and_the_rest_is_read(tmp_path):
    archive = zip_folder(export("scrapinghub", tmp_path / "out"), tmp_path / "download.zip")
    with zipfile.ZipFile(archive, "a") as packed:
        packed.writestr("../escaped.txt", "outside")
    found = read(archive)
    assert [f.reason for f in found if isinstance(f, Rejected)] == ["zip member with '..' in its path"]
    assert len([f for f in found if isinstance(f, RawDocument)]) == 3
    assert not (tmp_path / "escaped.txt").exists()


def test_the_zip_size_cap_holds_for_an_unpacked_layout(tmp_path):
    archive = zip_folder(export("wcxb", tmp_path / "out"), tmp_path / "download.zip")
    found = read(archive, Limits(zip_max_total=300))
    reasons = {f.reason for f in found if isinstance(f, Rejected)}
    assert any("zip bomb guard" in reason for reason in reasons), reasons
    assert len([f for f in found if isinstance(f, RawDocument)]) < 3


def test_goldtext_import_reads_a_downloaded_export_with_its_gold(tmp_path, runner):
    archive = zip_folder(export("scrapinghub", tmp_path / "goldtext-scrapinghub"), tmp_path / "download.zip")
    result = runner.invoke(args=["import", str(archive)])
    assert result.exit_code == 0, result.output
    assert "3 imported" in result.output, result.output
    listed = runner.invoke(args=["export", "--format", "jsonl", "--out", str(tmp_path / "again")])
    assert listed.exit_code == 0, listed.output
    again = read(tmp_path / "again")
    assert sorted(found.gold or "" for found in again) == [f"Story {n} é\nSecond line" for n in (1, 2, 3)]
