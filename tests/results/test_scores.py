"""The score cache and the leaderboard on the real database: only stale counts are recomputed, the
figures equal a fresh aggregation of the texts, and `goldtext score|compare|guard` print them."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter

import pytest
from demo_fixtures import demo_app_on
from sqlalchemy import delete, func, select, update
from workbench import EAGER, METRICS, NO_CONTENT, add_gold

from webapp.annotation.page_filter import PageFilter
from webapp.extractors.extraction_service import store_all
from webapp.extractors.guard import GuardThresholds
from webapp.extractors.process_pool import Result
from webapp.extractors.registry import METADATA_ONLY, build_registry, runnable
from webapp.models import Extraction, Gold, ImportBatch, Page, Score, Site
from webapp.results.cache import ScoreCache
from webapp.results.leaderboard_figures import leaderboard
from webapp.results.store import refresh_scores
from webapp.scoring import summarize_many
from webapp.web.db import dispose, readers, sessions

GOLDS = {
    "a.example": ["the night train leaves at ten and arrives at six", "compost heats up in a week"],
    "b.example": ["slate roofs last a century, or more", "a quiet reading room"],
}
CANDIDATES = {
    "good": ["the night train leaves at ten", "compost heats up in a week", "slate roofs last a century",
             "a quiet room"],
    "noisy": ["menu the night train leaves at ten and arrives at six login", "", "slate slate roofs",
              "a quiet reading room"],
}


def seed(session) -> list[int]:
    """Four gold pages on two sites, each extracted by "good" and "noisy"."""
    batch = ImportBatch(source="test", format="jsonl")
    session.add(batch)
    session.flush()
    page_ids = []
    texts = [t for host in GOLDS for t in GOLDS[host]]
    hosts = [host for host in GOLDS for _ in GOLDS[host]]
    for i, (host, gold) in enumerate(zip(hosts, texts)):
        site = session.scalars(select(Site).where(Site.host == host)).one_or_none() or Site(host=host)
        page = Page(url=f"https://{host}/{i}", site=site, batch=batch, source_name=f"p{i}", raw=b"<p>x</p>",
                    sha256=f"{i:064d}", encoding="utf-8", encoding_source="bom", html="<p>x</p>" * 50)
        session.add(page)
        session.flush()
        add_gold(session, page, text=gold, page_type="article", status="done", author=f"ann{i % 2}")
        for name, candidates in CANDIDATES.items():
            session.add(Extraction(page_id=page.id, extractor=name, fingerprint=f"{name}|1|{{}}",
                                   text=candidates[i], meta={}))
        page_ids.append(page.id)
    session.flush()
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    return page_ids


NAMED = {"good": "good|1|{}", "noisy": "noisy|1|{}"}


def fresh_table(metric: str, golds: list[str]) -> dict[str, list[dict]]:
    return {
        name: [METRICS[metric].counts(c, g) for c, g in zip(cands, golds)]
        for name, cands in CANDIDATES.items()
    }


def all_golds() -> list[str]:
    return [t for host in GOLDS for t in GOLDS[host]]


def score_rows(session) -> dict[tuple[int, str], tuple[int, int]]:
    """(extraction, metric) -> (score id, gold version)."""
    return {
        (s.extraction_id, s.metric): (s.id, s.gold_version) for s in session.scalars(select(Score))
    }


def test_refresh_caches_every_eager_metric_once(session):
    seed(session)
    rows = score_rows(session)
    assert len(rows) == 4 * 2 * 3  # 4 pages x 2 extractors x (tokens, shingles, wcxb); no snippet gold
    assert refresh_scores(session, EAGER, no_content=NO_CONTENT) == 0
    assert score_rows(session) == rows


def test_gold_save_recomputes_only_that_page(session):
    pages = seed(session)
    before = score_rows(session)
    page = session.get(Page, pages[1])
    add_gold(session, page, text="compost heats", page_type="article", status="done", author="ann")
    session.commit()
    after = score_rows(session)
    own = {e.id for e in page.extractions}
    assert {k for k in after if after[k] != before[k]} == {k for k in after if k[0] in own}
    assert all(after[k][1] == 2 for k in after if k[0] in own)


def test_reextraction_recomputes_only_its_own_rows(session):
    pages = seed(session)
    before = score_rows(session)
    result = Result(key=(pages[0], 400), extractor_name="good", fingerprint="good|1|{}", text="night train",
                    metadata={}, duration_ms=1.0, error=None, incomplete=False)
    [row] = store_all(session, [result], GuardThresholds())
    assert refresh_scores(session, EAGER, no_content=NO_CONTENT) == 3
    after = score_rows(session)
    assert {k for k in after if after.get(k) != before.get(k)} == {(row.id, m) for m in ("tokens", "shingles", "wcxb")}


def test_a_flush_of_results_replaces_stored_rows_drops_their_scores_and_counts_retries(session):
    pages = seed(session)
    stored = {(e.page_id, e.fingerprint): e.id for e in session.scalars(select(Extraction))}
    own = stored[pages[0], "good|1|{}"]
    assert session.scalars(select(Score).where(Score.extraction_id == own)).all()

    def result(page_id: int, text: str, error: str | None = None) -> Result:
        return Result(key=(page_id, 400), extractor_name="good", fingerprint="good|1|{}", text=text, metadata={},
                      duration_ms=1.0, error=error, incomplete=False)

    rows = store_all(session, [result(pages[0], "night train"), result(pages[1], "", "timeout after 60 s"),
                               result(pages[1], "day train")], GuardThresholds())
    session.commit()
    assert rows[0].id == own and rows[1] is rows[2]  # the same pair twice in one flush: one row, the later text
    assert session.scalars(select(Score).where(Score.extraction_id == own)).all() == []
    assert session.get(Extraction, own).text == "night train"
    again = session.scalars(select(Extraction).where(Extraction.page_id == pages[1],
                                                     Extraction.fingerprint == "good|1|{}")).one()
    assert (again.text, again.error, again.attempts) == ("day train", None, 2)  # after a retryable error
    assert len(stored) == session.scalar(select(func.count()).select_from(Extraction))


def test_metric_version_change_recomputes_that_metric(session):
    seed(session)
    session.execute(update(Score).where(Score.metric == "shingles").values(metric_version=0))
    assert refresh_scores(session, EAGER, no_content=NO_CONTENT) == 8
    assert {s.metric_version for s in session.scalars(select(Score))} == {1}


@pytest.mark.parametrize("metric", ["tokens", "shingles"])
@pytest.mark.parametrize("average", [None, "micro"])
def test_leaderboard_equals_fresh_aggregation(session, metric, average):
    seed(session)
    cache = ScoreCache(METRICS)
    cache.sync(session)
    if metric == "shingles" and average == "micro":
        with pytest.raises(ValueError, match="fixed average"):
            leaderboard(cache, metric, NAMED, average=average)
        return
    board = leaderboard(cache, metric, NAMED, average=average, bootstrap=100, seed=3)
    expected = summarize_many(METRICS[metric], fresh_table(metric, all_golds()), average, bootstrap=100, seed=3)
    for name in NAMED:
        assert board["extractors"][name]["f1"] == pytest.approx(expected[name].f1)
        assert board["extractors"][name]["f1_std"] == pytest.approx(expected[name].f1_std)
    assert board["pages"] == 4


def test_leaderboard_follows_a_gold_save_made_elsewhere(app, session):
    pages = seed(session)
    cache = ScoreCache(METRICS)
    cache.sync(session)
    leaderboard(cache, "tokens", NAMED, bootstrap=50)
    session.rollback()  # the request that read the scores has ended
    with sessions(app)() as other:
        add_gold(other, other.get(Page, pages[2]), text="slate roofs", page_type="article", status="done",
                     author="other")
        other.commit()
    cache.sync(session)
    board = leaderboard(cache, "tokens", NAMED, bootstrap=50)
    golds = all_golds()
    golds[2] = "slate roofs"
    expected = summarize_many(METRICS["tokens"], fresh_table("tokens", golds), bootstrap=50)
    assert board["extractors"]["noisy"]["f1"] == pytest.approx(expected["noisy"].f1)
    assert board["extractors"]["noisy"]["f1_std"] == pytest.approx(expected["noisy"].f1_std)


def test_every_type_with_main_content_is_scored_and_the_others_only_by_the_guard(session):
    pages = seed(session)
    golds = all_golds()
    add_gold(session, session.get(Page, pages[0]), text=golds[0], page_type="forum", status="done", author="x")
    add_gold(session, session.get(Page, pages[1]), text="draft text", page_type="article", status="draft", author="x")
    add_gold(session, session.get(Page, pages[2]), text=golds[2], page_type="wall", status="done", author="x")
    add_gold(session, session.get(Page, pages[3]), text="", page_type="listing", status="done", author="x")
    session.commit()
    cache = ScoreCache(METRICS)
    cache.sync(session)
    tokens = leaderboard(cache, "tokens", NAMED, by="type", bootstrap=0)
    assert {group: sub["pages"] for group, sub in tokens["groups"].items()} == {"forum": 1}
    wcxb = leaderboard(cache, "wcxb", NAMED, by="type", bootstrap=0)  # scores the empty reference too
    assert {group: sub["pages"] for group, sub in wcxb["groups"].items()} == {"forum": 1, "listing": 1}
    assert wcxb["groups"]["listing"]["extractors"]["good"]["f1"] == 0.0  # text where the reference has none
    assert wcxb["extractors"]["good"]["with_rate"] == 1.0  # no snippets: every rate is 1, as in evaluate.py


def test_filters_and_groups(session):
    seed(session)
    cache = ScoreCache(METRICS)
    cache.sync(session)
    only_b = leaderboard(cache, "tokens", NAMED, filters=PageFilter(sites=("b.example",)), bootstrap=0)
    grouped = leaderboard(cache, "tokens", NAMED, by="site", bootstrap=0)
    assert only_b["pages"] == 2
    assert grouped["groups"]["b.example"]["extractors"] == only_b["extractors"]
    by_annotator = leaderboard(cache, "tokens", NAMED, by="author", bootstrap=0)
    assert set(by_annotator["groups"]) == {"ann0", "ann1"}


def seed_overlap(extracted: str, gold: str) -> tuple[float, float]:
    """The seed's overlap(), written out independently: multiset overlap of lower-cased \\w+ tokens."""
    ext_tokens = re.findall(r"\w+", extracted.lower())
    gold_tokens = re.findall(r"\w+", gold.lower())
    common = Counter(ext_tokens) & Counter(gold_tokens)
    hit = sum(common.values())
    return hit / max(len(ext_tokens), 1), hit / max(len(gold_tokens), 1)


