"""The query string of a figures page or of the JSON API read into the options of the leaderboard's use case
(usecases/read_leaderboard.py `leaderboard_request`): 400 when invalid, MetricUnavailable (a 400 each figures page
answers with its own form and the install hint) when the figures need a metric unavailable here."""

from __future__ import annotations

from flask import abort, request
from werkzeug.exceptions import BadRequest

from ..results.leaderboard_figures import LeaderboardOptions
from ..usecases.outcome import Refused
from ..usecases.read_leaderboard import MetricUnavailable as Unavailable
from ..usecases.read_leaderboard import leaderboard_request
from .app_settings import settings
from .query_args import int_arg, page_filter

BOOTSTRAP_MAX = 10_000
TOP_MAX = 200


class MetricUnavailable(BadRequest):
    """The use case's refusal of a metric that cannot be computed here (usecases/read_leaderboard.py), as a 400
    each figures page answers with its own form and the install hint."""

    def __init__(self, refused: Unavailable) -> None:
        self.metric = refused.metric
        super().__init__(description=refused.reason)


SITES_RESAMPLES = 200
"""Bootstrap resamples of the sites and types tables by default: enough for a ★ (the best separated from the
second at 0.05, scoring/tiers.py), at a fifth of a leaderboard's cost."""


def leaderboard_options(bootstrap: int = 1000, needs_metric: bool = True) -> LeaderboardOptions:
    """The options string read into the leaderboard's options (usecases/read_leaderboard.py `leaderboard_request`):
    400 when invalid, MetricUnavailable when the figures need a metric that is unavailable here."""
    args = request.args
    try:
        return leaderboard_request(settings(), metric=args.get("metric"), average=args.get("average"),
                                   filters=page_filter(args),
                                   extractors=tuple(e for e in args.getlist("extractor") if e),
                                   bootstrap=int_arg("bootstrap", bootstrap, 0, BOOTSTRAP_MAX), seed=int_arg("seed", 0),
                                   by=args.get("by") or None, unanchored=args.get("unanchored") in ("1", "on", "true"),
                                   needs_metric=needs_metric)
    except Unavailable as refused:
        raise MetricUnavailable(refused) from None
    except Refused as refused:
        abort(400, description=refused.reason)
