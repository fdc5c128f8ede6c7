"""Site rules at work: per site, how often `site-rules` used its rule, fell back to the general
extractor or failed (from the extractions' recorded path), and the rule's score against the fallback's
on that site's gold pages (from the cached counts).

On a board of pages where no rule applied, `site-rules` is its fallback, trafilatura, under another name:
`fallback_twins` says so, and the leaderboard shows it as "site-rules = trafilatura (no rule applied)",
left out of the tiers (no ★, no tier of its own: its figures are the fallback's)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..extractors.extraction_service import SITE_RULES
from ..extractors.scored_output import scored, with_scored
from ..extractors.with_trafilatura import TRAFILATURA
from ..models import Extraction, Page, Site
from .cache import ScoreCache
from .leaderboard_figures import SameAs, leaderboard

PATHS = ("rules", "fallback", "failed")


def rule_paths(session: Session, fingerprint: str) -> dict[str, dict[str, int]]:
    """site -> {path: extractions} for the site-rules fingerprint's extractions."""
    rows = session.execute(
        with_scored(select(Site.host, scored("meta")).select_from(Extraction))  # the path of the output scored
        .join(Page, Page.id == Extraction.page_id)
        .join(Site, Site.id == Page.site_id)
        .where(Extraction.fingerprint == fingerprint)
    )
    tallies: dict[str, Counter] = {}
    for host, meta in rows:
        tallies.setdefault(host, Counter())[(meta or {}).get("path", "fallback")] += 1
    return {host: {path: counts[path] for path in PATHS} for host, counts in sorted(tallies.items())}


def rule_report(
    session: Session, cache: ScoreCache, metric: str, rules: tuple[str, str], fallback: tuple[str, str],
    ruled_hosts: set[str],
) -> list[dict[str, Any]]:
    """Per site with a rule or with site-rules extractions: paths taken, and F1 of the rule and of the
    fallback ((display name, fingerprint) each) over the site's gold pages both have scored."""
    paths = rule_paths(session, rules[1])
    named = dict([rules, fallback])
    by_site = leaderboard(cache, metric, named, by="site", bootstrap=0)["groups"]
    rows = []
    for host in sorted(set(paths) | ruled_hosts):
        group = by_site.get(host, {"pages": 0, "extractors": {}})
        figures = group["extractors"]
        rows.append(
            {
                "site": host,
                "has_rule": host in ruled_hosts,
                "paths": paths.get(host, dict.fromkeys(PATHS, 0)),
                "gold_pages": group["pages"],
                "rule_f1": figures.get(rules[0], {}).get("f1"),
                "fallback_f1": figures.get(fallback[0], {}).get("f1"),
            }
        )
    return rows


def ruled_pages(session: Session, fingerprint: str) -> frozenset[int]:
    """The pages on which the site-rules fingerprint's extraction used a rule (path "rules"), picked in SQL."""
    return frozenset(session.scalars(select(Extraction.page_id).where(
        Extraction.fingerprint == fingerprint, Extraction.meta["path"].as_string() == "rules")))


def fallback_twins(named: Mapping[str, str], ruled: Collection[int]) -> SameAs | None:
    """For a leaderboard of `named` (display name -> fingerprint): given a board's pages, {"site-rules":
    "trafilatura"} when site-rules is shown and used a rule on none of them (`ruled`: the pages it did,
    see ruled_pages), else {}; None when site-rules is not shown."""
    if SITE_RULES not in named:
        return None
    applied = frozenset(ruled)

    def same_as(pages: Sequence[Hashable]) -> dict[str, str]:
        return {} if any(page in applied for page in pages) else {SITE_RULES: TRAFILATURA.name}

    return same_as
