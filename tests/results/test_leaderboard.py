"""The leaderboard views on small hand-made corpora: live refresh by ETag, figures read from the cached
counts, the sites table, drill-down, head-to-head, the drift flag, site rules, and the SVG charts."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from sqlalchemy import func, select, update
from workbench import EAGER, NO_CONTENT, add_gold, add_page, fingerprint, new_batch, sign_in

from webapp.annotation.annotations import save_annotation
from webapp.corpus.site_names import UNKNOWN_SITE
from webapp.extractors.extraction_service import store_all
from webapp.extractors.guard import GuardThresholds
from webapp.extractors.process_pool import Result
from webapp.extractors.with_trafilatura import TRAFILATURA
from webapp.foundation.settings import EXTENSION as SETTINGS
from webapp.models import AuditEvent, Extraction, Job, Page, Site, SiteRule
from webapp.results.drift import BatchRate, drift_flags
from webapp.results.site_figures import site_rows
from webapp.results.store import refresh_scores
from webapp.web.charts import f1_boxes, precision_recall


@pytest.fixture
def board(session) -> list[int]:
    """Two pages of one site: trafilatura half right on the first, density right on both.

    tokens F1: trafilatura page 1: P 1, R 2/4 -> 2/3; page 2: 1. density: 1 and 1.
    """
    batch = new_batch(session)
    first = add_page(session, "news.example", batch, "alpha beta gamma delta",
                     {"trafilatura": "alpha beta", "density": "alpha beta gamma delta"})
    second = add_page(session, "news.example", batch, "one two",
                      {"trafilatura": "one two", "density": "one two"})
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    return [first.id, second.id]


def figures(client, **args) -> dict:
    return client.get("/api/leaderboard", query_string={"bootstrap": 0, **args}).get_json()


def test_the_leaderboard_shows_hand_computed_figures(client, board):
    data = figures(client)
    assert data["pages"] == 2
    assert data["extractors"]["trafilatura"]["f1"] == pytest.approx((2 / 3 + 1) / 2)
    assert data["extractors"]["density"]["f1"] == pytest.approx(1.0)
    assert data["extractors"]["density"]["accuracy"] == pytest.approx(1.0)
    extras = data["extras"]["trafilatura"]
    assert extras["acceptance"] == 1.0
    assert extras["median_ms"] == pytest.approx((110 + 80) / 2)  # 10 ms x (1 + characters)
    micro = figures(client, average="micro")["extractors"]["trafilatura"]
    assert micro["recall"] == pytest.approx(4 / 6)  # 2 + 2 of 4 + 2 gold tokens


def test_unchanged_figures_are_304_and_a_gold_save_changes_them(client, board):
    first = client.get("/api/leaderboard", query_string={"bootstrap": 0})
    tag = first.headers["ETag"]
    again = client.get("/api/leaderboard", query_string={"bootstrap": 0}, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""

    token = sign_in(client)
    saved = client.post(f"/api/pages/{board[0]}/gold", headers={"X-CSRF-Token": token},
                        json={"text": "alpha beta", "type": "article", "status": "done", "version": 1,
                              "client_save_id": "s1"})
    assert saved.status_code == 200
    after = client.get("/api/leaderboard", query_string={"bootstrap": 0}, headers={"If-None-Match": tag})
    assert after.status_code == 200 and after.headers["ETag"] != tag
    assert after.get_json()["extractors"]["trafilatura"]["f1"] == pytest.approx(1.0)
    assert after.get_json()["extractors"]["density"]["f1"] == pytest.approx((2 / 3 + 1) / 2)


def test_the_table_fragment_the_page_polls_is_conditional_too(client, board):
    first = client.get("/leaderboard/table")
    assert 'data-extractor="trafilatura"' in first.get_data(as_text=True)
    assert client.get("/leaderboard/table", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304


def test_figures_come_from_the_cached_counts_not_the_texts(client, session, board):
    before = figures(client)["extractors"]
    session.execute(update(Extraction).values(text=""))
    session.commit()
    assert figures(client)["extractors"] == before


def test_the_cache_is_one_per_app_and_synced_by_the_change_log(app, client, session, board):
    figures(client)
    shared = app.extensions[SETTINGS].shared
    epoch = shared.cache.epoch
    add_gold(session, session.get(Page, board[1]), text="one two three four", page_type="article", status="done",
                 author="bob")
    session.commit()
    data = figures(client)
    assert app.extensions[SETTINGS].shared is shared and shared.cache.epoch > epoch
    assert data["extractors"]["density"]["recall"] == pytest.approx((1 + 0.5) / 2)


def test_reading_a_slow_metric_starts_nothing_and_its_refresh_is_an_audited_post(client, session, board, run_jobs):
    session.rollback()
    first = figures(client, metric="rouge-lsum")
    assert first["pending"] == 4 and first["pages"] == 0
    table = client.get("/leaderboard/table", query_string={"metric": "rouge-lsum", "bootstrap": 0})
    assert 'action="/leaderboard/refresh"' in table.get_data(as_text=True)
    assert figures(client, metric="rouge-lsum")["pending"] == 4
    assert session.scalar(select(func.count(Job.id))) == 0  # a GET neither starts a job
    assert session.scalar(select(func.count(AuditEvent.id))) == 0  # nor writes anything
    session.rollback()
    token = sign_in(client)
    for _ in range(2):
        started = client.post("/leaderboard/refresh", data={"metric": "rouge-lsum", "csrf_token": token})
        assert started.status_code == 302 and "metric=rouge-lsum" in started.headers["Location"]
    jobs = session.scalars(select(Job).where(Job.kind == "refresh")).all()
    assert [(job.params, job.status) for job in jobs] == [({"metric": "rouge-lsum"}, "queued")]  # one, reused
    assert figures(client, metric="rouge-lsum")["pending"] == 4  # still counted until the job has run
    events = session.scalars(select(AuditEvent).where(AuditEvent.action == "refresh")).all()
    assert [(e.target, e.detail["created"]) for e in events] == [(f"job {jobs[0].id}", True),
                                                                 (f"job {jobs[0].id}", False)]
    session.rollback()  # the test's session writes (BEGIN IMMEDIATE on SQLite): let go before the worker runs
    assert run_jobs() == [jobs[0].id]
    done = figures(client, metric="rouge-lsum")
    assert done["pending"] == 0 and done["pages"] == 2
    assert done["extractors"]["density"]["f1"] == pytest.approx(1.0)
    assert session.get(Job, jobs[0].id, populate_existing=True).status == "done"


@pytest.mark.parametrize(("metric", "with_token"), [("rouge-lsum", False), ("tokens", True), ("nope", True)])
def test_a_refresh_needs_the_csrf_token_and_a_slow_metric(client, session, board, metric, with_token):
    token = sign_in(client)
    form = {"metric": metric, **({"csrf_token": token} if with_token else {})}
    assert client.post("/leaderboard/refresh", data=form).status_code == 400
    session.rollback()
    assert session.scalar(select(func.count(Job.id))) == 0


def test_drill_down_lists_pages_worst_first_linking_to_the_candidate(client, board):
    data = client.get("/api/leaderboard/pages", query_string={"extractor": "trafilatura"}).get_json()
    assert [(r["page_id"], round(r["f1"], 4)) for r in data["rows"]] == [(board[0], 0.6667), (board[1], 1.0)]
    assert data["rows"][0]["precision"] == 1.0 and data["rows"][0]["recall"] == 0.5
    html = client.get("/leaderboard/pages?extractor=trafilatura").get_data(as_text=True)
    assert f'href="/pages/{board[0]}#candidate=trafilatura"' in html
    assert html.index(f'data-page="{board[0]}"') < html.index(f'data-page="{board[1]}"')


def test_head_to_head_counts_wins_and_shows_both_texts(client, board):
    data = client.get("/api/compare", query_string={"a": "density", "b": "trafilatura", "bootstrap": 0}).get_json()
    assert (data["wins"], data["losses"], data["ties"]) == (1, 0, 1)
    assert data["difference"] == pytest.approx(1 - (2 / 3 + 1) / 2)
    [change] = data["changed"]
    assert (change["page_id"], change["text_a"], change["text_b"]) == (board[0], "alpha beta gamma delta", "alpha beta")
    html = client.get("/leaderboard/compare?a=density&b=trafilatura").get_data(as_text=True)
    assert "A wins 1, loses 0, ties 1" in html and 'id="compare-data"' in html


def test_a_leaderboard_whose_counts_are_all_of_older_extractor_versions_is_empty_not_an_error(client, session):
    batch = new_batch(session)
    page = add_page(session, "news.example", batch, "alpha beta", {})
    session.add(Extraction(page_id=page.id, extractor="trafilatura", fingerprint="trafilatura|0.1|{}",
                           text="alpha beta", accepted=True))
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    response = client.get("/api/leaderboard", query_string={"bootstrap": 0})
    assert response.status_code == 200
    assert response.get_json()["extractors"] == {}


@pytest.mark.parametrize(("gold_pages", "judged"), [(4, False), (5, True)])
def test_a_site_with_too_few_gold_pages_is_marked_not_ranked(client, session, gold_pages, judged):
    batch = new_batch(session)
    for i in range(gold_pages):
        add_page(session, "few.example", batch, f"word{i} shared", {"trafilatura": f"word{i} shared",
                                                                    "density": "shared"})
    add_page(session, "empty.example", batch, None, {"trafilatura": "x", "density": "y"})
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    sites = {row["site"]: row for row in client.get("/api/sites").get_json()["sites"]}
    assert sites["few.example"]["pages"] == gold_pages
    assert sites["few.example"]["judged"] is judged
    assert sites["few.example"]["best"] == (["trafilatura"] if judged else [])
    assert sites["few.example"]["f1"]["density"] == pytest.approx(2 / 3)  # P 1, R 1/2
    assert sites["empty.example"] == {"site": "empty.example", "unknown": False, "pages": 0, "judged": False,
                                      "best": [], "f1": {}, "heat": {}}
    html = client.get("/sites").get_data(as_text=True)
    row = re.search(r'<tr data-site="few.example".*?</tr>', html, re.S).group(0)
    assert ("too few to judge" in row) is not judged
    assert ("★" in row) is judged


def test_the_unknown_site_is_never_judged_whatever_its_gold():
    by_site = {"groups": {UNKNOWN_SITE: {"pages": 40, "extractors": {"x": {"f1": 0.5}, "y": {"f1": 0.9}}}}}
    (row,) = site_rows(by_site, [UNKNOWN_SITE], 2)
    assert (row["unknown"], row["judged"], row["best"]) == (True, False, [])
    assert row["f1"] == {"x": 0.5, "y": 0.9}  # its figures are still shown


def test_the_minimum_of_gold_pages_is_a_setting():
    separated = {"best": "y", "separable": True}
    by_site = {"groups": {"a.example": {"pages": 2, "extractors": {"x": {"f1": 0.5}, "y": {"f1": 0.9}},
                                        "tiers": separated}}}
    assert site_rows(by_site, ["a.example"], 2)[0]["best"] == ["y"]
    assert site_rows(by_site, ["a.example"], 3)[0]["best"] == []
    assert site_rows(by_site, ["a.example"], 2)[0]["heat"] == {"x": 5, "y": 9}


ARTICLE = "<html><body><article>{}</article></body></html>"
SHELL = '<html><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>'


def paragraphs(n: int) -> str:
    sentence = "The river ferry crossed at dawn while the harbour master counted every crate twice over. "
    return "".join(f"<p>{sentence * 4}Paragraph {n}-{i}.</p>" for i in range(4))


def extract_with_the_guard(session, page: Page) -> None:
    """trafilatura's real output on the page, stored with the real accept guard's verdict."""
    text = TRAFILATURA(page.html, page.url).text
    store_all(session, [Result(key=(page.id, len(page.html)), extractor_name="trafilatura",
                          fingerprint=fingerprint(session, "trafilatura"), text=text, metadata={},
                          duration_ms=1.0, error=None, incomplete=False)], GuardThresholds())


def test_drift_flags_a_site_whose_second_batch_is_javascript_shells_and_not_a_stable_site(app, client, session):
    first, second = new_batch(session), new_batch(session)
    for batch, shifty in ((first, ARTICLE), (second, SHELL)):
        for i in range(3):
            for host, html in (("shifty.example", shifty.format(paragraphs(i))),
                               ("steady.example", ARTICLE.format(paragraphs(10 + i)))):
                extract_with_the_guard(session, add_page(session, host, batch, None, {}, html=html))
    session.commit()
    data = client.get("/api/guard").get_json()
    rates = data["acceptance_by_site_batch"]["trafilatura"]
    assert [r["rate"] for r in rates["steady.example"]] == [1.0, 1.0]
    assert [r["rate"] for r in rates["shifty.example"]] == [1.0, 0.0]
    assert [(f["site"], f["from_batch"], f["to_batch"], f["drop"]) for f in data["drift"]] == [
        ("shifty.example", first.id, second.id, 100.0)
    ]
    board = client.get("/leaderboard").get_data(as_text=True)
    assert 'data-site="shifty.example"' in board and 'data-site="steady.example"' not in board
    settings = app.extensions[SETTINGS]
    app.extensions[SETTINGS] = replace(settings, drift_threshold=100.0)  # as DRIFT_THRESHOLD_POINTS=100 would
    assert client.get("/api/guard").get_json()["drift"] == []


def test_drift_follows_a_re_extraction_in_place(client, session):
    first, second = new_batch(session), new_batch(session)
    pages = [add_page(session, "shifty.example", batch, None, {}, html=ARTICLE.format(paragraphs(i)))
             for i, batch in enumerate((first, second))]
    for page in pages:
        extract_with_the_guard(session, page)
    session.commit()
    assert client.get("/api/leaderboard").get_json()["drift"] == []
    rejected = Result(key=(pages[1].id, len(pages[1].html)), extractor_name="trafilatura",
                      fingerprint=fingerprint(session, "trafilatura"), text="", metadata={},
                      duration_ms=1.0, error=None, incomplete=False)
    store_all(session, [rejected], GuardThresholds())  # the same row, recomputed: no new extraction, no gold
    session.commit()
    assert [f["drop"] for f in client.get("/api/leaderboard").get_json()["drift"]] == [100.0]


@pytest.mark.parametrize(
    ("rates", "threshold", "flagged"),
    [
        ([(10, 10), (6, 10)], 30, [40.0]),
        ([(4, 4), (3, 4)], 30, []),  # 25 points
        ([(8, 10), (5, 10)], 30, []),  # exactly 30 points is not more than 30
        ([(10, 10), (6, 10), (1, 10)], 30, [40.0, 50.0]),
        ([(1, 10), (10, 10)], 30, []),  # a rise is no drift
        ([(10, 10), (6, 10)], 50, []),
    ],
)
def test_drift_flags_falls_of_more_than_the_threshold(rates, threshold, flagged):
    batches = [BatchRate(i + 1, accepted, pages) for i, (accepted, pages) in enumerate(rates)]
    flags = drift_flags({"x": {"a.example": batches}}, threshold)
    assert [pytest.approx(f.drop) for f in flags] == flagged


def test_site_rules_report_counts_paths_and_compares_rule_and_fallback(client, session):
    site = Site(host="ruled.example")
    session.add(site)
    session.flush()
    session.add(SiteRule(site_id=site.id, body="article", drop=[]))
    session.flush()
    batch = new_batch(session)
    paths = [{"path": "rules", "host": "ruled.example"}, {"path": "rules", "host": "ruled.example"},
             {"path": "fallback", "reason": "no rule"}, {"path": "failed", "reason": "SelectorError: x"}]
    for i, meta in enumerate(paths):
        page = add_page(session, "ruled.example", batch, "a b c d", {"trafilatura": "a b"}, meta=meta)
        session.add(Extraction(page_id=page.id, extractor="site-rules", meta=meta, text="a b c d" if i < 2 else "a b",
                               fingerprint=fingerprint(session, "site-rules")))
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    [row] = client.get("/api/site-rules").get_json()["sites"]
    assert row["paths"] == {"rules": 2, "fallback": 1, "failed": 1} and row["has_rule"]
    assert row["gold_pages"] == 4
    assert row["rule_f1"] == pytest.approx((1 + 1 + 2 / 3 + 2 / 3) / 4)
    assert row["fallback_f1"] == pytest.approx(2 / 3)
    assert "ruled.example" in client.get("/sites/rules").get_data(as_text=True)


def test_every_view_renders_under_the_apps_csp(client, board):
    for url in ("/leaderboard", "/sites", "/sites/guard", "/sites/rules", "/leaderboard/compare",
                "/leaderboard/pages"):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*nonce=)", html), url
        assert " style=" not in html, url


def test_charts_escape_names_and_draw_one_mark_per_extractor():
    svg = precision_recall([
        {"name": "<b>bold</b>", "precision": 0.9, "recall": 0.8, "precision_std": 0.01, "recall_std": None},
        {"name": "plain", "precision": 0.5, "recall": 0.7, "precision_std": None, "recall_std": None},
    ])
    assert "<b>" not in svg and "&lt;b&gt;bold&lt;/b&gt;" in svg
    assert svg.count("<circle") == 2
    boxes = f1_boxes({"a": [0.0, 0.5, 1.0], "b": []})
    assert boxes.count("<rect") == 1 and "median 0.500" in boxes


@pytest.mark.parametrize(("gold_pages", "too_few"), [(3, True), (6, False)])
def test_every_view_says_when_the_pages_are_too_few_to_judge(client, runner, session, gold_pages, too_few):
    batch = new_batch(session)
    for i in range(gold_pages):
        add_page(session, "few.example", batch, f"word{i} shared text here",
                 {"trafilatura": f"word{i} shared text here", "density": "shared"})
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    api = client.get("/api/leaderboard?extractor=trafilatura&extractor=density").get_json()
    assert (api["pages"], api["too_few"], api["min_pages"]) == (gold_pages, too_few, 5)
    page = client.get("/leaderboard?extractor=trafilatura&extractor=density").get_data(as_text=True)
    assert ("Too few to judge: " in page) is too_few
    assert ("★ best" in page) is not too_few  # trafilatura beats density on every page: separable
    printed = runner.invoke(args=["score", "--extractor", "trafilatura", "--extractor", "density"]).output
    verdict = printed.splitlines()[-1]
    if too_few:
        assert verdict == (f"too few to judge: {gold_pages} pages, fewer than LEADERBOARD_MIN_SITE_PAGES (5); "
                           "these figures rank nothing")
    else:
        assert verdict == ("best: trafilatura, separated from every other extractor (paired bootstrap at 0.05, "
                           "Holm-corrected)")


def test_the_human_ceiling_is_the_annotators_agreement_in_the_leaderboards_metric(client, session):
    batch = new_batch(session)
    pages = [add_page(session, "duo.example", batch, "a b c d", {"trafilatura": "a b c d", "density": "a b"})
             for _ in range(2)]
    for page, (first, second) in zip(pages, (("a b c d", "a b c e"), ("a b c d", "a b c d"))):
        for name, text in (("al", first), ("bo", second)):
            save_annotation(session, page, name, base_version=0, text=text, page_type="article", status="done")
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    api = client.get("/api/leaderboard?extractor=trafilatura&extractor=density&bootstrap=0").get_json()
    # tokens pools the counts: page 1 overlap 3 of 4 and 4, page 2 overlap 4 of 4 and 4 -> P = R = 7/8
    assert api["ceiling"] == {"f1": pytest.approx(7 / 8), "f1_std": None, "pages": 2, "pairs": 2}
    page = client.get("/leaderboard?extractor=trafilatura&extractor=density").get_data(as_text=True)
    assert "Annotators agree to F1 0.875 ± " in page and "2 pairs on 2\n  double-annotated pages" in page
    row = re.search(r'<tr data-extractor="trafilatura">.*?</tr>', page, re.S).group(0)
    assert "within human disagreement" in row  # F1 1 >= 0.875
    assert 'class="human"' in page  # the line on the per-page F1 plot
    none = client.get("/api/leaderboard?extractor=trafilatura&type=forum").get_json()
    assert none["ceiling"] is None
