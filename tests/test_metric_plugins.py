"""A third party's metric: installed as an entry point in `goldtext.metrics`, registered by each app as
extractors are, and scored by the same store, cache and leaderboard as the built-ins."""

from __future__ import annotations

import textwrap

import pytest
from workbench import make_page

from webapp import create_app
from webapp.annotation.gold import add_revision
from webapp.db import dispose, sessions
from webapp.results.cache import ScoreCache
from webapp.results.leaderboard_figures import leaderboard
from webapp.results.store import gold_changed
from webapp.scoring import app_metrics, build_metrics, eager
from webapp.scoring.metric_registry import GROUP
from webapp.vocabulary import DEFAULT_TAXONOMY

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
    assert list(build_metrics()) == ["tokens", "shingles", "snippets", "rouge-lsum", "wcxb", "chars"]


def test_a_broken_metric_entry_point_warns_and_the_rest_load(plugin_dist):
    plugin_dist(CHARS, GROUP, ["bad = goldtext_fake_plugin:NOT_A_METRIC", "chars = goldtext_fake_plugin:CHARS"])
    with pytest.warns(RuntimeWarning, match=r"'bad' .* is not a Metric but int"):
        assert "chars" in build_metrics()


def test_an_app_scores_and_ranks_with_an_installed_metric(plugin_dist, tmp_path, database_url):
    plugin_dist(CHARS, GROUP, ["chars = goldtext_fake_plugin:CHARS"])
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url,
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    assert "chars" in eager(app_metrics(app))
    with app.app_context(), sessions(app)() as session:
        page = make_page(session, candidates={"trafilatura": "abc", "density": "xyz"})
        add_revision(session, page, text="abcd", kind="article", status="done", author="Ann")
        gold_changed(session, eager(app_metrics(app)), page.id, no_content=DEFAULT_TAXONOMY.no_content)
        session.commit()
    shown = app.test_client().get("/api/leaderboard?metric=chars&bootstrap=0")
    assert shown.status_code == 200 and shown.get_json()["extractors"] == {}  # scored, not by current versions
    with app.app_context(), sessions(app)() as session:
        cache = ScoreCache(app_metrics(app))
        cache.sync(session)
    named = {"trafilatura": "trafilatura|1|{}", "density": "density|1|{}"}
    board = leaderboard(cache, "chars", named, bootstrap=0)
    assert board["metric"] == "chars"
    assert board["extractors"]["trafilatura"]["precision"] == 1.0
    assert board["extractors"]["trafilatura"]["recall"] == 0.75
    assert board["extractors"]["density"]["f1"] == 0.0
    dispose(app)
