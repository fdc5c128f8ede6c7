"""Read a leaderboard: every extractor's figures against the gold under a metric, its average, a page
filter and a bootstrap. Every face reads it with `leaderboard_figures` (under the shared score cache's lock,
or through `read_leaderboard`, which takes it): `goldtext score` (cli/scores_commands.py), `GET /api/leaderboard`
(views/api.py) and the leaderboard page and its live table (views/leaderboard.py), so the three show one
result for the same options.

The rules: the metric is registered (400 naming the ones there are) and, unless the figures need none,
can be computed here (`MetricUnavailable`, a 400 with the install hint); the extractors shown are those
asked for, else every registered one with scores at its current version (the others are listed as
"not run"); an unknown extractor, an average the metric lacks or a grouping that is not one is refused
(400), and so are the unanchored figures by group. Beside each extractor's figures
(`results/leaderboard_figures.py`; site-rules where it applied no rule marked as its fallback, "same_as"): its
acceptance and median time ("extras"), the anchoring split and the movement from the prefill
(`results/anchoring.py`), the annotators' noise and human ceiling (`results/agreement_figures.py`), whether the
pages are too few to judge (LEADERBOARD_MIN_SITE_PAGES), the drift flags (DRIFT_THRESHOLD_POINTS), how
many extractions still lack a lazy metric's counts ("pending"), the compositions shown with their parts and the
gold pages they lack ("compositions"), the extractions made by an older version of an extractor ("outdated") and
the best cascade of two with its leave-one-out figure ("best_cascade"; results/composition_figures.py). Reading
never starts a refresh and never writes."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from ..accounts.roles import ANNOTATOR
from ..annotation.page_filter import PageFilter
from ..extractors.composition_rows import stored_compositions
from ..extractors.extraction_service import SITE_RULES, known_now
from ..extractors.registry import METADATA_ONLY
from ..foundation.settings import Settings
from ..results.agreement_figures import ceiling, mark_leaderboard, noise_on
from ..results.anchoring import anchoring_of, leaderboard_movement, prefilled
from ..results.cache import SharedScores
from ..results.composition_figures import best_cascade_of, compositions_shown, outdated
from ..results.drift import acceptance_by_site_batch, drift_flags
from ..results.extractions import current_named
from ..results.leaderboard_figures import (
    GROUPINGS,
    LeaderboardOptions,
    SameAs,
    leaderboard_extractors,
    leaderboard_pages,
    leaderboard_with_extras,
)
from ..results.site_figures import mark_too_few
from ..results.site_rule_figures import fallback_twins, ruled_pages
from ..results.store import stale_count
from ..scoring import Metric
from .outcome import Refused, reads


class MetricUnavailable(Refused):
    """A registered metric that cannot be computed here (its package is missing): every face says so,
    with the install hint, and never waits for counts no worker can compute."""

    def __init__(self, metric: Metric) -> None:
        super().__init__(400, f"The metric {metric.name} is unavailable: "
                              f"{metric.unavailable_reason or 'it cannot be computed here'}. Choose another metric, "
                              "or install what it needs and restart Goldtext.")
        self.metric = metric


METADATA_METRICS = ("title", "authors", "published")
"""The metrics of the article's metadata, one per field, which the leaderboard's Metadata view shows together."""

DEFAULT_METRIC = "tokens"
"""The leaderboard's own metric: the one a board reads when none is named (and the lead's console scores
control pages in)."""

OLD_GROUPINGS = {"annotator": "author", "kind": "type"}
"""Groupings' old names, read as the new ones for one release."""


def leaderboard_request(settings: Settings, *, metric: str | None = None, average: str | None = None,
                        filters: PageFilter = PageFilter(), extractors: tuple[str, ...] = (), bootstrap: int = 1000,
                        seed: int = 0, by: str | None = None, unanchored: bool = False,
                        needs_metric: bool = True) -> LeaderboardOptions:
    """The options of a leaderboard (metric: tokens by default); Refused (400) or MetricUnavailable."""
    metric = metric or DEFAULT_METRIC
    if metric not in settings.metrics:
        raise Refused(400, f"unknown metric {metric!r}; one of {', '.join(settings.metrics)}")
    if needs_metric and not settings.metrics[metric].available:
        raise MetricUnavailable(settings.metrics[metric])
    by = OLD_GROUPINGS.get(by or "", by)
    if by is not None and by not in GROUPINGS:
        raise Refused(400, f"unknown grouping {by!r}; one of {', '.join(GROUPINGS)}")
    if unanchored and by is not None:
        raise Refused(400, "--unanchored and --by cannot be combined: the unanchored figures are of the whole "
                           "board")
    return LeaderboardOptions(metric=metric, average=average or None, filters=filters, extractors=extractors,
                              bootstrap=bootstrap, seed=seed, by=by, unanchored=unanchored)


