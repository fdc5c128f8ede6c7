"""`goldtext score` and `goldtext compare`: the metrics' figures in a table, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.orm import Session

from ..annotation.page_filter import PageFilter
from ..exports.csv_scores import neutralise
from ..foundation.settings import settings_of
from ..results.cache import ScoreCache, SharedScores
from ..results.guard_figures import CELLS
from ..results.leaderboard_figures import GROUPINGS, LeaderboardOptions
from ..scoring import resolve_metric
from ..usecases.outcome import Refused
from ..usecases.read_figures import compare_figures, guard_figures
from ..usecases.read_leaderboard import DEFAULT_METRIC, OLD_GROUPINGS, leaderboard_request, read_leaderboard
from ..usecases.refresh import refresh_counts
from ..web.db import sessions
from .actor import command_actor
from .known_sites import check_sites
from .page_type_option import page_type_option
from .renamed_option import renamed_choice, renamed_option

FIGURES = ("precision", "recall", "f1", "accuracy", "precision_std", "recall_std", "f1_std", "pages", "errors")


def metric_option(func):
    return click.option(
        "--metric", metavar="NAME", default="tokens", show_default=True,
        help="Which metric: tokens, shingles, snippets, rouge-lsum, wcxb, webmainbench-rouge5, "
             "webmainbench-subset, structure-tests, the article's metadata (title, authors, published) "
             "or an installed one (docs/metrics.md defines each).",
    )(func)


def common_options(func):
    for option in reversed(
        [
            click.option("--average", type=click.Choice(["micro", "macro"]), default=None,
                         help="micro pools counts over pages, macro averages per-page figures "
                              "(default: the metric's own)."),
            click.option("--site", "sites", multiple=True, metavar="HOST", help="Only this site (repeatable)."),
            page_type_option(help="Only this gold page type (repeatable)."),
            click.option("--batch", "batches", multiple=True, type=int, metavar="ID",
                         help="Only pages of this import batch (repeatable)."),
            renamed_option("--author", "--annotator", "authors", metavar="NAME",
                           help="Only pages whose gold this person saved last (repeatable)."),
            click.option("--bootstrap", type=click.IntRange(min=0), default=1000, show_default=True,
                         help="Bootstrap resamples of pages for the spread (0: none)."),
            click.option("--seed", type=int, default=0, show_default=True, help="Seed of the resamples."),
            click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
                         show_default=True),
        ]
    ):
        func = option(func)
    return metric_option(func)


def scored(session: Session, metric: str) -> SharedScores:
    """Bring the metric's cached counts up to date and a score cache of this command's own to read them
    (synced by the use case's caller); ClickException naming an unknown or unavailable metric."""
    metrics = settings_of(current_app).metrics
    try:
        definition = resolve_metric(metrics, metric)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if not definition.available:
        raise click.ClickException(f"metric {metric} is unavailable: {definition.unavailable_reason}")
    refresh_counts(session, settings_of(current_app), command_actor(), {metric: definition})
    session.commit()
    return SharedScores(ScoreCache(metrics))


def rows_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [{"group": "", "extractor": n, **f} for n, f in result["extractors"].items()]
    for group, sub in result.get("groups", {}).items():
        rows += [{"group": group, "extractor": n, **f} for n, f in sub["extractors"].items()]
    return rows


def cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def echo_table(rows: list[dict[str, Any]], columns: list[str]) -> None:
    widths = {c: max(len(c), *(len(cell(r.get(c))) for r in rows)) for c in columns} if rows else {}
    click.echo("  ".join(c.ljust(widths.get(c, len(c))) for c in columns))
    for row in rows:
        click.echo("  ".join(cell(row.get(c)).ljust(widths[c]) for c in columns))


def echo_csv(rows: list[dict[str, Any]], columns: list[str]) -> None:
    """The rows as CSV, each cell that a spreadsheet would run as a formula neutralised as the export does."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: neutralise(value) for key, value in row.items()} for row in rows)
    click.echo(buffer.getvalue(), nl=False)


def verdict(result: dict[str, Any]) -> str:
    """What the figures can tell: too few pages to judge, the best and who cannot be told from it."""
    if result["too_few"]:
        return (f"too few to judge: {result['pages']} pages, fewer than LEADERBOARD_MIN_SITE_PAGES "
                f"({result['min_pages']}); these figures rank nothing")
    tiers = result["tiers"]
    if tiers is None:
        return "no verdict: it needs a bootstrap (--bootstrap) and two extractors with figures"
    tied = [name for name, tier in tiers["extractors"].items()
            if tier["tied"] and name != tiers["best"] and "same_as" not in tier]
    test = f"paired bootstrap at {tiers['alpha']:g}, Holm-corrected"
    if result.get("unanchored"):
        test += ", each pair over the pages started from neither"
    if not tied:
        return f"best: {tiers['best']}, separated from every other extractor ({test})"
    return f"best: {tiers['best']}; not distinguishable from it: {', '.join(sorted(tied))} ({test})"


def twins_line(result: dict[str, Any]) -> str | None:
    """The extractors shown that are only another one on these pages (site-rules with no rule applied)."""
    twins = result.get("same_as") or {}
    if not twins:
        return None
    return "; ".join(f"{twin} = {original} (no rule applied on these pages: its figures are {original}'s, "
                     f"left out of the verdict)" for twin, original in twins.items())


def composition_lines(result: dict[str, Any]) -> list[str]:
    """The compositions shown (their parts, the gold pages they lack), the extractions of older versions and the
    best cascade of two, one line each (results/composition_figures.py)."""
    lines = []
    for name, shown in result["compositions"].items():
        lacking = (f"; no extraction on {shown['missing_pages']} gold pages where a part has none ("
                   + ", ".join(f"{part}: {n}" for part, n in shown["missing_by_part"].items()) + ")"
                   if shown["missing_pages"] else "")
        lines.append(f"composition {name}: {shown['description']}{lacking}")
    for old in result["outdated"]:
        lines.append(f"outdated: {old['extractor']} has {old['pages']} extractions ({old['gold_pages']} gold pages) "
                     f"made by version {old['version']!r}, not the current {old['current_version']!r} "
                     "(`goldtext extract --outdated` re-runs them)")
    best = result["best_cascade"]
    if best:
        lines.append(f"best cascade of two: {best['first']}, then {best['then']}: F1 {best['f1']:.4f} on "
                     f"{best['pages']} pages (mean page F1 {best['mean_page_f1']:.4f}; leave-one-out "
                     f"{best['leave_one_out_f1']:.4f}; the best alone, {best['best_alone']['name']}: "
                     f"{best['best_alone']['f1']:.4f}); {best['warning']}")
    return lines


def echo_anchoring(result: dict[str, Any]) -> None:
    """The anchoring split and the movement from the prefill, as tables (before the verdict, the last line)."""
    anchoring = result["anchoring"]
    if result["unanchored"]:
        click.echo("unanchored: each extractor's row leaves out the pages whose gold started from its own text "
                   "(its pages and left_out columns): the rows are over different pages")
    click.echo(f"anchoring split ({anchoring['pages_started']} of {result['pages']} pages started from an "
               f"extractor; {anchoring['rule']}):")
    columns = ["extractor", "anchored_pages", "anchored_f1", "other_pages", "other_f1"]
    echo_table([{"extractor": name, **{f"{part}_{key}": parts[part][key] for part in ("anchored", "other")
                                       for key in ("pages", "f1")}}
                for name, parts in anchoring["split"].items()], columns)
    moved = anchoring["movement"]
    if moved["extractors"] or moved["missing_total"]:
        click.echo(f"movement from the prefill (1 - {moved['metric']} F1 of the prefill against the saved text; "
                   f"{moved['missing_total']} left out, their prefill's extraction gone):")
        echo_table([{"prefilled_from": name, **figures} for name, figures in moved["extractors"].items()],
                   ["prefilled_from", "count", "mean", "median"])


@click.command("score")
@with_appcontext
@common_options
@click.option("--by", type=click.Choice((*GROUPINGS, *OLD_GROUPINGS)), default=None,
              callback=renamed_choice(OLD_GROUPINGS),
              help="Break the figures down by group (annotator and kind, the old names of author and type, work "
                   "until the next release).")
@click.option("--extractor", "names", multiple=True, metavar="NAME",
              help="Only this extractor (repeatable); default: every registered one that has run.")
@click.option("--unanchored", is_flag=True,
              help="Leave out, for each extractor, the pages whose gold started from its own text (each row "
                   "over its own pages; docs/metrics.md, Anchoring).")
def score_command(metric, average, sites, page_types, batches, authors, bootstrap, seed, fmt, by, names,
                  unanchored) -> None:
    """Score every extractor against the gold (done pages of every type with main content). Without
    --extractor, the extractors with no scored extraction at their current version are listed as not run,
    and the others are scored on the pages they all have. The anchoring split (each extractor on the pages
    whose gold started from its text and on the others) and the movement from the prefill follow."""
    check_sites(sites)
    settings = settings_of(current_app)
    try:
        options = leaderboard_request(settings, metric=metric, average=average, extractors=names, bootstrap=bootstrap,
                                      seed=seed, by=by, unanchored=unanchored,
                                      filters=PageFilter(sites=sites, page_types=page_types, batches=batches,
                                                         authors=authors))
        with sessions()() as session:
            refresh_counts(session, settings, command_actor(), {metric: settings.metrics[metric]})
            session.commit()
            result = read_leaderboard(session, settings, options, SharedScores(ScoreCache(settings.metrics)))
    except Refused as error:
        raise click.UsageError(error.reason) from None
    not_run = result["not_run"]
    if fmt == "json":
        click.echo(json.dumps(result, indent=1))
        return
    rows = rows_of(result)
    extra = [key for key in (rows[0] if rows else {}) if key not in ("group", "extractor", *FIGURES)]
    columns = (["group"] if by else []) + ["extractor", *FIGURES, *extra]
    (echo_csv if fmt == "csv" else echo_table)(rows, columns)
    if fmt == "table":
        if result["unanchored"] or result["anchoring"]["pages_started"]:
            echo_anchoring(result)
        twins = twins_line(result)
        if twins:
            click.echo(twins)
        for line in composition_lines(result):
            click.echo(line)
        click.echo(f"{result['metric']} ({result['average']}), {result['pages']} pages")
        click.echo(verdict(result))
    if not_run:
        click.echo(f"not run: {', '.join(not_run)} (`goldtext extract` runs them)", err=fmt == "csv")


@click.command("compare")
@with_appcontext
@click.argument("a")
@click.argument("b")
@common_options
@click.option("--top", type=click.IntRange(min=0), default=20, show_default=True,
              help="How many of the most changed pages to list.")
def compare_command(a, b, metric, average, sites, page_types, batches, authors, bootstrap, seed, fmt, top) -> None:
    """Head-to-head of A and B (extractor names, or stored fingerprints): wins, losses, ties, the
    paired bootstrap difference of F1 (A - B), and whether it is within the annotators' noise."""
    check_sites(sites)
    wanted = PageFilter(sites=sites, page_types=page_types, batches=batches, authors=authors)
    settings = settings_of(current_app)
    with sessions()() as session:
        shared = scored(session, metric)
        options = LeaderboardOptions(metric=metric, average=average, filters=wanted, bootstrap=bootstrap, seed=seed)
        try:
            with shared.synced(session):
                result = compare_figures(session, settings, shared, options, a, b, top)
        except Refused as error:
            raise click.UsageError(error.reason) from None
    if fmt == "json":
        click.echo(json.dumps(result, indent=1))
        return
    if fmt == "csv":
        echo_csv(result["changed"], ["page_id", "f1_a", "f1_b", "difference"])
        return
    summary = {k: result[k] for k in ("pages", "wins", "losses", "ties", "f1_a", "f1_b",
                                      "difference", "difference_mean", "difference_std", "share_a_better")}
    click.echo(f"{result['metric']} ({result['average']}): A = {result['a']['name']}, B = {result['b']['name']}")
    for side in ("a", "b"):
        if result[side]["composition"]:
            click.echo(f"  {side.upper()} is a composition: {result[side]['composition']['description']}")
    for key, value in summary.items():
        click.echo(f"  {key:16} {cell(value)}")
    noise = result["noise"]
    if noise["annotator_noise"] is not None:
        verdict = "within" if noise["within"] else "beyond"
        click.echo(f"  {'annotator noise':16} {cell(noise['annotator_noise'])} ({noise['pages']} double-annotated "
                   f"pages): the difference is {verdict} the annotators' own disagreement")
    if result["changed"]:
        click.echo("pages that changed most:")
        echo_table(result["changed"], ["page_id", "f1_a", "f1_b", "difference"])


@click.command("guard")
@with_appcontext
@click.option("--extractor", "names", multiple=True, metavar="NAME",
              help="Only this extractor (repeatable); default: every registered one.")
@click.option("--site", "sites", multiple=True, metavar="HOST", help="Only this site (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def guard_command(names, sites, fmt) -> None:
    """The accept guard against the gold page types: confusion matrix per extractor against the types to
    accept (GUARD_ACCEPT_TYPES), and the acceptance rate per site and per import batch."""
    check_sites(sites)
    settings = settings_of(current_app)
    options = LeaderboardOptions(metric=DEFAULT_METRIC, extractors=names, filters=PageFilter(sites=sites), bootstrap=0)
    with sessions()() as session:
        try:
            report = guard_figures(session, settings, options)["guard"]
        except Refused as error:
            raise click.UsageError(error.reason) from None
    if fmt == "json":
        click.echo(json.dumps(report, indent=1))
        return
    rows = [{"extractor": name, **entry["confusion"]} for name, entry in report.items()]
    echo_table(rows, ["extractor", *CELLS])
    for name, entry in report.items():
        rates = ", ".join(f"{site} {cell(v['rate'])} ({v['pages']})" for site, v in entry["acceptance_by_site"].items())
        click.echo(f"{name}: accepted by site: {rates}")


COMMANDS = [score_command, compare_command, guard_command]