def test_tokens_metric_matches_the_seed_overlap_on_every_demo_page(demo_app):
    checked = 0
    with readers(demo_app)() as session:
        for extraction, gold in session.execute(
            select(Extraction, Gold).join(Gold, Gold.page_id == Extraction.page_id)
            .where(Gold.text != "", Extraction.extractor.not_in(METADATA_ONLY))  # those give no text: not scored
        ):
            score = session.scalars(
                select(Score).where(Score.extraction_id == extraction.id, Score.metric == "tokens")
            ).one()
            counts = score.counts
            precision = counts["hit"] / max(counts["extracted"], 1)
            recall = counts["hit"] / max(counts["gold"], 1)
            assert (precision, recall) == pytest.approx(seed_overlap(extraction.text, gold.text))
            checked += 1
    texts = [e for e in runnable(build_registry()) if e.name not in METADATA_ONLY]
    assert checked == 11 * len(texts)  # 10 articles and the listing with gold x the extractors of text


def test_unknown_extractor_is_a_usage_error_naming_it(runner, session):
    seed(session)
    result = runner.invoke(args=["score", "--extractor", "nope"])
    assert result.exit_code == 2 and "nope" in result.output
    compared = runner.invoke(args=["compare", "good|1|{}", "nope"])
    assert compared.exit_code == 2 and "unknown extractor: nope" in compared.output


