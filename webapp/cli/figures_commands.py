"""`goldtext sites`, `goldtext pages` and `goldtext rules report`: the figures beside the leaderboard, read
with the same use cases as the Sites page, the leaderboard's pages and the API (usecases/read_figures.py),
in a table or JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..foundation.settings import Settings, settings_of
from ..results.cache import SharedScores
from ..results.leaderboard_figures import LeaderboardOptions
from ..usecases.outcome import Refused
from ..usecases.read_figures import pages_figures, rules_figures, sites_figures
from ..web.db import sessions
from ..web.leaderboard_query import SITES_RESAMPLES
from .known_sites import check_sites
from .scores_commands import cell, echo_table, metric_option, scored

FORMAT = click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
SITE = click.option("--site", "sites", multiple=True, metavar="HOST", help="Only this site (repeatable).")

Read = Callable[[Session, Settings, SharedScores], dict[str, Any]]


def read_here(metric: str, read: Read) -> dict[str, Any]:
    """The figures of a use case on this command's own score cache, brought up to date first; its refusal is
    the command's usage error."""
    settings = settings_of(current_app)
    with sessions()() as session:
        shared = scored(session, metric)
        try:
            with shared.synced(session):
                return read(session, settings, shared)
        except Refused as error:
            raise click.UsageError(error.reason) from None


@click.command("sites")
@with_appcontext
@metric_option
@SITE
@click.option("--bootstrap", type=click.IntRange(min=0), default=SITES_RESAMPLES, show_default=True,
              help="Bootstrap resamples of pages, to tell the best extractor of a site (0: none).")
@FORMAT
def sites_command(metric: str, sites: tuple[str, ...], bootstrap: int, fmt: str) -> None:
    """Per site and per page type with main content: its gold pages, each extractor's F1, and the best
    extractor where the pages are enough to judge (LEADERBOARD_MIN_SITE_PAGES) and the bootstrap separates
    it; the Sites page's table."""
    check_sites(sites)
    options = LeaderboardOptions(metric=metric, filters=PageFilter(sites=sites), bootstrap=bootstrap)
    result = read_here(metric, lambda s, settings, shared: sites_figures(s, settings, shared, options))
    if fmt == "json":
        click.echo(json.dumps({key: result[key] for key in ("metric", "sites", "types", "drift")}, indent=1))
        return
    for part, key in (("site", "sites"), ("type", "types")):
        names = sorted({name for row in result[key] for name in row["f1"]})
        echo_table([{part: row[part], "pages": row["pages"], "best": ", ".join(row["best"]) or "-",
                     **{name: row["f1"].get(name) for name in names}} for row in result[key]],
                   [part, "pages", "best", *names])


@click.command("pages")
@with_appcontext
@click.argument("extractor")
@metric_option
@SITE
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True, help="How many pages.")
@FORMAT
def pages_command(extractor: str, metric: str, sites: tuple[str, ...], limit: int, fmt: str) -> None:
    """EXTRACTOR's scored pages (a name, or a stored fingerprint), worst F1 first: page, site, precision,
    recall, F1; the leaderboard's pages view."""
    check_sites(sites)
    options = LeaderboardOptions(metric=metric, filters=PageFilter(sites=sites), bootstrap=0)
    result = read_here(metric, lambda s, settings, shared: pages_figures(s, settings, shared, options, extractor,
                                                                         limit))
    if fmt == "json":
        click.echo(json.dumps(result, indent=1))
        return
    echo_table(result["rows"], ["page_id", "site", "precision", "recall", "f1"])
    click.echo(f"{result['extractor']} ({result['metric']}): {len(result['rows'])} of {result['pages']} pages")


def rules_report(metric: str, fmt: str) -> None:
    """`goldtext rules report`: per site, site-rules' paths and its F1 against its fallback's."""
    options = LeaderboardOptions(metric=metric, bootstrap=0)
    result = read_here(metric, lambda s, settings, shared: rules_figures(s, settings, shared, options))
    if fmt == "json":
        click.echo(json.dumps(result, indent=1))
        return
    echo_table([{"site": row["site"], "rule": "yes" if row["has_rule"] else "no", **row["paths"],
                 "gold_pages": row["gold_pages"], "rule_f1": cell(row["rule_f1"]),
                 "fallback_f1": cell(row["fallback_f1"])} for row in result["sites"]],
               ["site", "rule", *(result["sites"][0]["paths"] if result["sites"] else []), "gold_pages", "rule_f1",
                "fallback_f1"])


COMMANDS = [sites_command, pages_command]
