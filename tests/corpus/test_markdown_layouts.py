"""The layouts that carry a Markdown gold: WCXB's two golds (main_content and main_content_markdown) kept as
given on the shared sample and written back as they came, WebMainBench's JSONL layout read and written on
its own sample, and what a Goldtext export's text_source keeps; every text metric's figures on the shared
WCXB sample are the same before and after the Markdown gold's migration."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from corpora import WCXB, WCXB_SAMPLE, WEBMAINBENCH, WEBMAINBENCH_SAMPLE
from sqlalchemy import delete, select
from workbench import METRICS as ALL_METRICS

from webapp.corpus.document import Limits, RawDocument, Rejected
from webapp.corpus.readers import iter_documents
from webapp.foundation.engine import make_engine
from webapp.foundation.migrate import downgrade, upgrade
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY
from webapp.models import Gold, Page, Score
from webapp.results.store import refresh_scores
from webapp.scoring.markdown_text import markdown_of_text, plain_text

METRICS = {name: m for name, m in ALL_METRICS.items() if m.needs not in ("markdown", "metadata")}  # the text metrics

DATASET = "WebMainBench_dataset_sample2.jsonl"
RESULTS = "dataset_with_results.jsonl"
KEPT = ("track_id", "html", "url", "groundtruth_content", "meta")


def truths(root: Path) -> dict[str, dict]:
    return {path.stem: json.loads(path.read_text())["ground_truth"]
            for path in sorted((root / "dev" / "ground-truth").glob("*.json"))}


def golds(session) -> dict[str, tuple[str, str, str]]:
    """Each page's source name -> (text, Markdown, text source) of its gold."""
    rows = session.execute(select(Page.source_name, Gold.text, Gold.markdown, Gold.text_source).join(Gold)).all()
    session.rollback()
    return {name: (text, markdown, source) for name, text, markdown, source in rows}


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_wcxb_golds_are_both_kept_as_given_and_written_back_as_they_came(cli, session, tmp_path):
    cli("import", WCXB_SAMPLE)
    given, stored = truths(WCXB_SAMPLE), golds(session)
    assert set(stored) == set(given) and len(given) == 280
    with_markdown = {name for name, truth in given.items() if truth.get("main_content_markdown") is not None}
    assert len(with_markdown) == 276
    for name, truth in given.items():
        text, markdown, source = stored[name]
        assert text == (truth["main_content"] or "")  # what WCXB's evaluate.py and the text metrics read
        if name in with_markdown:
            assert (markdown, source) == (truth["main_content_markdown"], "given")
        else:
            assert (markdown, source) == (markdown_of_text(text), "flat")
    differ = [name for name in with_markdown if plain_text(stored[name][1]) != stored[name][0]]
    assert len(differ) > 100  # two golds that say different things: both kept

    out = tmp_path / "export"
    cli("export", "--format", "wcxb", "--out", out)
    written = truths(out)
    for name, truth in given.items():
        assert written[name]["main_content"] == (truth["main_content"] or "")
        expected = truth.get("main_content_markdown")
        assert written[name]["main_content_markdown"] == (expected if expected is not None
                                                          else markdown_of_text(truth["main_content"] or ""))


SAMPLED = 35  # pages of the shared sample (every metric is computed twice on each: rouge-lsum is slow)


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_every_text_metric_gives_the_same_figures_before_and_after_the_markdown_migration(
        app, cli, session, database_url, tmp_path):
    sample = tmp_path / "wcxb" / "dev"
    for folder in ("ground-truth", "html"):
        (sample / folder).mkdir(parents=True)
    for truth in sorted((WCXB_SAMPLE / "dev" / "ground-truth").glob("*.json"))[:SAMPLED]:
        shutil.copy(truth, sample / "ground-truth")
        shutil.copy(WCXB_SAMPLE / "dev" / "html" / f"{truth.stem}.html.gz", sample / "html")
    cli("import", sample.parent)
    cli("extract", "--extractor", "trafilatura")

    def figures() -> dict[str, dict]:
        session.rollback()
        session.execute(delete(Score))  # every count computed again from the gold as stored now
        refresh_scores(session, METRICS, no_content=DEFAULT_TAXONOMY.no_content)
        session.commit()
        return {name: json.loads(cli("score", "--metric", name, "--format", "json", "--bootstrap", "0",
                                     "--extractor", "trafilatura"))["extractors"] for name in METRICS}

    before = figures()
    assert before["tokens"]["trafilatura"]["f1"] > 0
    texts = {name: text for name, (text, _, _) in golds(session).items()}
    engine = make_engine(database_url)
    downgrade(engine, "0019")  # the gold as it was: flat text only
    upgrade(engine)  # and migrated: every gold's Markdown made again from its text
    engine.dispose()
    assert {name: text for name, (text, _, _) in golds(session).items()} == texts
    assert {source for _, _, source in golds(session).values()} == {"flat"}
    assert figures() == before


