"""The WCXB and WCEB layouts: their readers on fixtures written here (tests/data/wcxb, tests/data/wceb), what
they refuse, `goldtext score --metric wcxb --by type`, and the exports, which write the ids they read and
prediction files only for the extractors that ran."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from corpora import WCXB as WCXB_FOLDER
from corpora import WCXB_SAMPLE
from sqlalchemy import select

from webapp.corpus.document import Limits, RawDocument, Rejected
from webapp.corpus.readers import detect_format, iter_documents
from webapp.models import Page

DATA = Path(__file__).parents[1] / "data"
WCXB, WCEB = DATA / "wcxb", DATA / "wceb"
COMBINED = WCEB / "datasets" / "combined"



def documents(path: Path) -> dict[str, RawDocument | Rejected]:
    """What the reader read at path, by item (the path given left out, so that two paths compare)."""
    return {d.item: replace(d, source="") for d in iter_documents([path], limits=Limits())}


def test_wcxb_is_read_from_its_root_or_a_split_as_evaluate_py_reads_it():
    assert detect_format(WCXB) == detect_format(WCXB / "dev") == "wcxb"
    found = documents(WCXB)
    assert documents(WCXB / "dev") == found
    assert {item: d.page_type for item, d in found.items()} == {
        "0101": "article", "0102": "collection", "0103": "product", "0104": "forum"}  # category is collection
    ferry, app = found["0101"], found["0103"]
    assert ferry.gold == "The harbour ferry runs again on Tuesday.\nTickets cost two crowns."
    assert ferry.snippets == {"with": ["harbour ferry runs again"], "without": ["Subscribe", "Cookie settings"]}
    assert ferry.url == "https://harbour.example/news/ferry" and ferry.data.startswith(b"<!DOCTYPE html>")
    assert ferry.layout == {"name": "wcxb", "id": "0101", "split": "dev", "title": "Ferry runs again",
                            "author": "Ines Moe", "date": "2026-03-01"}
    assert (app.gold, app.snippets, app.status) == ("", None, None)  # an empty reference, and no snippets


def test_wcxb_files_it_cannot_score_are_rejected_with_the_reason(tmp_path):
    split = tmp_path / "test"
    shutil.copytree(WCXB / "dev", split)
    (split / "ground-truth" / "0102.json").write_text('{"ground_truth": "none"}')
    truth = json.loads((split / "ground-truth" / "0104.json").read_text())
    truth["_internal"]["page_type"]["primary"] = "Home page"
    (split / "ground-truth" / "0104.json").write_text(json.dumps(truth))
    (split / "html" / "0101.html.gz").unlink()
    (split / "html" / "0999.html.gz").write_bytes(gzip.compress(b"<p>orphan</p>"))
    found = documents(tmp_path)
    reasons = {item: d.reason for item, d in found.items() if isinstance(d, Rejected)}
    assert reasons.keys() == {"0101", "0102", "0104", "test/html/0999.html.gz"}
    assert "no html/0101.html.gz" in reasons["0101"]
    assert "no \"ground_truth\" object" in reasons["0102"]
    assert "unknown page type 'Home page'" in reasons["0104"]
    assert isinstance(found["0103"], RawDocument) and found["0103"].layout["split"] == "test"


def test_wceb_is_read_from_the_repository_datasets_or_combined_folder():
    assert {detect_format(p) for p in (WCEB, WCEB / "datasets", COMBINED)} == {"wceb"}
    found = documents(WCEB)
    assert documents(COMBINED) == found
    by_text = {d.gold: d for d in found.values()}
    night = by_text["The night train leaves at ten. It reaches the coast at six."]
    assert (night.url, night.folder, night.charset, night.page_type) == ("https://rail.example/night", "mini", "utf-8",
                                                                         None)
    assert night.layout == {"name": "wceb", "id": night.item, "dataset": "mini", "source": ["mini", "case1"]}
    assert night.data == (COMBINED / "html" / "mini" / f"{night.item}.html").read_bytes()
    assert sorted(d.folder for d in found.values()) == ["mini", "mini", "other"]


def test_wceb_lines_it_cannot_read_are_rejected_and_unsafe_ids_never_reach_a_path(tmp_path):
    shutil.copytree(WCEB, tmp_path / "wceb")
    truth = tmp_path / "wceb" / "datasets" / "combined" / "ground-truth" / "other.jsonl"
    truth.write_text(truth.read_text() + '{"page_id": "../../secret", "plaintext": "x"}\nnot json\n'
                     '{"page_id": "absent", "plaintext": "x"}\n')
    reasons = {d.item: d.reason for d in documents(tmp_path / "wceb").values() if isinstance(d, Rejected)}
    assert reasons.keys() == {"other line 2", "other line 3", "other line 4"}
    assert "page_id must be a name" in reasons["other line 2"]
    assert "no html/other/absent.html" in reasons["other line 4"]


def test_wcxb_import_scores_every_type_and_the_export_writes_its_ids_and_only_run_extractors(cli, session, tmp_path):
    assert "4 imported" in cli("import", WCXB)
    page = session.scalars(select(Page).where(Page.source_name == "0101")).one()
    assert page.facts["layout"]["title"] == "Ferry runs again" and page.facts["title"]  # trafilatura's stays too
    cli("extract", "--extractor", "whole-page")
    board = json.loads(cli("score", "--metric", "wcxb", "--by", "type", "--format", "json", "--bootstrap", "0",
                           "--extractor", "whole-page"))
    assert board["pages"] == 4  # the product page with an empty reference too
    assert {k: v["pages"] for k, v in board["groups"].items()} == {
        "article": 1, "collection": 1, "forum": 1, "product": 1}
    whole = board["extractors"]["whole-page"]
    assert whole["with_rate"] == 1.0 and 0 < whole["without_rate"] <= 1  # the whole page has every snippet
    assert board["groups"]["product"]["extractors"]["whole-page"]["f1"] == 1.0  # nothing where the reference is empty

    out = tmp_path / "export"
    cli("export", "--format", "wcxb", "--out", out, "--predictions")
    assert sorted(p.name for p in (out / "dev" / "ground-truth").iterdir()) == [
        "0101.json", "0102.json", "0103.json", "0104.json"]
    assert [p.name for p in (out / "results").iterdir()] == ["whole-page.json"]  # no file for extractors not run
    results = json.loads((out / "results" / "whole-page.json").read_text())
    assert sorted(results) == ["0101", "0102", "0103", "0104"] and "harbour ferry" in results["0101"]
    exported = json.loads((out / "dev" / "ground-truth" / "0102.json").read_text())
    assert exported["_internal"]["page_type"]["primary"] == "collection"
    original = json.loads((WCXB / "dev" / "ground-truth" / "0102.json").read_text())["ground_truth"]
    assert {k: exported["ground_truth"][k] for k in original} == original
    metadata = json.loads((out / "metadata.json").read_text())
    assert metadata["files"]["0104"] == {"split": "dev", "page_type": "forum", "domain": "talk.example"}


def test_wceb_export_writes_the_benchmarks_paths_with_its_ids_and_datasets(cli, tmp_path):
    cli("import", WCEB)
    cli("extract", "--extractor", "whole-page")
    out = tmp_path / "export"
    cli("export", "--format", "wceb", "--out", out, "--predictions")
    combined = out / "datasets" / "combined"
    for name in ("mini", "other"):
        assert (combined / "ground-truth" / f"{name}.jsonl").read_bytes().count(b"\n") == (2 if name == "mini" else 1)
        assert sorted(p.name for p in (combined / "html" / name).iterdir()) == sorted(
            p.name for p in (COMBINED / "html" / name).iterdir())
    truth = [json.loads(line) for line in (combined / "ground-truth" / "mini.jsonl").read_text().splitlines()]
    original = {json.loads(line)["page_id"]: json.loads(line)["plaintext"]
                for line in (COMBINED / "ground-truth" / "mini.jsonl").read_text().splitlines()}
    assert {line["page_id"]: line["plaintext"] for line in truth} == original
    outputs = out / "outputs" / "model-outputs"
    assert sorted(p.relative_to(outputs).as_posix() for p in outputs.rglob("*.jsonl")) == [
        "mini/whole-page.jsonl", "other/whole-page.jsonl"]
    answers = [json.loads(line) for line in (outputs / "mini" / "whole-page.jsonl").read_text().splitlines()]
    assert {a["page_id"] for a in answers} == set(original) and {a["model"] for a in answers} == {"whole-page"}


@pytest.mark.corpus(WCXB_FOLDER)
def test_an_empty_article_gold_of_a_benchmark_counts_as_its_script_counts_it(cli, runner, session, tmp_path):
    """WCXB's test split has an article whose main_content is empty (and no snippets): its evaluate.py scores it
    (F1 1 for an empty extraction, 0 for any other), so the app's wcxb figure must too, while the page is listed
    for review; the metrics that need a text leave it out."""
    root = tmp_path / "wcxb"
    shutil.copytree(WCXB, root)
    truth_file = root / "dev" / "ground-truth" / "0101.json"
    truth = json.loads(truth_file.read_text())
    truth["ground_truth"].update(main_content="", without=[])
    del truth["ground_truth"]["with"]
    truth_file.write_text(json.dumps(truth))
    output = cli("import", root)
    assert "4 imported" in output and "0101: its gold text is empty: imported as done" in output
    cli("extract", "--extractor", "whole-page")
    board = json.loads(cli("score", "--metric", "wcxb", "--format", "json", "--bootstrap", "0",
                           "--extractor", "whole-page"))
    assert board["pages"] == 4
    tokens = json.loads(cli("score", "--metric", "tokens", "--format", "json", "--bootstrap", "0",
                            "--extractor", "whole-page"))
    assert tokens["pages"] == 2  # the empty article and the empty product page have no text to score against

    out = tmp_path / "export"
    cli("export", "--format", "wcxb", "--out", out, "--predictions")
    shutil.copy(WCXB_SAMPLE / "evaluate.py", out)  # the benchmark's script, beside the export's dev/ as it expects
    printed = subprocess.run([sys.executable, "evaluate.py", "--split", "dev", "--results", "results/whole-page.json"],
                             cwd=out, capture_output=True, text=True, check=True).stdout
    assert "Overall (4 pages):" in printed
    assert f"  F1:         {board['extractors']['whole-page']['f1']:.4f}" in printed

    session.rollback()
    checked = runner.invoke(args=["check", "--format", "json"])
    flagged = {f["url"]: f["checks"] for f in json.loads(checked.output)["failing"]}
    assert "type-mismatch" in flagged["https://harbour.example/news/ferry"]
