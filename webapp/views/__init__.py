"""The app's blueprints, one per area."""

from __future__ import annotations

from flask import Flask

from . import (
    accounts,
    adjudication,
    agreement,
    annotate,
    api,
    audit,
    capture,
    checks,
    console,
    effort,
    exports,
    extractors,
    guidelines,
    jobs,
    leaderboard,
    pages,
    queue,
    reviewed,
    sites,
    upload,
)


def register_blueprints(app: Flask) -> None:
    for module in (queue, annotate, pages, api, upload, capture, leaderboard, sites, exports, jobs, extractors,
                   accounts, audit, adjudication, reviewed, agreement, checks, effort, guidelines, console):
        app.register_blueprint(module.bp)
