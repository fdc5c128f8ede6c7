"""`goldtext structure-tests`: the structure tests of the Markdown gold, listed and exported as JSON Lines
(docs/metrics.md#structure-tests)."""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

from ..foundation.settings import settings_of
from ..results.structure_test_figures import scored_pages, tests_of_pages
from ..web.db import sessions


@click.command("structure-tests")
@with_appcontext
@click.option("--page", "page_ids", multiple=True, type=click.IntRange(min=1), metavar="ID",
              help="Only this page (repeatable; default: every page whose done gold has Markdown).")
@click.option("--extractor", "extractors", multiple=True, metavar="NAME",
              help="Run the tests against this extractor's newest extraction (repeatable; `all`: every "
                   "extractor's).")
def structure_tests_command(page_ids, extractors) -> None:
    """List the structure tests generated from each page's Markdown gold as JSON Lines, one test a line:
    page_id, url, id, kind, description, expected, and passed (extractor -> whether its newest extraction
    passes the test) for the extractors asked for (empty without --extractor)."""
    wanted = None if "all" in extractors else list(extractors)
    with sessions()() as session:
        pages = list(page_ids) or scored_pages(session, settings_of(current_app).taxonomy.no_content)
        for row in tests_of_pages(session, pages, wanted):
            click.echo(json.dumps(row, ensure_ascii=False))


COMMANDS = [structure_tests_command]
