"""The figures' filter form, shared by the leaderboard's and the sites' pages: what it needs, and the
page that answers a metric unavailable here."""

from __future__ import annotations

from typing import Any

from flask import render_template

from ..annotation.page_filter import filter_choices
from ..results.leaderboard_figures import LeaderboardOptions
from . import app_settings, leaderboard_query
from .db import get_session
from .query_args import queried_filter
from .request_input import carried


def form_context(query: LeaderboardOptions) -> dict[str, Any]:
    """What the filter form needs: the choices, the current query, the query string to carry along."""
    return {
        "query": query,
        "metrics": app_settings.metrics(),
        "page_types": app_settings.settings().taxonomy.labels,
        "choices": filter_choices(get_session()),
        "args": carried(),
    }


def unavailable(error: leaderboard_query.MetricUnavailable) -> tuple[str, int]:
    """The figures' pages for an unavailable metric: the filters, to choose another, and why."""
    query = LeaderboardOptions(metric=error.metric.name, average=None, filters=queried_filter(),
                                 extractors=(), bootstrap=0, seed=0)
    page = render_template("leaderboard/unavailable.html", metric=error.metric, message=error.description,
                           **form_context(query))
    return page, error.code or 400