def webmainbench_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.corpus(WEBMAINBENCH)
def test_webmainbench_pages_are_read_with_their_markdown_gold_and_meta():
    lines = webmainbench_lines(WEBMAINBENCH_SAMPLE / DATASET)
    found = list(iter_documents([WEBMAINBENCH_SAMPLE / DATASET], "webmainbench", Limits()))
    assert all(isinstance(document, RawDocument) for document in found) and len(found) == len(lines) == 2
    for document, line in zip(found, lines, strict=True):
        assert (document.gold, document.markdown) == (None, line["groundtruth_content"])  # its text derived
        assert document.data == line["html"].encode("utf-8") and document.url == line["url"]
        assert document.layout == {"name": "webmainbench", "id": line["track_id"], "meta": line["meta"]}
    results = list(iter_documents([WEBMAINBENCH_SAMPLE / RESULTS], "webmainbench", Limits()))
    assert [d.layout["id"] for d in results if isinstance(d, RawDocument)] == [
        line["id"] for line in webmainbench_lines(WEBMAINBENCH_SAMPLE / RESULTS)]  # its result files name it id


@pytest.mark.slow
@pytest.mark.corpus(WEBMAINBENCH)
def test_a_webmainbench_import_exports_the_same_lines(cli, session, tmp_path):
    cli("import", "--format", "webmainbench", WEBMAINBENCH_SAMPLE / DATASET)
    stored = golds(session)
    lines = webmainbench_lines(WEBMAINBENCH_SAMPLE / DATASET)
    assert sorted(markdown for _, markdown, _ in stored.values()) == sorted(line["groundtruth_content"]
                                                                          for line in lines)
    assert all(text == plain_text(markdown) and source == "derived" for text, markdown, source in stored.values())
    out = tmp_path / "export"
    cli("export", "--format", "webmainbench", "--out", out)
    written = webmainbench_lines(out / "webmainbench.jsonl")
    assert [{key: line[key] for key in KEPT} for line in written] == [{key: line[key] for key in KEPT}
                                                                      for line in lines]
    assert all(line["goldtext"]["text_source"] == "derived" and "text" not in line["goldtext"] for line in written)


def test_a_text_source_that_does_not_hold_is_rejected_with_the_reason(tmp_path):
    page = "<html><body><p>Words</p></body></html>"
    lines = [{"html": page, "gold": "Other words", "markdown": "# Words", "text_source": "derived"},
             {"html": page + " ", "gold": "Words", "markdown": "# Words", "text_source": "flat"},
             {"html": page + "  ", "markdown": "# Words", "text_source": "given"},
             {"html": page + "   ", "gold": "Words", "text_source": "typed"},
             {"html": page + "    ", "gold": "Words and more", "markdown": "# Words"}]
    source = tmp_path / "pages.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    found = list(iter_documents([source], "jsonl", Limits()))
    reasons = [d.reason for d in found[:4] if isinstance(d, Rejected)]
    assert len(reasons) == 4
    assert "'derived' needs a Markdown gold whose plain text is its text" in reasons[0]
    assert "'flat' needs a gold text whose escaped Markdown is its Markdown" in reasons[1]
    assert "'given' needs both" in reasons[2] and "unknown text source 'typed'" in reasons[3]
    assert isinstance(found[4], RawDocument) and (found[4].gold, found[4].markdown) == ("Words and more", "# Words")


def test_a_folder_of_markdown_golds_is_read_their_text_derived(tmp_path):
    (tmp_path / "a.html").write_text("<p>A</p>")
    (tmp_path / "a.gold.md").write_text("# Title\n\n- one\n- two\n")
    (tmp_path / "b.html").write_text("<p>B</p>")
    (tmp_path / "c.gold.md").write_text("orphan")
    found = {d.item: d for d in iter_documents([tmp_path], "folder", Limits())}
    assert (found["a.html"].gold, found["a.html"].markdown) == (None, "# Title\n\n- one\n- two\n")
    assert found["b.html"].gold is None and found["b.html"].markdown is None
    assert found["c.gold.md"].reason == "Markdown gold with no c.html beside it"


def test_a_webmainbench_folder_export_in_a_zip_is_read_as_webmainbench(tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    line = {"track_id": "t-1", "html": "<p>x</p>", "url": None, "groundtruth_content": "## x", "meta": None}
    (folder / "webmainbench.jsonl").write_text(json.dumps(line) + "\n")
    archive = shutil.make_archive(str(tmp_path / "export"), "zip", tmp_path, "export")
    (document,) = iter_documents([archive], "auto", Limits())
    assert isinstance(document, RawDocument) and (document.markdown, document.layout["id"]) == ("## x", "t-1")
