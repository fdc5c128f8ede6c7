"""The metadata metrics on the real database: a field is scored only where the gold annotates it and the
extractor gives it, the extractors of metadata only are never on a text board, and the leaderboard, the API and
`goldtext score --metric title|authors|published` show the figures computed by hand."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select
from workbench import EAGER, METRICS, NO_CONTENT, add_gold

from webapp.annotation.annotations import save_annotation
from webapp.annotation.disagreement import mean_pairwise_f1, refresh_disagreement
from webapp.extractors.registry import build_registry
from webapp.models import Extraction, Gold, ImportBatch, Page, Score, Site
from webapp.results.agreement_figures import ceiling
from webapp.results.cache import ScoreCache
from webapp.results.leaderboard_figures import leaderboard
from webapp.results.store import refresh_scores

REGISTRY = build_registry()
FULL, DATES, TITLES = (REGISTRY[name].fingerprint for name in ("trafilatura", "htmldate-fast", "readability"))
NAMED = {"trafilatura": FULL, "htmldate-fast": DATES, "readability": TITLES}


def named(*names: str) -> dict[str, str]:
    return {name: NAMED[name] for name in names}

GOLD = [  # the gold's metadata of each page; page 3 has its authors not annotated yet
    {"title": "Night trains of Europe", "authors": ["Jane Doe"], "published": "2024-03-01"},
    {"title": "Compost in a week", "authors": None, "published": None},
    {"title": "Slate roofs", "published": "2023-11-20T10:00:00+01:00"},
]
GIVEN = {  # what each extractor gives on each page
    FULL: [{"title": "Night trains of Europe | Rail Daily", "authors": ["By Jane Doe"], "published": "2024-03-01",
            "sitename": "Rail Daily"},
           {"title": "Compost in a week", "authors": ["Admin"], "published": "2024-02-02"},
           {"title": "Slate roofs", "authors": None, "published": None}],
    DATES: [{"published": "2024-03-01"}, {"published": None}, {"published": "2023-11-21"}],
    TITLES: [{"title": "Night trains of Europe"}, {"title": "Compost in a week"}, {"title": None}],
}


def seed(session) -> list[int]:
    batch = ImportBatch(source="test", format="jsonl")
    site = Site(host="rail.example")
    session.add_all([batch, site])
    session.flush()
    pages = []
    for i, metadata in enumerate(GOLD):
        page = Page(url=f"https://rail.example/{i}", site=site, batch=batch, source_name=f"p{i}", raw=b"<p>x</p>",
                    sha256=f"{i:064d}", encoding="utf-8", encoding_source="bom", html="<p>x</p>" * 50)
        session.add(page)
        session.flush()
        for fingerprint, given in GIVEN.items():
            name = fingerprint.split("|")[0]
            session.add(Extraction(page_id=page.id, extractor=name, fingerprint=fingerprint, meta={},
                                   text="" if name == "htmldate-fast" else "night trains run at ten",
                                   article_metadata=given[i]))
        session.add(Extraction(page_id=page.id, extractor="goose3", fingerprint=REGISTRY["goose3"].fingerprint,
                               meta={}, text="night trains", article_metadata=None))  # extracted before: NULL
        session.flush()
        add_gold(session, page, text="night trains run at ten", page_type="article", status="done", author="ann")
        session.scalars(select(Gold).where(Gold.page_id == page.id)).one().article_metadata = metadata
        pages.append(page.id)
    session.flush()
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    return pages


def scored(session, metric: str) -> dict[str, int]:
    rows = session.execute(select(Extraction.extractor).join(Score, Score.extraction_id == Extraction.id)
                           .where(Score.metric == metric)).scalars()
    found: dict[str, int] = {}
    for name in rows:
        found[name] = found.get(name, 0) + 1
    return found


def test_a_field_is_scored_only_where_the_gold_annotates_it_and_the_extractor_gives_it(session):
    seed(session)
    assert scored(session, "title") == {"trafilatura": 3, "readability": 3}
    assert scored(session, "authors") == {"trafilatura": 2}  # page 3's authors are not annotated
    assert scored(session, "published") == {"trafilatura": 3, "htmldate-fast": 3}
    assert "htmldate-fast" not in scored(session, "tokens")  # dates only: never on a text board
    assert scored(session, "tokens")["goose3"] == 3
    assert refresh_scores(session, EAGER, no_content=NO_CONTENT) == 0  # nothing left to score, nothing redone


def test_the_metadata_leaderboards_give_the_figures_computed_by_hand(session):
    seed(session)
    cache = ScoreCache(METRICS)
    cache.sync(session)
    published = leaderboard(cache, "published", named("trafilatura", "htmldate-fast"), bootstrap=0)
    assert published["pages"] == 3 and set(published["extractors"]) == {"trafilatura", "htmldate-fast"}
    # trafilatura: TP, FP (a date where none), FN; htmldate-fast: TP, TN, FP (a day late)
    traf, dates = published["extractors"]["trafilatura"], published["extractors"]["htmldate-fast"]
    assert (traf["precision"], traf["recall"], traf["f1"]) == (0.5, 0.5, 0.5)
    assert traf["accuracy"] == pytest.approx(1 / 3)
    assert (dates["precision"], dates["recall"]) == (0.5, 1.0)
    assert dates["f1"] == pytest.approx(2 / 3) and dates["accuracy"] == pytest.approx(2 / 3)
    title = leaderboard(cache, "title", named("trafilatura", "readability"), bootstrap=0)
    # trafilatura: token F1 (4 of 6 found, 4 expected: 0.8), 1, 1; exact on pages 2 and 3
    assert title["extractors"]["trafilatura"]["f1"] == pytest.approx((0.8 + 1 + 1) / 3)
    assert title["extractors"]["trafilatura"]["accuracy"] == pytest.approx(2 / 3)
    assert title["extractors"]["readability"]["f1"] == pytest.approx(2 / 3)  # page 3: none found
    authors = leaderboard(cache, "authors", named("trafilatura"), bootstrap=0)
    assert authors["pages"] == 2 and list(authors["extractors"]) == ["trafilatura"]
    assert authors["extractors"]["trafilatura"]["accuracy"] == 0.5  # "By Jane Doe" is Jane Doe; Admin is not none


def test_the_metadata_leaderboard_by_page_type_and_its_spreads(session):
    seed(session)
    cache = ScoreCache(METRICS)
    cache.sync(session)
    board = leaderboard(cache, "published", named("trafilatura", "htmldate-fast"), by="type", bootstrap=200)
    assert board["extractors"]["htmldate-fast"]["f1_std"] is not None
    assert set(board["groups"]) == {"article"}


def test_goldtext_score_prints_a_metadata_metric(runner, session):
    seed(session)
    result = runner.invoke(args=["score", "--metric", "published", "--format", "json", "--bootstrap", "0"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["metric"] == "published"
    assert figures["extractors"]["htmldate-fast"]["f1"] == pytest.approx(2 / 3)
    assert "readability" not in figures["extractors"]  # gives no date: not scored on it
    table = runner.invoke(args=["score", "--metric", "title", "--bootstrap", "0"])  # its statement not the date's
    assert table.exit_code == 0 and "readability" in table.output and "htmldate-fast" not in table.output
    again = json.loads(runner.invoke(args=["score", "--metric", "published", "--format", "json"]).output)
    assert set(again["extractors"]) == {"trafilatura", "htmldate-fast"}


def test_the_api_answers_a_metadata_leaderboard(client, session):
    seed(session)
    answer = client.get("/api/leaderboard?metric=authors&bootstrap=0")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json()["extractors"]["trafilatura"]["accuracy"] == 0.5




def test_the_metadata_view_and_its_api_show_each_field_by_page_type(client, session):
    seed(session)
    data = client.get("/api/leaderboard/metadata?bootstrap=50").get_json()
    assert set(data["fields"]) == {"title", "authors", "published"}
    published = data["fields"]["published"]
    assert set(published["extractors"]) == {"trafilatura", "htmldate-fast"}
    assert published["groups"]["article"]["extractors"]["htmldate-fast"]["f1"] == pytest.approx(2 / 3)
    assert published["extractors"]["htmldate-fast"]["f1_std"] is not None and published["tiers"] is not None
    assert "readability" not in published["not_run"]  # it gives no date: it is not missing from this board
    page = client.get("/leaderboard/metadata?bootstrap=0")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for metric in ("title", "authors", "published"):
        assert f'id="field-{metric}"' in html
    assert 'data-group="article" data-extractor="htmldate-fast"' in html
    text_leaderboard = client.get("/api/leaderboard?bootstrap=0").get_json()
    assert "htmldate-fast" not in text_leaderboard["extractors"] and "htmldate-fast" not in text_leaderboard["not_run"]


def test_the_human_ceiling_of_a_field_pairs_the_annotations_that_both_annotated_it(session):
    pages = seed(session)
    for page_id, said in zip(pages, ({"al": {"title": "Night trains of Europe"}, "bo": {"title": "Night trains"}},
                                     {"al": {"title": "Compost in a week"}, "bo": {}})):
        for name, metadata in said.items():
            saved = save_annotation(session, session.get(Page, page_id), name, base_version=0,
                                    text="night trains", page_type="article", status="done")
            saved.record.article_metadata = metadata
    session.flush()
    found = ceiling(session, METRICS["title"], pages, bootstrap=0)
    # one pair: "Night trains of Europe" against "Night trains": P 2/4, R 1, F1 2/3; the second page's pair is
    # left out (bo did not annotate the title)
    assert found == {"f1": pytest.approx(2 / 3), "f1_std": None, "pages": 2, "pairs": 1}


def test_the_extractors_of_metadata_only_do_not_count_in_the_extractors_disagreement(session):
    pages = seed(session)
    refresh_disagreement(session, pages)
    texts = ["night trains run at ten", "night trains run at ten", "night trains"]  # htmldate-fast's "" left out
    stored = session.scalar(select(Page.disagreement).where(Page.id == pages[0]))
    assert stored == pytest.approx(mean_pairwise_f1(texts))
