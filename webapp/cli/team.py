"""`goldtext assign` and `goldtext agreement`: work for a team of annotators."""

from __future__ import annotations

import json
from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext

from ..annotation.page_filter import PageFilter
from ..foundation.settings import settings_of
from ..results.agreement_figures import corpus_agreement
from ..scoring.agreement_maths import GROUPINGS
from ..usecases.assign import assign_pages, unassign_pages, undo_assignment
from ..usecases.outcome import Refused
from ..web.db import sessions
from .actor import command_actor
from .known_sites import check_sites
from .renamed_option import renamed_choice
from .scores_commands import echo_table

FIGURES = ("pages", "pairs", "text_f1", "type_agreement", "type_alpha", "snippet_agreement", "same_title",
           "same_authors", "same_published")
"""The columns of the table; `same_FIELD`: the metadata agreement of the field (scoring/metadata_agreement.py)."""


@click.command("assign")
@with_appcontext
@click.option("--to", "annotators", multiple=True, metavar="NAME",
              help="The annotator (repeatable: each gets the pages).")
@click.option("--site", "sites", multiple=True, metavar="HOST", help="Only pages of this site (repeatable).")
@click.option("--batch", "batches", multiple=True, type=int, metavar="ID",
              help="Only pages of this import batch (repeatable).")
@click.option("--url-contains", metavar="TEXT", default=None, help="Only pages whose URL holds this text.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many pages per annotator, in queue order (default: all).")
@click.option("--page", "pages", multiple=True, type=click.IntRange(min=1), metavar="ID",
              help="Only this page (repeatable).")
@click.option("--remove", is_flag=True,
              help="Remove these annotators' assignments of the selected pages instead (their annotations stay).")
@click.option("--undo", is_flag=True,
              help="Undo your newest assignment change not yet undone (from this command or the lead's console) "
                   "instead; takes no other option.")
def assign_command(annotators, sites, batches, url_contains, limit, pages, remove, undo) -> None:
    """Assign the selected pages that still have a free place (of OVERLAP) to annotators, in turn: they
    come first in their queue, and the place is kept for them. The names must be users' (not disabled);
    --remove removes assignments, --undo undoes your last change."""
    check_sites(sites)
    selection = PageFilter(sites=sites, batches=batches, url_contains=url_contains)
    actor = command_actor()
    if not undo and not annotators:
        raise click.UsageError("Name the annotators with --to (or give --undo).")
    with sessions()() as session:
        try:
            if undo:
                removed, restored = undo_assignment(session, actor)
            elif remove:
                done = unassign_pages(session, actor, annotators, selection, page_ids=pages)
            else:
                done = assign_pages(session, settings_of(current_app), actor, annotators, selection, limit, pages)
        except Refused as error:
            raise click.UsageError(error.reason) from None
        session.commit()
    if undo:
        click.echo(f"Undone: {removed} assignments removed, {restored} restored.")
        return
    click.echo(f"{done} assignments {'removed' if remove else 'made'} ({', '.join(annotators)}).")


def rows_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [{"group": "all", **result}]
    rows += [{"group": group, **figures} for group, figures in result.get("groups", {}).items()]
    return [row | {f"same_{field}": said["agreement"] for field, said in row["metadata"].items()} for row in rows]


@click.command("agreement")
@with_appcontext
@click.option("--by", type=click.Choice((*GROUPINGS, "kind")), default=None, callback=renamed_choice({"kind": "type"}),
              help="Break the figures down by group (kind, the old name of type, works until the next release).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def agreement_command(by, fmt) -> None:
    """Agreement between annotators on the double-annotated pages: text F1, type agreement,
    Krippendorff's alpha on the type, snippet agreement, the agreement on the title, authors and date, each
    annotator's F1 against the gold."""
    with sessions()() as session:
        result = corpus_agreement(session, by)
    if fmt == "json":
        click.echo(json.dumps(result, indent=1))
        return
    echo_table(rows_of(result), ["group", *FIGURES])
    click.echo("")
    annotators = [{"annotator": name, **figures} for name, figures in result["annotators"].items()]
    echo_table(annotators, ["annotator", "pages", "adjudicated", "f1_vs_gold"])


COMMANDS = [assign_command, agreement_command]
