"""`goldtext audit`: the audit log, oldest first, as a table or JSON; `goldtext audit verify`: its hash
chain and its end against the checkpoint, a head kept elsewhere and the database's sequence; `goldtext
audit checkpoint`: the head to keep elsewhere."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import click
from flask.cli import AppGroup, with_appcontext

from ..accounts.audit_head import compare, describe, table_head
from ..accounts.audit_log import AuditFilter, detail_text, rows, verify
from ..accounts.names import printable
from ..foundation.engine import AUDIT_HEAD_FILE
from ..web.db import flask_app, readers


class When(click.ParamType):
    name = "DATE"

    def convert(self, value, param, ctx) -> datetime:
        if isinstance(value, datetime):
            return value
        try:
            found = datetime.fromisoformat(value)
        except ValueError:
            self.fail(f"{value!r} is not a date (2026-03-01) or a date and time (2026-03-01T09:30)", param, ctx)
        return found.astimezone(UTC) if found.tzinfo else found.replace(tzinfo=UTC)


@click.group("audit", cls=AppGroup, invoke_without_command=True)
@click.option("--since", type=When(), help="Only events from this date or time on (UTC unless it says).")
@click.option("--until", type=When(), help="Only events before this date or time.")
@click.option("--actor", help="Only this user's events (cli:LOGIN for commands).")
@click.option("--action", help='Only this action, or a family ending in "." ("user.").')
@click.option("--format", "fmt", type=click.Choice(("table", "json")), default="table", show_default=True)
@click.pass_context
@with_appcontext
def audit_command(ctx: click.Context, since, until, actor, action, fmt) -> None:
    """The audit log, oldest first: who changed what, when and from where (`verify` checks its chain)."""
    if ctx.invoked_subcommand is not None:
        return
    with readers()() as session:
        found = list(rows(session, AuditFilter(since, until, actor, action)))
    if fmt == "json":
        click.echo(json.dumps(found, indent=1, ensure_ascii=False))
        return
    click.echo(f"{'when (UTC)':19}  {'who':16} {'action':16} {'target':24} {'from':15} detail")
    for row in found:
        detail = printable(detail_text(row["detail"]))
        click.echo(f"{row['at'][:19]:19}  {printable(row['actor']):16} {printable(row['action']):16} "
                   f"{printable(row['target']):24} {printable(row['address']):15} {detail}")
    click.echo(f"{len(found)} event(s)")


@audit_command.command("verify")
@click.option("--head", "kept", metavar="HASH",
              help="A head printed by `goldtext audit checkpoint` and kept elsewhere: the log must still hold it.")
def audit_verify(kept: str | None) -> None:
    """Check the audit log: its hash chain (exits 1 naming the first event changed, deleted or moved since
    it was written) and its end (exits 1 naming what is missing when the newest events, or all of them,
    are gone: against the checkpoint in the instance folder, the head given with --head, and on
    PostgreSQL the ids its sequence handed out)."""
    with readers()() as session:
        checked, last, broken = verify(session)
        problems, notes = compare(session, Path(flask_app().instance_path) / AUDIT_HEAD_FILE, kept)
    for note in notes:
        click.echo(f"note: {printable(note)}")
    if broken is not None:
        problems.insert(0, f"the chain is broken after {checked} intact event(s): {printable(broken.reason)}")
    if problems:
        raise click.ClickException("the audit log is not what was written: " + "; ".join(problems))
    click.echo(f"{checked} event(s), chain intact, its end where the checkpoint says; last hash {last}")


@audit_command.command("checkpoint")
def audit_checkpoint() -> None:
    """Print the audit log's head (its count, newest event and hash): keep it somewhere the database's
    owner cannot write (another machine, a ticket, a printed log); `goldtext audit verify --head HASH`
    checks that the log still holds it."""
    with readers()() as session:
        head = table_head(session)
    click.echo(describe(head))
    if head is not None:
        click.echo(head.digest)


COMMANDS = [audit_command]
