"""The figures the leaderboard and sites views show and the JSON API serves: the query string read into
the options of the leaderboard's use case (usecases/read_board.py, which holds the rules of reading a
leaderboard: `goldtext score` calls it too), the shared score cache read under its lock, and the ETag of the
live refresh (the change log's epoch, the extraction epoch, the settings and the options: three rows read,
never a table scanned), answered with 304 before any work and without waiting for the cache's lock."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from flask import abort, current_app, jsonify, request
from sqlalchemy.orm import Session
from werkzeug.exceptions import BadRequest
from werkzeug.wrappers import Response

from ..annotation.page_filter import filter_choices
from ..db import get_session
from ..extractors.base import Extractor
from ..extractors.extraction_service import SITE_RULES, stored_rules
from ..jobs.start import refresh_job
from ..models import Job
from ..results.agreement_figures import mark_comparison
from ..results.cache import ScoreCache, SharedScores
from ..results.drift import acceptance_by_site_batch, drift_flags
from ..results.extractions import current_named, resolve_ref, texts_of
from ..results.guard_figures import guard_report
from ..results.leaderboard_figures import (
    BoardOptions,
    board_extractors,
    board_pages,
    head_to_head,
    leaderboard,
    worst_pages,
)
from ..results.site_figures import mark_too_few, site_rows, type_rows
from ..results.site_rule_figures import rule_report
from ..results.store import epochs
from ..scoring import Metric
from ..settings import Settings, settings_of
from ..usecases.outcome import Refused
from ..usecases.read_board import MetricUnavailable as Unavailable
from ..usecases.read_board import board_request, drift, leaderboard_figures, same_as
from .query_args import int_arg, page_filter

BOOTSTRAP_MAX = 10_000
TOP_MAX = 200
FALLBACK = "trafilatura"

Compute = Callable[[Session, ScoreCache], dict[str, Any]]


def settings() -> Settings:
    """What the app's settings decide (webapp/settings.py)."""
    return settings_of(current_app)


def shared_scores() -> SharedScores:
    """The process's score cache."""
    return settings().shared


def metrics() -> Mapping[str, Metric]:
    """The app's metric registry."""
    return settings().metrics


def registry() -> Mapping[str, Extractor]:
    """The app's extractor registry, built once (read-only)."""
    return settings().registry


class MetricUnavailable(BadRequest):
    """The use case's refusal of a metric that cannot be computed here (usecases/read_board.py), as a 400
    each figures page answers with its own form and the install hint."""

    def __init__(self, refused: Unavailable) -> None:
        self.metric = refused.metric
        super().__init__(description=refused.reason)


SITES_RESAMPLES = 200
"""Bootstrap resamples of the sites and types tables by default: enough for a ★ (the best separated from the
second at 0.05, scoring/tiers.py), at a fifth of a leaderboard's cost."""


def board_options(bootstrap: int = 1000, needs_metric: bool = True) -> BoardOptions:
    """The options string read into the leaderboard's options (usecases/read_board.py `board_request`):
    400 when invalid, MetricUnavailable when the figures need a metric that is unavailable here."""
    args = request.args
    try:
        return board_request(settings(), metric=args.get("metric"), average=args.get("average"),
                             filters=page_filter(args), extractors=tuple(e for e in args.getlist("extractor") if e),
                             bootstrap=int_arg("bootstrap", bootstrap, 0, BOOTSTRAP_MAX), seed=int_arg("seed", 0),
                             by=args.get("by") or None, unanchored=args.get("unanchored") in ("1", "on", "true"),
                             needs_metric=needs_metric)
    except Unavailable as refused:
        raise MetricUnavailable(refused) from None
    except Refused as refused:
        abort(400, description=refused.reason)


def computed(compute: Compute) -> dict[str, Any]:
    """compute(session, cache) with the cache synced and locked; a ValueError (an unknown extractor,
    an average the metric lacks) is the client's mistake: 400."""
    session = get_session()
    with shared_scores().synced(session) as cache:
        try:
            return compute(session, cache)
        except ValueError as error:
            abort(400, description=str(error))


def settings_state() -> str:
    """What of the settings and the metric registry the figures depend on: the drift threshold
    (DRIFT_THRESHOLD_POINTS), the too-few rule (LEADERBOARD_MIN_SITE_PAGES), the page types (PAGE_TYPES,
    NO_CONTENT_TYPES, GUARD_ACCEPT_TYPES), and the metrics' versions and availability."""
    found = settings()
    versions = [(name, m.version, m.available) for name, m in metrics().items()]
    return repr((found.drift_threshold, found.min_site_pages, found.taxonomy, versions))


def live_tag(session: Session) -> str:
    """Changes whenever a figure these options show may have: the scores or gold (the change log's
    epoch), the extractions or the extractors' definitions (the extraction epoch), the settings, or the
    options. One read of three rows, whatever the size of the corpus."""
    score_epoch, _, extraction_epoch = epochs(session)
    state = f"{score_epoch}|{extraction_epoch}|{settings_state()}|{request.full_path}"
    return hashlib.sha256(state.encode()).hexdigest()[:32]


