"""Read the figures beside the leaderboard: the sites and page types table, a head-to-head of two
extractors, one extractor's worst pages, the accept guard, and the site rules' report. Each is one function
that the command line (cli/scores_commands.py: `goldtext compare`, `goldtext guard`) and the web
(web/figures.py, for views/leaderboard.py, views/sites.py and views/api.py) call alike, so both show one
result for the same options. The leaderboard itself is usecases/read_leaderboard.py.

The rules: anyone signed in reads them (the command line is an admin's); each takes the shared score
cache synced and held under its lock (`SharedScores.synced`; a command reads into a new one) and the
options of `read_leaderboard.leaderboard_request`; an unknown extractor or fingerprint, or an average the metric
lacks, is refused (400 naming it). Reading never writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from ..accounts.roles import ANNOTATOR
from ..annotation.page_filter import filter_choices
from ..extractors.extraction_service import SITE_RULES, stored_rules
from ..foundation.settings import Settings
from ..results.agreement_figures import mark_comparison
from ..results.cache import SharedScores
from ..results.composition_figures import composition_mark, mark_sides
from ..results.drift import acceptance_by_site_batch, drift_flags
from ..results.extractions import current_named, resolve_ref, texts_of
from ..results.guard_figures import guard_report
from ..results.leaderboard_figures import (
    LeaderboardOptions,
    head_to_head,
    leaderboard,
    leaderboard_extractors,
    leaderboard_pages,
    worst_pages,
)
from ..results.site_figures import mark_too_few, site_rows, type_rows
from ..results.site_rule_figures import rule_report
from .outcome import Refused, reads
from .read_leaderboard import drift, same_as

T = TypeVar("T")
RULES_FALLBACK = "trafilatura"
"""The extractor the site rules' report compares site-rules with (its fallback where no rule applies)."""


def _refused_as_400(figures: Callable[[], T]) -> T:
    try:
        return figures()
    except ValueError as error:
        raise Refused(400, str(error)) from None


@reads(ANNOTATOR)
def sites_figures(session: Session, settings: Settings, shared: SharedScores, options: LeaderboardOptions
                  ) -> dict[str, Any]:
    """The leaderboard by site, with one row per site and one per page type with main content: judged or
    not, best extractor, heat steps; and the drift flags."""

    def figures() -> dict[str, Any]:
        named = leaderboard_extractors(shared, options.metric,
                                       current_named(session, settings.registry, options.extractors),
                                       bool(options.extractors))
        twins = same_as(session, shared, named)
        grouped = {by: leaderboard(shared.cache, options.metric, named, average=options.average,
                                   filters=options.filters, by=by, bootstrap=options.bootstrap, seed=options.seed,
                                   same_as=twins)
                   for by in ("site", "type")}
        taxonomy, min_pages = settings.taxonomy, settings.min_site_pages
        with_content = {page_type: label for page_type, label in taxonomy.labels.items()
                        if taxonomy.has_content(page_type)}
        for grouped_leaderboard in grouped.values():
            mark_too_few(grouped_leaderboard, min_pages)
        by_site = grouped["site"]
        by_site["sites"] = site_rows(by_site, filter_choices(session)["sites"], min_pages)
        by_site["types"] = type_rows(grouped["type"], with_content, min_pages)
        by_site["drift"] = drift(session, settings, shared, options.extractors)
        return by_site

    return _refused_as_400(figures)


@reads(ANNOTATOR)
def compare_figures(session: Session, settings: Settings, shared: SharedScores, options: LeaderboardOptions, a: str,
                    b: str, top: int, *, with_texts: bool = False) -> dict[str, Any]:
    """The head-to-head of A and B (extractor names or stored fingerprints): wins, losses, ties, the
    paired bootstrap difference of F1 and whether it is within the annotators' noise, and the ``top``
    pages that changed most (with both texts of each, ``with_texts``)."""

    def figures() -> dict[str, Any]:
        first, second = resolve_ref(session, settings.registry, a), resolve_ref(session, settings.registry, b)
        result = head_to_head(shared.cache, options.metric, first, second, average=options.average,
                              filters=options.filters, bootstrap=options.bootstrap, seed=options.seed, top=top)
        mark_comparison(session, result,
                        leaderboard_pages(shared.cache, options.metric, [first[1], second[1]], options.filters))
        mark_sides(session, result)
        if with_texts:
            texts = texts_of(session, [c["page_id"] for c in result["changed"]], [first[1], second[1]])
            for change in result["changed"]:
                found = texts.get(change["page_id"], {})
                change["text_a"], change["text_b"] = found.get(first[1], ""), found.get(second[1], "")
        return result

    return _refused_as_400(figures)


@reads(ANNOTATOR)
def pages_figures(session: Session, settings: Settings, shared: SharedScores, options: LeaderboardOptions, ref: str,
                  limit: int) -> dict[str, Any]:
    """One extractor's pages under the filters, worst F1 first (at most ``limit``)."""

    def figures() -> dict[str, Any]:
        name, fingerprint = resolve_ref(session, settings.registry, ref)
        found = worst_pages(shared.cache, options.metric, fingerprint, options.filters, limit)
        return {"metric": options.metric, "extractor": name, "fingerprint": fingerprint,
                "composition": composition_mark(session, name), **found}

    return _refused_as_400(figures)


@reads(ANNOTATOR)
def guard_figures(session: Session, settings: Settings, options: LeaderboardOptions) -> dict[str, Any]:
    """The accept guard against the gold page types ("guard": the confusion matrix per extractor and its
    acceptance by site), the types to accept, the acceptance per site per import batch and the drift flags."""

    def figures() -> dict[str, Any]:
        named = current_named(session, settings.registry, options.extractors)
        rates = acceptance_by_site_batch(session, named)
        taxonomy = settings.taxonomy
        return {
            "threshold": settings.drift_threshold,
            "accept": [page_type for page_type in taxonomy.page_types if taxonomy.accepts(page_type)],
            "guard": guard_report(session, named, taxonomy, options.filters.sites),
            "acceptance_by_site_batch": {
                name: {site: [{"batch": r.batch, "accepted": r.accepted, "pages": r.pages, "rate": r.rate}
                              for r in batches] for site, batches in sites.items()}
                for name, sites in rates.items()
            },
            "drift": [f.as_dict() for f in drift_flags(rates, settings.drift_threshold)],
        }

    return _refused_as_400(figures)


@reads(ANNOTATOR)
def rules_figures(session: Session, settings: Settings, shared: SharedScores, options: LeaderboardOptions
                  ) -> dict[str, Any]:
    """Per site: site-rules' paths (rule, fallback, failed) and its F1 against its fallback's."""

    def figures() -> dict[str, Any]:
        named = current_named(session, settings.registry, (SITE_RULES, RULES_FALLBACK))
        rows = rule_report(session, shared.cache, options.metric, (SITE_RULES, named[SITE_RULES]),
                           (RULES_FALLBACK, named[RULES_FALLBACK]), set(stored_rules(session)))
        return {"metric": options.metric, "fingerprint": named[SITE_RULES], "sites": rows}

    return _refused_as_400(figures)
