"""The figures the leaderboard and sites views show and the JSON API serves, each a Compute
(web/live_answers.py) over the shared score cache: the leaderboard (usecases/read_leaderboard.py) and the sites
and types tables, a head-to-head, one extractor's worst pages, the guard and drift, and the site rules'
report (usecases/read_figures.py), the same use cases `goldtext score`, `compare` and `guard` call."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..results.cache import ScoreCache
from ..results.leaderboard_figures import LeaderboardOptions
from ..usecases import read_figures
from ..usecases.read_leaderboard import leaderboard_figures, metadata_figures
from .app_settings import settings, shared_scores
from .live_answers import Compute


def leaderboard_of(options: LeaderboardOptions) -> Compute:
    """The leaderboard's figures: its use case, `goldtext score --format json` (usecases/read_leaderboard.py)."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        return leaderboard_figures(session, settings(), shared_scores(), options)

    return compute


def metadata_of(options: LeaderboardOptions) -> Compute:
    """The leaderboard's Metadata view: the board of each metadata field, overall and by page type
    (usecases/read_leaderboard.py `metadata_figures`)."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        return metadata_figures(session, settings(), shared_scores(), options)

    return compute


def sites_of(options: LeaderboardOptions) -> Compute:
    """`goldtext score --by site` plus one row per site and one per page type with main content."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        return read_figures.sites_figures(session, settings(), shared_scores(), options)

    return compute


def compare_of(options: LeaderboardOptions, a: str, b: str, top: int) -> Compute:
    """`goldtext compare A B --format json` (with "noise") plus both texts of every listed page."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        return read_figures.compare_figures(session, settings(), shared_scores(), options, a, b, top,
                                            with_texts=True)

    return compute


def pages_of(options: LeaderboardOptions, ref: str, limit: int) -> Compute:
    """One extractor's pages under the filters, worst F1 first."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        return read_figures.pages_figures(session, settings(), shared_scores(), options, ref, limit)

    return compute


def guard_of(options: LeaderboardOptions) -> Compute:
    """`goldtext guard --format json` ("guard") plus the types to accept, acceptance per site per batch and
    the drift flags."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        return read_figures.guard_figures(session, settings(), options)

    return compute


def rules_of(options: LeaderboardOptions) -> Compute:
    """Per site: site-rules' paths (rule, fallback, failed) and its F1 against the fallback's."""

    def compute(session: Session, cache: ScoreCache) -> dict[str, Any]:
        return read_figures.rules_figures(session, settings(), shared_scores(), options)

    return compute