def conditional(compute: Compute, render: Callable[[dict[str, Any]], Response] = jsonify) -> Response:
    """The rendered figures with their ETag, or 304 Not Modified when unchanged: the tag is read before
    the cache's lock, so a poll never waits for a request that is building figures. The tag is read
    before the figures, which are then at least as new as it says (a newer change shows at the next
    poll)."""
    session = get_session()
    tag = live_tag(session)
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        with shared_scores().synced(session) as cache:
            try:
                data = compute(session, cache)
            except ValueError as error:
                abort(400, description=str(error))
        response = render(data)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def leaderboard_of(options: BoardOptions) -> Compute:
    """The leaderboard's figures: its use case, `goldtext score --format json` (usecases/read_board.py)."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        try:
            return leaderboard_figures(session, settings(), shared_scores(), options)
        except Refused as refused:
            abort(400, description=refused.reason)

    return compute


def start_refresh(session: Session, metric: str) -> tuple[Job, bool]:
    """The refresh job computing a lazy metric's missing counts: the open one, or a new one (True); the
    caller audits, commits, then dispatches a new one."""
    definition = metrics().get(metric)
    if definition is None or definition.eager:
        abort(400, description=f"{metric!r} is not a metric computed by a refresh job; one of "
                               f"{', '.join(name for name, m in metrics().items() if not m.eager)}")
    if not definition.available:
        raise MetricUnavailable(Unavailable(definition))
    return refresh_job(session, current_app, metric, "leaderboard")


def sites_of(options: BoardOptions) -> Compute:
    """`goldtext score --by site` plus one row per site and one per page type with main content: judged
    or not, best extractor, heat steps."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        named = board_extractors(shared_scores(), options.metric,
                                 current_named(session, registry(), options.extractors), bool(options.extractors))
        twins = same_as(session, shared_scores(), named)
        grouped = {by: leaderboard(cache, options.metric, named, average=options.average, filters=options.filters,
                                   by=by, bootstrap=options.bootstrap, seed=options.seed, same_as=twins)
                   for by in ("site", "kind")}
        by_site = grouped["site"]
        hosts = filter_choices(session)["sites"]
        min_pages = settings().min_site_pages
        taxonomy = settings().taxonomy
        with_content = {kind: label for kind, label in taxonomy.labels.items() if taxonomy.has_content(kind)}
        for grouped_board in grouped.values():
            mark_too_few(grouped_board, min_pages)
        by_site["sites"] = site_rows(by_site, hosts, min_pages)
        by_site["types"] = type_rows(grouped["kind"], with_content, min_pages)
        by_site["drift"] = drift(session, settings(), shared_scores(), options.extractors)
        return by_site

    return compute


def compare_of(options: BoardOptions, a: str, b: str, top: int) -> Compute:
    """`goldtext compare A B --format json` (with "noise") plus both texts of every listed page."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        first, second = resolve_ref(session, registry(), a), resolve_ref(session, registry(), b)
        result = head_to_head(cache, options.metric, first, second, average=options.average,
                              filters=options.filters, bootstrap=options.bootstrap, seed=options.seed, top=top)
        mark_comparison(session, result, board_pages(cache, options.metric, [first[1], second[1]], options.filters))
        texts = texts_of(session, [c["page_id"] for c in result["changed"]], [first[1], second[1]])
        for change in result["changed"]:
            found = texts.get(change["page_id"], {})
            change["text_a"], change["text_b"] = found.get(first[1], ""), found.get(second[1], "")
        return result

    return compute


def pages_of(options: BoardOptions, ref: str, limit: int) -> Compute:
    """One extractor's pages under the filters, worst F1 first."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        name, fp = resolve_ref(session, registry(), ref)
        found = worst_pages(cache, options.metric, fp, options.filters, limit)
        return {"metric": options.metric, "extractor": name, "fingerprint": fp, **found}

    return compute


def guard_of(options: BoardOptions) -> Compute:
    """`goldtext guard --format json` plus the types to accept, acceptance per site per batch and the
    drift flags."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        named = current_named(session, registry(), options.extractors)
        rates = acceptance_by_site_batch(session, named)
        taxonomy = settings().taxonomy
        return {
            "threshold": settings().drift_threshold,
            "accept": [kind for kind in taxonomy.kinds if taxonomy.accepts(kind)],
            "guard": guard_report(session, named, taxonomy, options.filters.sites),
            "acceptance_by_site_batch": {
                name: {site: [{"batch": r.batch, "accepted": r.accepted, "pages": r.pages, "rate": r.rate}
                              for r in batches] for site, batches in sites.items()}
                for name, sites in rates.items()
            },
            "drift": [f.as_dict() for f in drift_flags(rates, settings().drift_threshold)],
        }

    return compute


def rules_of(options: BoardOptions) -> Compute:
    """Per site: site-rules' paths (rule, fallback, failed) and its F1 against the fallback's."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        named = current_named(session, registry(), (SITE_RULES, FALLBACK))
        rows = rule_report(session, cache, options.metric, (SITE_RULES, named[SITE_RULES]),
                           (FALLBACK, named[FALLBACK]), set(stored_rules(session)))
        return {"metric": options.metric, "fingerprint": named[SITE_RULES], "sites": rows}

    return compute
