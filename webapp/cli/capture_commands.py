"""`goldtext capture`: fetch URLs into a new batch (robots.txt obeyed, politely, safely), keep them as a
WARC, import and extract them; `--report JOB` prints a capture's report again."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import click
from flask.cli import with_appcontext

from ..capture.capture_run import CaptureRun
from ..capture.fetcher import Fetcher, FetchFailed
from ..capture.sitemap import sitemap_urls
from ..foundation.settings import settings_of
from ..jobs.start import dispatch
from ..jobs.workers import run_here
from ..models import Job
from ..steps.capture_step import REPORT
from ..usecases.capture_pages import CaptureRequest, start_capture, url_lines
from ..usecases.outcome import Refused
from ..web.db import flask_app, readers, sessions
from .actor import command_actor
from .extract_commands import ProgressBars


def sitemap_list(url: str, limit: int, obey_robots: bool) -> list[str]:
    capture = settings_of(flask_app()).capture
    fetcher = Fetcher(capture.rules, capture.limits)
    try:
        return sitemap_urls(CaptureRun(fetcher, obey_robots, capture.delay), url, limit)
    except (FetchFailed, ValueError) as error:
        raise click.ClickException(f"cannot read the sitemap {url}: {error}") from None
    finally:
        fetcher.close()


def echo_capture_report(job_id: int) -> Job:
    with readers()() as session:
        job = session.get(Job, job_id)
        if job is None or job.kind != "capture":
            raise click.UsageError(f"job {job_id} is not a capture")
        session.expunge(job)
    rows = sorted(job.result.get(REPORT, []), key=lambda row: int(row["index"]))
    width = max((len(row["status"]) for row in rows), default=7)
    for row in rows:
        said = row.get("reason") or (f"-> {row['final_url']}" if row.get("final_url") else "")
        said = f"{said} ({row['rendering']})".strip() if row.get("rendering") else said
        click.echo(f"{row['status']:<{width}}  {row['item']}  {said}".rstrip())
    counts = {status: sum(row["status"] == status for row in rows) for status in ("fetched", "refused", "failed")}
    click.echo(f"{counts['fetched']} fetched, {counts['refused']} refused by robots.txt, {counts['failed']} failed"
               + (f"; WARC: {job.result['warc']}" if job.result.get("warc") else ""))
    return job


@click.command("capture")
@with_appcontext
@click.argument("urls", nargs=-1)
@click.option("--file", "url_file", type=click.File("r", encoding="utf-8"), default=None,
              help="Also the URLs of this file, one per line (# starts a comment; - reads standard input).")
@click.option("--sitemap", metavar="URL", default=None, help="Also the page URLs of this sitemap (or sitemap index).")
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True,
              help="At most this many URLs from --sitemap.")
@click.option("--no-robots", is_flag=True,
              help="Do not obey robots.txt for this capture (recorded with it: job, audit log and WARC).")
@click.option("--warc", "warc_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the capture's WARC here (it is kept in the instance folder's captures/ anyway).")
@click.option("--extractor", "extractors", multiple=True, metavar="NAME",
              help="Extractors to run on the captured pages (repeatable; default: every one that can run).")
@click.option("--render", is_flag=True,
              help="Also open each page in headless Chromium (until the network is idle or CAPTURE_RENDER_SECONDS) "
                   "and keep its DOM and a full-page screenshot beside the raw response.")
@click.option("--background", is_flag=True, help="Queue the capture for the workers and return at once.")
@click.option("--report", "report_of", type=int, metavar="JOB", default=None,
              help="Print the report of the capture job JOB (each URL fetched, refused or failed, with the reason).")
def capture_command(urls, url_file, sitemap, limit, no_robots, warc_out, extractors, render, background,
                    report_of) -> None:
    """Capture URLs as a new batch: fetch each one (robots.txt obeyed, one request at a time per host, no
    private or loopback address unless CAPTURE_ALLOWED_NETWORKS allows it), keep the exchanges as a WARC,
    import the pages and extract them; print each URL's outcome."""
    if report_of is not None:
        echo_capture_report(report_of)
        return
    wanted = list(urls) + (url_lines(url_file.read()) if url_file is not None else [])
    if sitemap:
        wanted += sitemap_list(sitemap, limit, not no_robots)
    app = flask_app()
    with sessions()() as session:
        try:
            job = start_capture(session, settings_of(app), command_actor(),
                                CaptureRequest(tuple(wanted), not no_robots, tuple(extractors),
                                               tuple(wanted) if render else ()))
        except Refused as error:
            raise click.UsageError(error.reason) from None
        session.commit()
        job_id = job.id
        if background:
            dispatch(app, session, job)
    if background:
        click.echo(f"capture job {job_id} queued ({len(set(wanted))} URLs); `goldtext capture --report {job_id}`")
        return
    started = time.perf_counter()
    status = run_here(app, job_id, on_progress=ProgressBars())
    finished = echo_capture_report(job_id)
    click.echo(f"capture job {job_id} {status} in {time.perf_counter() - started:.1f} s")
    if warc_out is not None and finished.result.get("warc"):
        shutil.copyfile(finished.result["warc"], warc_out)
        click.echo(f"WARC written to {warc_out}")
    if status != "done":
        raise click.ClickException(f"capture job {job_id} {status}" + (f": {finished.error}" if finished.error else ""))
    if not any(row["status"] == "fetched" for row in finished.result.get(REPORT, [])):
        raise click.ClickException("no URL was captured: the report above says why each was not")


COMMANDS = [capture_command]
