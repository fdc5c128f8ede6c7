"""The app's blueprints, one per area."""

from __future__ import annotations

from flask import Flask

from ..results import snapshot
from ..results.cache import ScoreCache, SharedScores
from ..scoring import app_metrics
from ..web.figures import SHARED
from . import (
    accounts,
    adjudication,
    agreement,
    annotate,
    api,
    audit,
    checks,
    exports,
    extractors,
    jobs,
    leaderboard,
    pages,
    queue,
    reviewed,
    sites,
    upload,
)


def register_blueprints(app: Flask) -> None:
    stored = snapshot.path_for(app.instance_path, app.config["DATABASE_URL"])
    app.extensions[SHARED] = SharedScores(ScoreCache(app_metrics(app), snapshot_path=stored))
    for module in (queue, annotate, pages, api, upload, leaderboard, sites, exports, jobs, extractors, accounts, audit,
                   adjudication, reviewed, agreement, checks):
        app.register_blueprint(module.bp)
