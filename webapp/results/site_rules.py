"""Site rules at work: per site, how often `site-rules` used its rule, fell back to the general
extractor or failed (from the extractions' recorded path), and the rule's score against the fallback's
on that site's gold pages (from the cached counts)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Extraction, Page, Site
from .cache import ScoreCache
from .leaderboard import leaderboard

PATHS = ("rules", "fallback", "failed")


def rule_paths(session: Session, fingerprint: str) -> dict[str, dict[str, int]]:
    """site -> {path: extractions} for the site-rules fingerprint's extractions."""
    rows = session.execute(
        select(Site.host, Extraction.meta)
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