@reads(ANNOTATOR)
def read_leaderboard(session: Session, settings: Settings, options: LeaderboardOptions,
                     shared: SharedScores | None = None) -> dict[str, Any]:
    """`leaderboard_figures` with the score cache (the process's shared one by default; a command, whose
    process ends with it, reads into a new one) caught up with the change log and locked."""
    shared = settings.shared if shared is None else shared
    with shared.synced(session):
        return leaderboard_figures(session, settings, shared, options)


@reads(ANNOTATOR)
def leaderboard_figures(session: Session, settings: Settings, shared: SharedScores,
                        options: LeaderboardOptions) -> dict[str, Any]:
    """The leaderboard by the rules above (``shared``: the score cache, synced and held under its lock);
    Refused (400)."""
    try:
        named = current_named(session, settings.registry, options.extractors)
        board = leaderboard_extractors(shared, options.metric, named, bool(options.extractors))
        result = leaderboard_with_extras(shared, options, board, same_as(session, shared, board))
        result |= copy.deepcopy(anchoring(session, shared, options, board, result["same_as"]))
    except ValueError as error:
        raise Refused(400, str(error)) from None
    result["not_run"] = [name for name in named if name not in board
                         and on_leaderboard_of(settings, settings.metrics[options.metric], name)]
    result |= versions_and_compositions(session, settings, shared, options, named, board)
    noise, result["ceiling"] = agreement_on_leaderboard(session, settings, shared, options, board)
    mark_leaderboard(result, noise)
    mark_too_few(result, settings.min_site_pages)
    result["drift"] = drift(session, settings, shared, options.extractors)
    result["pending"] = pending(session, settings, shared, options.metric)
    return result


def versions_and_compositions(session: Session, settings: Settings, shared: SharedScores, options: LeaderboardOptions,
                              named: Mapping[str, str], board: Mapping[str, str]) -> dict[str, Any]:
    """The compositions shown, marked with their parts and the gold pages they lack; the extractions made by an
    older version of an extractor; the best cascade of two of the board's extractors that are not compositions
    (results/composition_figures.py). Each computed once per version of the data it reads."""
    cache = shared.cache
    composed = {composition.name for composition in stored_compositions(session)}
    shown = shared.remembered(
        ("compositions", tuple(board.items())),
        lambda: compositions_shown(session, known_now(session, settings.registry), list(board)),
        (cache.epoch, cache.extraction_epoch))
    old = shared.remembered(("outdated", tuple(named.items())), lambda: outdated(session, named),
                            (cache.epoch, cache.extraction_epoch))
    plain = {name: fp for name, fp in board.items() if name not in composed}
    stamp, _ = cache.aligned_pages(options.metric, list(plain.values()), options.filters)
    best = shared.remembered(
        ("best-cascade", options.metric, options.average, tuple(plain.items()), options.filters),
        lambda: best_cascade_of(cache, options.metric, options.average, plain, options.filters),
        (stamp, cache.epoch))
    return {"compositions": copy.deepcopy(shown), "outdated": copy.deepcopy(old), "best_cascade": copy.deepcopy(best)}


def on_leaderboard_of(settings: Settings, metric: Metric, name: str) -> bool:
    """Whether the extractor can be on this metric's board (else it is not "not run" there either): a metadata
    metric's board holds the extractors that give its field (a variant the registry does not hold counts as
    giving it), a text metric's those that give text (not METADATA_ONLY's)."""
    if metric.needs != "metadata":
        return name not in METADATA_ONLY
    extractor = settings.registry.get(name)
    return extractor is None or metric.metadata_field in extractor.article_fields


