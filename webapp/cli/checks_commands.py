"""`goldtext check`: the checks of the gold, before a gold set is published (docs/annotating.md)."""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

from ..foundation.settings import settings_of
from ..results.gold_check_runs import failing_by_check, report
from ..usecases.run_checks import check_now
from ..web.db import sessions
from .actor import command_actor
from .audit_commands import printable
from .scores_commands import echo_table


@click.command("check")
@with_appcontext
@click.option("--page", "page_ids", multiple=True, type=click.IntRange(min=1), metavar="ID",
              help="Only this page (repeatable; default: every page with done gold or two annotations).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def check_command(page_ids, fmt) -> None:
    """Check the gold: list each page that fails a check, with the reason, and keep the failures for the
    Checks page and the queue's filter. The checks: low scores of every extractor, markup left in the gold,
    words the page does not show, truncation, a type at odds with the gold, and annotators who disagree
    with nobody adjudicating; their thresholds are the CHECK_* settings. Exits 1 when a page fails."""
    settings = settings_of(current_app)
    with sessions()() as session:
        pages, failing = check_now(session, settings, command_actor(), settings.checks,
                                   list(page_ids) or None)
        session.commit()
    result = report(pages, failing)
    if fmt == "json":
        click.echo(json.dumps(result, indent=2))
    else:
        rows = [{"page": f["page_id"], "url": printable(f["url"] or ""), "check": name, "reason": printable(reason)}
                for f in result["failing"] for name, reason in zip(f["checks"], f["reasons"])]
        echo_table(rows, ["page", "url", "check", "reason"])
        counts = failing_by_check(result)
        click.echo(f"{len(result['failing'])} of {pages} pages fail a check"
                   + "".join(f"; {name}: {n}" for name, n in counts.items() if n) + ".")
    if result["failing"]:
        raise SystemExit(1)


COMMANDS = [check_command]