def test_score_command_json_has_the_documented_shape(demo_app):
    runner = demo_app.test_cli_runner()
    result = runner.invoke(args=["score", "--metric", "shingles", "--format", "json", "--bootstrap", "100",
                                 "--by", "site", "--extractor", "trafilatura", "--extractor", "whole-page"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["metric"], data["average"], data["pages"]) == ("shingles", "macro", 11)
    figures = data["extractors"]["trafilatura"]
    assert set(figures) == {"precision", "recall", "f1", "accuracy", "precision_std", "recall_std",
                            "f1_std", "pages", "errors"}
    assert 0 < figures["f1"] <= 1 and figures["f1_std"] > 0
    assert sum(g["pages"] for g in data["groups"].values()) == 11
    assert data["extractors"]["whole-page"]["recall"] > data["extractors"]["whole-page"]["precision"]

    table = runner.invoke(args=["score", "--bootstrap", "0"])
    assert "trafilatura-precision" in table.output and "tokens (macro), 11 pages" in table.output
    micro = runner.invoke(args=["score", "--metric", "shingles", "--average", "micro"])
    assert micro.exit_code == 2 and "fixed average" in micro.output

    compared = runner.invoke(args=["compare", "trafilatura", "whole-page", "--format", "json", "--bootstrap", "200"])
    data = json.loads(compared.output)
    assert data["wins"] + data["losses"] + data["ties"] == 11
    assert data["wins"] > data["losses"] and 0 <= data["share_a_better"] <= 1
    assert data["b"]["fingerprint"].startswith("whole-page|")

    guard = json.loads(runner.invoke(args=["guard", "--format", "json", "--extractor", "whole-page"]).output)
    confusion = guard["whole-page"]["confusion"]
    assert sum(confusion.values()) == 15
    assert confusion["true_accept"] + confusion["false_reject"] == 10  # the demo's articles, to accept
    assert set(guard["whole-page"]["acceptance_by_site"]) == {
        "transit-times.example", "garden-ledger.example", "quarry-review.example"
    }


def test_score_filters_combine(demo_app):
    runner = demo_app.test_cli_runner()

    def pages(*options: str) -> int:
        result = runner.invoke(args=["score", "--format", "json", "--bootstrap", "0", *options])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)["pages"]

    assert pages() == 11  # ten articles and the listing
    # garden-ledger.example has four articles with gold (compost-heat, seed-swap-cafe, frost-dates, rhubarb-forcing)
    assert pages("--site", "garden-ledger.example", "--type", "article", "--author", "import") == 4
    assert pages("--site", "garden-ledger.example", "--author", "nobody") == 0
    assert pages("--batch", "1", "--type", "listing") == 1


