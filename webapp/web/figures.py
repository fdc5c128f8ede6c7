"""The figures the leaderboard and sites views show and the JSON API serves: the options string parsed
into the options of `goldtext score`, the shared score cache read under its lock, and the ETag of the
live refresh (the change log's epoch, the extraction epoch, the settings and the options: three rows read,
never a table scanned), answered with 304 before any work and without waiting for the cache's lock."""

from __future__ import annotations

import copy
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
from ..extractors.service import SITE_RULES, stored_rules
from ..jobs.start import refresh_job
from ..models import Job
from ..results.agreement import ceiling, mark_board, mark_comparison, noise_on
from ..results.anchoring import anchoring_of, board_movement, prefilled
from ..results.cache import ScoreCache, SharedScores
from ..results.drift import acceptance_by_site_batch, drift_flags
from ..results.extractions import current_named, resolve_ref, texts_of
from ..results.guard import guard_report
from ..results.leaderboard import (
    BoardOptions,
    SameAs,
    board_pages,
    head_to_head,
    leaderboard,
    leaderboard_with_extras,
    shown,
    worst_pages,
)
from ..results.site_rules import fallback_twins, rule_report, ruled_pages
from ..results.sites import mark_too_few, site_rows, type_rows
from ..results.store import epochs, stale_count
from ..scoring import Metric
from ..settings import Settings, settings_of
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
    """A registered metric that cannot be computed here (its package is missing): every view says so,
    with the install hint, and never waits for counts no worker can compute."""

    def __init__(self, metric: Metric) -> None:
        self.metric = metric
        super().__init__(description=unavailable_message(metric))


def unavailable_message(metric: Metric) -> str:
    return (f"The metric {metric.name} is unavailable: {metric.unavailable_reason or 'it cannot be computed here'}. "
            "Choose another metric, or install what it needs and restart Goldtext.")


SITES_RESAMPLES = 200
"""Bootstrap resamples of the sites and types tables by default: enough for a ★ (the best separated from the
second at 0.05, scoring/tiers.py), at a fifth of a leaderboard's cost."""


def board_options(bootstrap: int = 1000, needs_metric: bool = True) -> BoardOptions:
    """The options string's metric, average, filters, extractors, bootstrap and seed (400 when invalid;
    MetricUnavailable, a 400, when the figures need a metric that is unavailable here)."""
    args = request.args
    metric = args.get("metric") or "tokens"
    if metric not in metrics():
        abort(400, description=f"unknown metric {metric!r}; one of {', '.join(metrics())}")
    if needs_metric and not metrics()[metric].available:
        raise MetricUnavailable(metrics()[metric])
    return BoardOptions(
        metric=metric,
        average=args.get("average") or None,
        filters=page_filter(args),
        extractors=tuple(e for e in args.getlist("extractor") if e),
        bootstrap=int_arg("bootstrap", bootstrap, 0, BOOTSTRAP_MAX),
        seed=int_arg("seed", 0),
        unanchored=args.get("unanchored") in ("1", "on", "true"),
    )


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


def named_for(session: Session, options: BoardOptions) -> dict[str, str]:
    named = current_named(session, registry(), options.extractors)
    return shown(shared_scores(), options.metric, named, bool(options.extractors))


def drift(session: Session, options: BoardOptions) -> list[dict[str, Any]]:
    """The drift flags of the extractors asked for (all registered ones by default), scored or not:
    computed once per version of the extractions and threshold."""
    named = current_named(session, registry(), options.extractors)
    threshold = settings().drift_threshold
    shared = shared_scores()
    return shared.remembered(
        ("drift", tuple(named.items()), threshold),
        lambda: [flag.as_dict() for flag in drift_flags(acceptance_by_site_batch(session, named), threshold)],
        shared.cache.extraction_epoch,
    )


def same_as(session: Session, named: dict[str, str]) -> SameAs | None:
    """site-rules as its fallback on the boards where it applied no rule (results/site_rules.py), the pages
    where it did read once per version of the extractions."""
    if SITE_RULES not in named:
        return None
    fingerprint = named[SITE_RULES]
    shared = shared_scores()
    ruled = shared.remembered(("ruled", fingerprint), lambda: ruled_pages(session, fingerprint),
                              shared.cache.extraction_epoch)
    return fallback_twins(named, ruled)


