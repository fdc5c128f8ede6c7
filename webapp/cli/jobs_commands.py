"""`goldtext worker`, `goldtext jobs`, `goldtext jobs cancel`: the workers and the jobs they run."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask.cli import AppGroup, with_appcontext

from ..foundation.settings import settings_of
from ..jobs.broker import describe_broker
from ..jobs.lifeline import die_with, hold_lock, holder
from ..jobs.records import STATUSES, list_jobs, live_workers
from ..jobs.workers import run_worker
from ..usecases.cancel_job import cancel
from ..usecases.outcome import Refused
from ..web.db import flask_app, readers, sessions
from ..web.outputs.job_json import jobs_output
from .actor import command_actor


@click.command("worker")
@with_appcontext
@click.option("--concurrency", type=click.IntRange(min=1), default=None,
              help="Chunks run at once (threads sharing one pool of extractor processes); "
                   "default: WORKER_CONCURRENCY.")
@click.option("--embedded-in", "parent", type=int, default=None, metavar="PID",
              help="Set by `goldtext serve` for its embedded worker: stop when process PID is gone, and run "
                   "only if no other embedded worker runs on the instance folder.")
def worker_command(concurrency: int | None, parent: int | None) -> None:
    """Run jobs: take chunks from the broker until stopped (Ctrl+C or SIGTERM finish the running
    chunks first). Start as many as you like, on any machine that reaches the database and the broker."""
    app = flask_app()
    concurrency = concurrency or settings_of(app).workers.concurrency
    lock = None
    if parent is not None:
        die_with(parent)
        instance = Path(app.instance_path)
        lock = hold_lock(instance)
        if lock is None:
            click.echo(f"embedded worker not started: the one of another server (pid {holder(instance)}) still "
                       f"runs on {instance}", err=True)
            return
    click.echo(f"worker: {concurrency} at once, broker {describe_broker(app)}", err=True)
    try:
        run_worker(app, concurrency)
    finally:
        if lock is not None:
            lock.close()


@click.group("jobs", cls=AppGroup, invoke_without_command=True)
@click.option("--status", type=click.Choice(STATUSES), default=None, help="Only jobs with this status.")
@click.option("--format", "fmt", type=click.Choice(("table", "json")), default="table", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True, help="Newest jobs shown.")
@click.pass_context
@with_appcontext
def jobs_group(ctx: click.Context, status: str | None, fmt: str, limit: int) -> None:
    """List jobs (extraction runs, uploads, exports, refreshes), newest first, or cancel one."""
    if ctx.invoked_subcommand is not None:
        return
    with readers()() as session:
        rows = jobs_output(session, list_jobs(session, status, limit))
        workers = len(live_workers(session))
    if fmt == "json":
        click.echo(json.dumps(rows, indent=1))
        return
    click.echo(f"{'id':>5}  {'kind':8} {'status':10} {'stage':11} {'progress':>15}  {'by':12} error / stalled")
    for row in rows:
        progress = f"{row['done']}/{row['total'] if row['total'] is not None else '?'}"
        note = row["error"] or (f"stalled: {row['stalled']}" if row["stalled"] else "")
        click.echo(f"{row['id']:>5}  {row['kind']:8} {row['status']:10} {row['stage'] or '-':11} {progress:>15}  "
                   f"{_cell(row['started_by'])[:12]:12} {_cell(note)}")
    click.echo(f"{len(rows)} job(s); {workers} worker(s) alive")


def _cell(text: str | None) -> str:
    """One line, control characters shown as escapes: a job's text never moves the terminal's cursor."""
    return (text or "").encode("unicode_escape").decode("ascii")


@jobs_group.command("cancel")
@click.argument("job_id", type=int)
def jobs_cancel(job_id: int) -> None:
    """Cancel job JOB_ID: queued chunks are dropped; running ones stop at their next commit, keeping
    what they finished."""
    with sessions()() as session:
        try:
            job = cancel(session, command_actor(), job_id)
        except Refused as error:
            raise click.ClickException(error.reason) from None
        session.commit()
        click.echo(f"job {job.id} cancelled ({job.done} done of {job.total if job.total is not None else '?'})")


COMMANDS = [worker_command, jobs_group]