def test_score_without_extractor_scores_those_that_ran_and_lists_the_rest_as_not_run(demo_copy, tmp_path):
    app = demo_app_on(demo_copy, tmp_path / "instance")
    runner = app.test_cli_runner()

    def score(*options: str) -> str:
        result = runner.invoke(args=["score", "--bootstrap", "0", *options])
        assert result.exit_code == 0, result.output
        return result.output

    try:
        before = json.loads(score("--format", "json"))
        with app.app_context(), sessions()() as session:
            session.execute(delete(Extraction).where(Extraction.extractor == "justext"))
            session.commit()
        after = json.loads(score("--format", "json"))
        table = score()
        asked = runner.invoke(args=["score", "--bootstrap", "0", "--format", "json", "--extractor", "justext"])
    finally:
        dispose(app)
    assert before["not_run"] == [] and after["not_run"] == ["justext"]
    assert after["pages"] == before["pages"] == 11
    assert after["extractors"] == {k: v for k, v in before["extractors"].items() if k != "justext"}
    assert all(figures["f1"] is not None for figures in after["extractors"].values())
    assert "not run: justext" in table and "trafilatura-precision" in table
    # asked for by name, an extractor that has not run is scored on no page, as before
    assert json.loads(asked.output)["pages"] == 0


def test_cli_csv_neutralises_cells_a_spreadsheet_would_run(demo_copy, tmp_path):
    app = demo_app_on(demo_copy, tmp_path / "instance")
    runner = app.test_cli_runner()
    hosts = {"transit-times.example": "=HYPERLINK(\"http://evil.example\")", "garden-ledger.example": "@SUM(A1)",
             "quarry-review.example": "-2+3"}
    try:
        with app.app_context(), sessions()() as session:
            for host, evil in hosts.items():
                session.execute(update(Site).where(Site.host == host).values(host=evil))
            session.commit()
        scored = runner.invoke(args=["score", "--bootstrap", "0", "--format", "csv", "--by", "site"])
        compared = runner.invoke(args=["compare", "whole-page", "trafilatura", "--bootstrap", "0", "--format", "csv"])
    finally:
        dispose(app)
    # stdout only: "not run: site-rules" (its fingerprint follows the renamed hosts' rules) goes to stderr
    rows = list(csv.DictReader(io.StringIO(scored.stdout)))
    assert {row["group"] for row in rows} == {"", *("'" + evil for evil in hosts.values())}
    changed = list(csv.DictReader(io.StringIO(compared.output)))
    assert changed and any(row["difference"].startswith("-") for row in changed)  # numbers are left as numbers
    assert all(float(row["difference"]) == float(row["f1_a"]) - float(row["f1_b"]) for row in changed)
