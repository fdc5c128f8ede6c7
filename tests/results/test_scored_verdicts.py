"""The readers beside the scores also read the output scored for a page (extractors/scored_output.py): once a
reviewer chooses to score a captured page's rendering in Chromium, the guard's verdict, the time, the predicted
quality, the prefill the gold moved from, the site-rules paths and the HTML a site's figures learn from are those
of the rendering, not of the raw response. On the shell below every extractor is rejected as too short on the raw
response (its menu) and accepted on the rendering (the article)."""

from __future__ import annotations

import pytest
from rendered_shell import ARTICLE, HEADING, MENU, captured_shell, score_rendering
from sqlalchemy import select, update
from workbench import page_data, sign_in

from webapp.annotation.boilerplate import BoilerplateCache
from webapp.annotation.page_filter import PageFilter
from webapp.annotation.page_queue import queue_rows
from webapp.annotation.predicted_quality import PREDICTOR
from webapp.annotation.type_signals import TOO_SHORT
from webapp.extractors.with_rust import QUALITY
from webapp.foundation.settings import settings_of
from webapp.models import Extraction, Page, PageRendering, RenderingExtraction
from webapp.results.rule_proposal import site_pages
from webapp.results.site_rule_figures import rule_paths
from webapp.results.suggestion_figures import suggestion_figures


def rejected_on_raw(session, extractors: tuple[str, ...] = ("trafilatura",)) -> int:
    """The shell, each extractor's output on the raw response rejected as too short and slow (900 ms), on the
    rendering accepted and fast (20 ms)."""
    page_id = captured_shell(session, extractors)
    session.execute(update(Extraction).where(Extraction.page_id == page_id)
                    .values(accepted=False, guard_reason=TOO_SHORT, duration_ms=900.0))
    session.execute(update(RenderingExtraction).values(duration_ms=20.0))
    session.commit()
    return page_id


def test_the_leaderboard_counts_the_verdict_and_the_time_on_the_rendering(app, client, session):
    page_id = rejected_on_raw(session)

    def extras() -> dict:
        board = client.get("/api/leaderboard", query_string={"extractor": "trafilatura", "bootstrap": 0}).get_json()
        return board["extras"]["trafilatura"]

    assert (extras()["acceptance"], extras()["median_ms"]) == (0.0, 900.0)
    score_rendering(app, session, page_id)
    assert (extras()["acceptance"], extras()["median_ms"]) == (1.0, 20.0)


def test_the_guard_report_and_the_drift_read_the_verdict_on_the_rendering(app, client, session):
    page_id = rejected_on_raw(session)
    score_rendering(app, session, page_id)
    sign_in(client)
    found = client.get("/api/guard", query_string={"extractor": "trafilatura"}).get_json()
    assert found["acceptance_by_site_batch"]["trafilatura"]["ferries.example"][0]["accepted"] == 1
    confusion = found["guard"]["trafilatura"]["confusion"]
    assert (confusion["true_accept"], confusion["false_reject"]) == (1, 0)


def test_the_queue_filter_of_rejected_pages_reads_the_verdict_on_the_rendering(app, session):
    page_id = rejected_on_raw(session)

    def rejected() -> list[int]:
        return [row.page_id for row in queue_rows(session, PageFilter(verdict="rejected"))]

    assert rejected() == [page_id]
    score_rendering(app, session, page_id)
    assert rejected() == []


def test_the_page_type_suggestion_figures_read_the_verdicts_on_the_rendering(app, session):
    page_id = rejected_on_raw(session, ("trafilatura", "html-text"))
    taxonomy = settings_of(app).taxonomy
    assert suggestion_figures(session, taxonomy)["undecided"] == 0  # every candidate too short: a JavaScript shell
    score_rendering(app, session, page_id)
    assert suggestion_figures(session, taxonomy)["undecided"] == 1  # on the rendering, no candidate is rejected


def test_the_predicted_quality_is_the_predictors_on_the_rendering(app, session):
    page_id = captured_shell(session, (PREDICTOR,), gold=False)
    session.execute(update(Extraction).where(Extraction.page_id == page_id).values(meta={QUALITY: 0.2}))
    session.execute(update(RenderingExtraction).values(meta={QUALITY: 0.9}))
    session.commit()
    score_rendering(app, session, page_id)
    session.expire_all()
    assert session.get(Page, page_id).predicted_quality == pytest.approx(0.9)


def test_the_site_rule_proposal_learns_from_the_rendering_and_its_outputs(app, session):
    page_id = captured_shell(session)
    score_rendering(app, session, page_id)
    fingerprint = session.scalar(select(Extraction.fingerprint).where(Extraction.page_id == page_id))
    pages, names = site_pages(session, "ferries.example", {"trafilatura": fingerprint})
    assert names == ["trafilatura"] and len(pages) == 1
    assert f"<h2>{HEADING}</h2>" in pages[0].html and ARTICLE[0] in pages[0].texts["trafilatura"]


def test_the_site_boilerplate_is_read_from_the_renderings_where_they_are_scored(app, session):
    """Three pages of one site whose raw responses share only the menu, and whose renderings also share a footer:
    once they score their renderings, the footer is the site's boilerplate too (and the cache sees the change)."""
    pages = [captured_shell(session, gold=False) for _ in range(3)]
    for page_id in pages:
        rendering = session.scalars(select(PageRendering).where(PageRendering.page_id == page_id)).one()
        rendering.html = rendering.html.replace("</article>",
                                                f"<p>page {page_id}</p></article><footer>Ferry Co</footer>")
    session.commit()
    site_id = session.get(Page, pages[0]).site_id
    cache = BoilerplateCache()
    assert cache.lines(session, site_id) == frozenset({MENU})
    for page_id in pages:
        score_rendering(app, session, page_id)
    assert "Ferry Co" in cache.lines(session, site_id)


def test_the_movement_from_the_prefill_is_measured_from_the_output_on_the_rendering(app, client, session):
    """The annotate view prefilled the rendering's output (the article); the annotator kept it: the gold moved
    nothing from its prefill (from the raw response's menu it would have moved all)."""
    page_id = captured_shell(session, gold=False)
    score_rendering(app, session, page_id)
    token = sign_in(client, "Ann")
    editor = page_data(client.get(f"/pages/{page_id}"))["editor"]
    session.commit()  # let go of the database before the save (SQLite)
    saved = client.post(f"/api/pages/{page_id}/gold", headers={"X-CSRF-Token": token},
                        json={"text": editor["text"], "type": "article", "status": "done", "version": 0,
                              "client_save_id": "m1", "provenance": editor["start"]})
    assert saved.status_code == 200, saved.data
    board = client.get("/api/leaderboard", query_string={"extractor": "trafilatura", "bootstrap": 0}).get_json()
    assert board["anchoring"]["movement"]["extractors"]["trafilatura"] == {"count": 1, "mean": 0.0, "median": 0.0}


def test_the_site_rules_paths_are_those_of_the_output_on_the_rendering(app, session):
    page_id = captured_shell(session, ("site-rules",))
    session.execute(update(Extraction).where(Extraction.page_id == page_id).values(meta={"path": "fallback"}))
    session.execute(update(RenderingExtraction).values(meta={"path": "rules"}))
    session.commit()
    score_rendering(app, session, page_id)
    fingerprint = session.scalar(select(Extraction.fingerprint).where(Extraction.page_id == page_id))
    assert rule_paths(session, fingerprint) == {"ferries.example": {"rules": 1, "fallback": 0, "failed": 0}}
