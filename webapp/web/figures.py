"""The figures the leaderboard and sites views show and the JSON API serves, each a Compute
(web/live_answers.py) over the shared score cache: the leaderboard (its use case, usecases/read_board.py,
which `goldtext score` calls too), the sites and types tables, a head-to-head, one extractor's worst pages,
the guard and drift, and the site rules' report."""

from __future__ import annotations

from typing import Any

from flask import abort
from sqlalchemy.orm import Session

from ..annotation.page_filter import filter_choices
from ..extractors.extraction_service import SITE_RULES, stored_rules
from ..results.agreement_figures import mark_comparison
from ..results.cache import ScoreCache
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
from ..usecases.outcome import Refused
from ..usecases.read_board import drift, leaderboard_figures, metadata_figures, same_as
from .app_settings import registry, settings, shared_scores
from .live_answers import Compute

FALLBACK = "trafilatura"


def leaderboard_of(options: BoardOptions) -> Compute:
    """The leaderboard's figures: its use case, `goldtext score --format json` (usecases/read_board.py)."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        try:
            return leaderboard_figures(session, settings(), shared_scores(), options)
        except Refused as refused:
            abort(400, description=refused.reason)

    return compute


def metadata_of(options: BoardOptions) -> Compute:
    """The leaderboard's Metadata view: the board of each metadata field, overall and by page type
    (usecases/read_board.py `metadata_figures`)."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        try:
            return metadata_figures(session, settings(), shared_scores(), options)
        except Refused as refused:
            abort(400, description=refused.reason)

    return compute


def sites_of(options: BoardOptions) -> Compute:
    """`goldtext score --by site` plus one row per site and one per page type with main content: judged
    or not, best extractor, heat steps."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        named = board_extractors(shared_scores(), options.metric,
                                 current_named(session, registry(), options.extractors), bool(options.extractors))
        twins = same_as(session, shared_scores(), named)
        grouped = {by: leaderboard(cache, options.metric, named, average=options.average, filters=options.filters,
                                   by=by, bootstrap=options.bootstrap, seed=options.seed, same_as=twins)
                   for by in ("site", "type")}
        by_site = grouped["site"]
        hosts = filter_choices(session)["sites"]
        min_pages = settings().min_site_pages
        taxonomy = settings().taxonomy
        with_content = {page_type: label for page_type, label in taxonomy.labels.items()
                        if taxonomy.has_content(page_type)}
        for grouped_board in grouped.values():
            mark_too_few(grouped_board, min_pages)
        by_site["sites"] = site_rows(by_site, hosts, min_pages)
        by_site["types"] = type_rows(grouped["type"], with_content, min_pages)
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
            "accept": [page_type for page_type in taxonomy.page_types if taxonomy.accepts(page_type)],
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
