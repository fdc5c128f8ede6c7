"""The query string of a figures page or of the JSON API read into the options of the leaderboard's use case
(usecases/read_leaderboard.py `leaderboard_request`): 400 when invalid, MetricUnavailable (a 400 each figures page
answers with its own form and the install hint) when the figures need a metric unavailable here."""

from __future__ import annotations

from flask import abort
from werkzeug.exceptions import BadRequest

from ..results.leaderboard_figures import LeaderboardOptions
from ..scoring.agreement_maths import GROUPINGS
from ..usecases.outcome import Refused
from ..usecases.read_leaderboard import MetricUnavailable as Unavailable
from ..usecases.read_leaderboard import leaderboard_request
from .app_settings import settings
from .query_args import PAGE_FILTER, page_filter
from .request_input import FLAG, TEXT, TEXTS, Form, one_of, query, whole

BOOTSTRAP_MAX = 10_000
TOP_MAX = 200


class MetricUnavailable(BadRequest):
    """The use case's refusal of a metric that cannot be computed here (usecases/read_leaderboard.py), as a 400
    each figures page answers with its own form and the install hint."""

    def __init__(self, refused: Unavailable) -> None:
        self.metric = refused.metric
        super().__init__(description=refused.reason)


PAGES_LIMIT = 100
PAGES_QUERY = Form({"extractor": TEXT, "limit": whole(1, 10_000)}, {"extractor": "", "limit": PAGES_LIMIT})
"""One extractor's pages worst first: the extractor (a name or a stored fingerprint), how many pages."""
COMPARE_QUERY = Form({"a": TEXT, "b": TEXT, "top": whole(0, TOP_MAX)}, {"a": "", "b": "", "top": 20})
"""A head-to-head: two extractors or fingerprints, how many of the pages they differ most on."""
AGREEMENT_QUERY = Form({"by": one_of(*GROUPINGS)})
"""The agreement's grouping."""
STRUCTURE_TESTS_QUERY = Form({"extractor": TEXTS})
"""The extractors whose newest extraction a page's structure tests are run against (none: every one)."""

SITES_RESAMPLES = 200
"""Bootstrap resamples of the sites and types tables by default: enough for a ★ (the best separated from the
second at 0.05, scoring/tiers.py), at a fifth of a leaderboard's cost."""


def leaderboard_query(bootstrap: int) -> Form:
    """The figures' query string: the page filter, the metric and its average, the extractors, the bootstrap's
    resamples (``bootstrap`` by default) and seed, a grouping and `unanchored`."""
    return Form({**PAGE_FILTER.fields, "metric": TEXT, "average": TEXT, "extractor": TEXTS,
                 "bootstrap": whole(0, BOOTSTRAP_MAX), "seed": whole(), "by": TEXT, "unanchored": FLAG},
                {"bootstrap": bootstrap, "seed": 0})


def leaderboard_options(bootstrap: int = 1000, needs_metric: bool = True) -> LeaderboardOptions:
    """The query string read into the leaderboard's options (usecases/read_leaderboard.py `leaderboard_request`):
    400 when invalid, MetricUnavailable when the figures need a metric that is unavailable here."""
    args = query(leaderboard_query(bootstrap))
    try:
        return leaderboard_request(settings(), metric=args["metric"], average=args["average"],
                                   filters=page_filter(args), extractors=tuple(args["extractor"]),
                                   bootstrap=args["bootstrap"], seed=args["seed"], by=args["by"],
                                   unanchored=args["unanchored"], needs_metric=needs_metric)
    except Unavailable as refused:
        raise MetricUnavailable(refused) from None
    except Refused as refused:
        abort(400, description=refused.reason)