def anchoring(session: Session, cache: ScoreCache, options: BoardOptions, named: dict[str, str],
              twins: dict[str, str]) -> dict[str, Any]:
    """The anchoring split, the movement and (with options.unanchored) the unanchored board
    (results/anchoring.py), computed once per version of the board's pages, scores and extractions; the
    prefilled golds and annotations read once per version of the scores, and each one's movement computed
    once per version of its text while no extraction changes. Read it, never change it."""
    shared = shared_scores()
    records = shared.remembered(("prefilled",), lambda: prefilled(session))
    known = shared.remembered(("movement",), dict, cache.extraction_epoch)  # filled by board_movement
    stamp, _ = cache.aligned_pages(options.metric, list(named.values()), options.filters)
    return shared.remembered(
        ("anchoring", options, tuple(named.items())),
        lambda: anchoring_of(cache, options, named, twins, records,
                             lambda pages: board_movement(session, cache, records, pages, known)),
        (stamp, cache.epoch, cache.extraction_epoch))


def leaderboard_of(options: BoardOptions) -> Compute:
    """`goldtext score --format json` plus "extras", "noise" (the annotators' noise, see
    results/agreement.py), "anchoring" (results/anchoring.py), "drift" and "pending"."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        named = named_for(session, options)
        result = leaderboard_with_extras(shared_scores(), options, named, same_as(session, named))
        result |= copy.deepcopy(anchoring(session, cache, options, named, result["same_as"]))
        noise, result["ceiling"] = agreement_on_board(session, cache, options, named)
        mark_board(result, noise)
        mark_too_few(result, settings().min_site_pages)
        result["drift"] = drift(session, options)
        result["pending"] = pending(session, options.metric)
        return result

    return compute


def agreement_on_board(session: Session, cache: ScoreCache, options: BoardOptions,
                       named: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(the annotators' noise, the human ceiling) on the board's pages, computed once per version of
    the change log (which annotation saves and voids move too) and of the board's pages."""
    fingerprints = list(named.values())
    stamp, _ = cache.aligned_pages(options.metric, fingerprints, options.filters)

    def compute() -> tuple[dict[str, Any], dict[str, Any] | None]:
        pages = board_pages(cache, options.metric, fingerprints, options.filters)
        return (noise_on(session, pages),
                ceiling(session, metrics()[options.metric], pages, options.bootstrap))

    key = ("agreement", options.metric, tuple(fingerprints), options.filters, options.bootstrap)
    return shared_scores().remembered(key, compute, (cache.epoch, stamp))


def pending(session: Session, metric: str) -> int:
    """How many extractions lack this lazy metric's counts (0 for an eager or unavailable one), counted
    once per version of the scores and extractions. Reading never starts the refresh: the leaderboard
    offers it (start_refresh, a POST), and saves and extraction runs keep eager metrics current."""
    definition = metrics()[metric]
    if definition.eager or not definition.available:
        return 0
    cache = shared_scores().cache
    no_content = settings().taxonomy.no_content
    return shared_scores().remembered(("pending", metric), lambda: stale_count(session, definition, no_content),
                                      (cache.epoch, cache.extraction_epoch))


def start_refresh(session: Session, metric: str) -> tuple[Job, bool]:
    """The refresh job computing a lazy metric's missing counts: the open one, or a new one (True); the
    caller audits, commits, then dispatches a new one."""
    definition = metrics().get(metric)
    if definition is None or definition.eager:
        abort(400, description=f"{metric!r} is not a metric computed by a refresh job; one of "
                               f"{', '.join(name for name, m in metrics().items() if not m.eager)}")
    if not definition.available:
        raise MetricUnavailable(definition)
    return refresh_job(session, current_app, metric, "leaderboard")


def sites_of(options: BoardOptions) -> Compute:
    """`goldtext score --by site` plus one row per site and one per page type with main content: judged
    or not, best extractor, heat steps."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        named = named_for(session, options)
        twins = same_as(session, named)
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
        by_site["drift"] = drift(session, options)
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