@reads(ANNOTATOR)
def metadata_figures(session: Session, settings: Settings, shared: SharedScores,
                     options: LeaderboardOptions) -> dict[str, Any]:
    """The Metadata view: the leaderboard of each metadata field (`METADATA_METRICS`, those registered), each
    extractor that gives the field on the pages that annotate it, overall and by page type, with the options'
    filters, extractors and bootstrap (its metric, average, grouping and unanchored set per field): {"fields":
    {metric: leaderboard}}."""
    fields = {}
    for metric in METADATA_METRICS:
        if metric in settings.metrics:
            fields[metric] = leaderboard_figures(session, settings, shared, replace(
                options, metric=metric, average=None, by="type", unanchored=False))
    return {"fields": fields}


def agreement_on_leaderboard(session: Session, settings: Settings, shared: SharedScores, options: LeaderboardOptions,
                             named: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(the annotators' noise, the human ceiling) on the board's pages, computed once per version of
    the change log (which annotation saves and voids move too) and of the board's pages."""
    cache = shared.cache
    fingerprints = list(named.values())
    stamp, _ = cache.aligned_pages(options.metric, fingerprints, options.filters)

    def compute() -> tuple[dict[str, Any], dict[str, Any] | None]:
        pages = leaderboard_pages(cache, options.metric, fingerprints, options.filters)
        return (noise_on(session, pages),
                ceiling(session, settings.metrics[options.metric], pages, options.bootstrap))

    key = ("agreement", options.metric, tuple(fingerprints), options.filters, options.bootstrap)
    return shared.remembered(key, compute, (cache.epoch, stamp))


def same_as(session: Session, shared: SharedScores, named: dict[str, str]) -> SameAs | None:
    """site-rules as its fallback on the boards where it applied no rule (results/site_rule_figures.py), the pages
    where it did read once per version of the extractions."""
    if SITE_RULES not in named:
        return None
    fingerprint = named[SITE_RULES]
    ruled = shared.remembered(("ruled", fingerprint), lambda: ruled_pages(session, fingerprint),
                              shared.cache.extraction_epoch)
    return fallback_twins(named, ruled)


def anchoring(session: Session, shared: SharedScores, options: LeaderboardOptions, named: dict[str, str],
              twins: dict[str, str]) -> dict[str, Any]:
    """The anchoring split, the movement and (with options.unanchored) the unanchored board
    (results/anchoring.py), computed once per version of the board's pages, scores and extractions; the
    prefilled golds and annotations read once per version of the scores, and each one's movement computed
    once per version of its text while no extraction changes. Read it, never change it."""
    cache = shared.cache
    records = shared.remembered(("prefilled",), lambda: prefilled(session))
    known = shared.remembered(("movement",), dict, cache.extraction_epoch)  # filled by leaderboard_movement
    stamp, _ = cache.aligned_pages(options.metric, list(named.values()), options.filters)
    return shared.remembered(
        ("anchoring", options, tuple(named.items())),
        lambda: anchoring_of(cache, options, named, twins, records,
                             lambda pages: leaderboard_movement(session, cache, records, pages, known)),
        (stamp, cache.epoch, cache.extraction_epoch))


def drift(session: Session, settings: Settings, shared: SharedScores,
          extractors: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The drift flags of the extractors asked for (all registered ones by default), scored or not:
    computed once per version of the extractions and threshold."""
    named = current_named(session, settings.registry, extractors)
    threshold = settings.drift_threshold
    return shared.remembered(
        ("drift", tuple(named.items()), threshold),
        lambda: [flag.as_dict() for flag in drift_flags(acceptance_by_site_batch(session, named), threshold)],
        shared.cache.extraction_epoch,
    )


def pending(session: Session, settings: Settings, shared: SharedScores, metric: str) -> int:
    """How many extractions lack this lazy metric's counts (0 for an eager or unavailable one), counted
    once per version of the scores and extractions. Reading never starts the refresh: the leaderboard
    offers it (a POST), and saves and extraction runs keep eager metrics current."""
    definition = settings.metrics[metric]
    if definition.eager or not definition.available:
        return 0
    no_content = settings.taxonomy.no_content
    return shared.remembered(("pending", metric), lambda: stale_count(session, definition, no_content),
                             (shared.cache.epoch, shared.cache.extraction_epoch))
