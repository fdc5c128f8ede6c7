"""`goldtext audit`: the audit log, oldest first, as a table or JSON; `goldtext audit verify`: its hash
chain."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import click
from flask.cli import AppGroup, with_appcontext

from ..accounts.audit_log import AuditFilter, detail_text, rows, verify
from ..accounts.names import printable
from ..db import readers


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
def audit_verify() -> None:
    """Check the audit log's hash chain: exits 1 naming the first event that was changed, deleted or
    moved since it was written."""
    with readers()() as session:
        checked, last, broken = verify(session)
    if broken is not None:
        raise click.ClickException(f"the audit log's chain is broken after {checked} intact event(s): "
                                   f"{printable(broken.reason)}")
    click.echo(f"{checked} event(s), chain intact; last hash {last}")


COMMANDS = [audit_command]
