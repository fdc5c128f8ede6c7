"""The app's blueprints, one per area."""

from __future__ import annotations

from flask import Flask

from ..standings import SharedScores
from . import annotate, api, exports, leaderboard, pages, queue, sites, upload
from .figures import SHARED
from .upload import JOBS


def register_blueprints(app: Flask) -> None:
    app.extensions[JOBS] = {}
    app.extensions[SHARED] = SharedScores()
    for module in (queue, annotate, pages, api, upload, leaderboard, sites, exports):
        app.register_blueprint(module.bp)
