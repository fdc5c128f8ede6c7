"""`goldtext extract`, `goldtext extractors`, `goldtext rules`: running and configuring extractors."""

from __future__ import annotations

import shlex
import sys
import time
from collections import Counter
from typing import TYPE_CHECKING

import click
from flask.cli import AppGroup, with_appcontext
from sqlalchemy import select

from ..extractors.composing import CASCADE, ROUTE, ROUTE_BY, UNION
from ..extractors.composition_rows import stored_compositions
from ..extractors.extraction_service import known_now
from ..extractors.process_pool import pool_size
from ..foundation.settings import settings_of
from ..jobs.broker import describe_broker
from ..jobs.records import ENDED
from ..jobs.start import dispatch
from ..jobs.workers import run_here
from ..models import Extraction, Job, Site
from ..usecases.extract import ExtractionRequest
from ..usecases.extract import start_extraction as start_extraction_job
from ..usecases.manage_compositions import CompositionRequest, compose_extractors, remove_composed
from ..usecases.manage_rules import delete_site_rule, set_site_rule
from ..usecases.manage_variants import add_extractor_variant, remove_extractor_variant
from ..usecases.outcome import Refused
from ..web.db import flask_app, readers, sessions
from .actor import command_actor
from .figures_commands import rules_report
from .known_sites import check_sites
from .processes import processes_option
from .scores_commands import metric_option

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar


def start_extraction(names: tuple[str, ...] = (), site: str | None = None, force: bool = False,
                     outdated: bool = False, derive_only: bool = False) -> int:
    """Create the extraction job through its use case (usage error when refused); returns its id."""
    app = flask_app()
    with sessions()() as session:
        try:
            job = start_extraction_job(session, settings_of(app), command_actor(),
                                       ExtractionRequest(names, site, force, outdated, derive_only))
        except Refused as error:
            raise click.UsageError(error.reason) from None
        session.commit()
        return job.id


def run_extraction(
    names: tuple[str, ...] = (), site: str | None = None, force: bool = False, processes: int | None = None,
    outdated: bool = False, derive_only: bool = False,
) -> int:
    """Run an extraction job in this process with a progress bar, then print a summary; returns the
    job's id. `processes`: extractor processes (default EXTRACT_PROCESSES, one per core)."""
    app = flask_app()
    started = time.perf_counter()
    job_id = start_extraction(names, site, force, outdated, derive_only)
    size = pool_size(processes or settings_of(app).workers.extract_processes)
    click.echo(f"extracting with {size} extractor process{'es' if size != 1 else ''}", err=True)
    status = run_here(app, job_id, on_progress=ProgressBars(), processes=processes)
    summarise(job_id, status, time.perf_counter() - started)
    return job_id


class ProgressBars:
    """One progress bar per stage of the job (extracting, scoring), on standard error."""

    def __init__(self) -> None:
        self.stage = ""
        self.bar: ProgressBar[int] | None = None
        self.shown = 0

    def __call__(self, status: str, done: int, total: int | None, stage: str) -> None:
        if stage != self.stage or status in ENDED:
            self.close()
            self.stage = stage
        if self.bar is None and total is not None and status not in ENDED:
            self.bar = click.progressbar(length=total, label=stage, file=sys.stderr)
            self.bar.__enter__()
        if self.bar is not None:
            self.bar.update(done - self.shown)
            self.shown = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
        self.bar, self.shown = None, 0


def summarise(job_id: int, status: str, elapsed: float) -> None:
    """The run's counts, its errors grouped by extractor and reason, and what the scoring step did."""
    with readers()() as session:
        job = session.get_one(Job, job_id)
        rows = session.execute(
            select(Extraction.extractor, Extraction.error, Extraction.incomplete)
            .where(Extraction.created_at >= job.created_at)
        ).all()
        result = dict(job.result)
        failure = job.error
    errors = Counter(f"{name}: {error.splitlines()[0][:80]}" for name, error, _ in rows if error)
    incomplete = sum(bool(flag) for _, _, flag in rows)
    total = len(rows)
    click.echo(
        f"{total} extractions in {elapsed:.1f} s: {total - sum(errors.values())} done, "
        f"{sum(errors.values())} errors, {incomplete} incomplete (libxml2 depth limit)"
    )
    for reason, count in errors.most_common():
        click.echo(f"  {count} x {reason}")
    if "scores" in result:
        click.echo(f"{result['scores']} scores cached, disagreement of {result['measured']} pages measured")
    if status != "done":
        raise click.ClickException(f"job {job_id} {status}" + (f": {failure}" if failure else ""))


@click.command("extract")
@with_appcontext
@click.option(
    "--extractor", "names", multiple=True, metavar="NAME",
    help="Run only this extractor (repeatable); default: every registered extractor.",
)
@click.option("--site", metavar="HOST", help="Only pages of this site.")
@click.option("--force", is_flag=True, help="Recompute even what is already stored.")
@click.option("--outdated", is_flag=True,
              help="Only the extractions made by another version of their extractor (those the leaderboard marks): "
                   "re-run each extractor on the pages it has extracted at another fingerprint only.")
@processes_option("Extractor processes; default: one per core.")
@click.option("--background", is_flag=True,
              help="Enqueue the run for the workers and print its job id (last line) instead of running it here.")
def extract_command(names: tuple[str, ...], site: str | None, force: bool, outdated: bool, processes: int | None,
                    background: bool) -> None:
    """Run extractors on the stored pages (only what is missing for their current fingerprints, and
    calls that crashed or timed out, up to 3 attempts), then cache the new extractions' scores against
    the gold and measure the pages' disagreement."""
    check_sites([site])
    if not background:
        run_extraction(names, site, force, processes, outdated)
        return
    app = flask_app()
    job_id = start_extraction(names, site, force, outdated)
    with readers()() as session:
        dispatch(app, session, session.get_one(Job, job_id))
    click.echo(f"extraction queued for the workers ({describe_broker(app)}); follow it with `goldtext jobs`")
    click.echo(job_id)


extractors_group = AppGroup(
    "extractors", invoke_without_command=True,
    help="The registered extractors, the user-defined variants and compositions; without a subcommand, `list`.",
)


@extractors_group.result_callback()
@click.pass_context
def extractors_default(ctx: click.Context, *_results: object) -> None:
    if ctx.invoked_subcommand is None:
        ctx.invoke(extractors_list)


@extractors_group.command("list")
def extractors_list() -> None:
    """List every extractor, the variants after the registered ones, then the compositions: name, version, whether
    it gives Markdown (structure kept) or text only, what it is; one that cannot run here says why."""
    with readers()() as session:
        known = known_now(session, settings_of(flask_app()).registry)
    names = max(len(e.name) for e in known.values())
    versions = max(len(e.version) for e in known.values())  # the columns as wide as their longest entry
    for extractor in known.values():
        why = f" [unavailable: {extractor.unavailable_reason}]" if extractor.unavailable_reason else ""
        gives = "markdown " if extractor.structure else "text only"
        click.echo(f"{extractor.name:{names}}  {extractor.version:{versions}}  {gives}  {extractor.description}{why}")


@extractors_group.command("add")
@click.argument("name")
@click.option("--base", required=True, metavar="EXTRACTOR", help="The registered extractor the variant runs.")
@click.option("--option", "pairs", multiple=True, metavar="NAME=VALUE",
              help="An option of the base (repeatable): true/false, a number or a string, as the option takes.")
def extractors_add(name: str, base: str, pairs: tuple[str, ...]) -> None:
    """Store the variant NAME: the extractor BASE with the options given. It is run, scored and listed like
    a built-in; its fingerprint changes with its options."""
    with sessions()() as session:
        try:
            variant = add_extractor_variant(session, settings_of(flask_app()), command_actor(),
                                            name, base, pairs)
        except Refused as error:
            raise click.ClickException(error.reason) from None
        session.commit()
    click.echo(f"variant {variant.name} saved: {variant.fingerprint}")
    click.echo(f"run it with `goldtext extract --extractor {shlex.quote(variant.name)}`")


@extractors_group.command("remove")
@click.argument("name")
def extractors_remove(name: str) -> None:
    """Remove the variant or composition NAME (its stored extractions are kept, found again if it is added back
    the same). A variant that a composition has as a part is not removed (remove the composition first)."""
    with sessions()() as session:
        composed = name in {composition.name for composition in stored_compositions(session)}
        try:
            if composed:
                remove_composed(session, command_actor(), name)
            else:
                remove_extractor_variant(session, command_actor(), name)
        except Refused as error:
            raise click.ClickException(error.reason) from None
        session.commit()
    click.echo(f"{'composition' if composed else 'variant'} {name} removed")


def names_list(value: str | None) -> tuple[str, ...]:
    return tuple(name.strip() for name in (value or "").split(",") if name.strip())


@extractors_group.command("compose")
@click.argument("name")
@click.option("--cascade", metavar="A,B[,C…]",
              help="The first of these whose text the accept guard accepts, else the last.")
@click.option("--union", metavar="A,B[,…]", help="Every distinct line of these, once, in page order.")
@click.option("--route", type=click.Choice(ROUTE_BY), help="Each page's part by its page type or its site.")
@click.option("--table", "table", multiple=True, metavar="KEY=EXTRACTOR",
              help="With --route: the extractor of a page type (or site) KEY, '*' for every other page (repeatable); "
                   "default: the leaderboard's winner of each type (or site) and the overall winner for the others.")
@click.option("--metric", default="tokens", show_default=True, help="With --route and no --table: the leaderboard's "
              "metric that picks the winners.")
def extractors_compose(name: str, cascade: str | None, union: str | None, route: str | None, table: tuple[str, ...],
                       metric: str) -> None:
    """Store the composition NAME of extractors and variants (--cascade, --union or --route), then derive its
    extractions from its parts' stored extractions and score them (nothing is run: a page where a part has no
    extraction has none by the composition either). It is listed, scored and exported like an extractor."""
    kinds = [kind for kind, given in ((CASCADE, cascade), (UNION, union), (ROUTE, route)) if given]
    if len(kinds) != 1:
        raise click.UsageError("give one of --cascade A,B, --union A,B or --route type|site")
    if table and not route:
        raise click.UsageError("--table goes with --route")
    routes: dict[str, str] | None = {} if table else None
    for pair in table:
        key, equals, part = pair.partition("=")
        if not equals or not key.strip() or not part.strip():
            raise click.BadParameter(f"{pair!r} is not KEY=EXTRACTOR", param_hint="--table")
        routes[key.strip()] = part.strip()  # type: ignore[index]
    request = CompositionRequest(name, kinds[0], names_list(cascade or union), route, routes, metric)
    app = flask_app()
    with sessions()() as session:
        try:
            done = compose_extractors(session, settings_of(app), command_actor(), request)
        except Refused as error:
            raise click.ClickException(error.reason) from None
        session.commit()
        job_id, extractor = done.job.id, done.extractor
    click.echo(f"composition {extractor.name} saved: {extractor.description}")
    click.echo(f"fingerprint: {extractor.fingerprint}")
    started = time.perf_counter()
    status = run_here(app, job_id, on_progress=ProgressBars())
    summarise(job_id, status, time.perf_counter() - started)


rules_group = AppGroup("rules", help="Per-site CSS rules of the site-rules extractor.")


@rules_group.command("set")
@click.argument("host")
@click.option("--body", required=True, help="CSS selector of the article body.")
@click.option("--drop", multiple=True, help="CSS selector to remove inside the body (repeatable).")
@click.option("--base", help="An extractor whose text the rule refines (as a learned rule does) instead of "
              "giving the body's text.")
def rules_set(host: str, body: str, drop: tuple[str, ...], base: str | None) -> None:
    """Set HOST's rule (replacing any earlier one)."""
    with sessions()() as session:
        try:
            set_site_rule(session, settings_of(flask_app()), command_actor(), host, body, drop, base)
        except Refused as error:
            raise click.BadParameter(error.reason) from None
        session.commit()
    click.echo(f"rule for {host} saved; run `goldtext extract --extractor site-rules` to apply it")


@rules_group.command("list")
def rules_list() -> None:
    """Show every stored rule: HOST, then its options quoted for the shell, as `goldtext rules set HOST`
    takes them."""
    with sessions()() as session:
        for site in session.scalars(select(Site).join(Site.rule).order_by(Site.host)):
            assert site.rule is not None  # the join keeps only sites with a rule
            options = ["--body", site.rule.body, *(word for d in site.rule.drop for word in ("--drop", d))]
            options += ["--base", site.rule.base] if site.rule.base else []
            click.echo(f"{site.host}: {shlex.join(options)}")


@rules_group.command("report")
@metric_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def rules_report_command(metric: str, fmt: str) -> None:
    """Per site: how site-rules ran on its pages (rule, fallback, failed), and its F1 on the gold against its
    fallback's (the Sites page's rules report)."""
    rules_report(metric, fmt)


@rules_group.command("delete")
@click.argument("host")
def rules_delete(host: str) -> None:
    """Remove HOST's rule."""
    with sessions()() as session:
        try:
            delete_site_rule(session, command_actor(), host)
        except Refused as error:
            raise click.ClickException(error.reason) from None
        session.commit()
    click.echo(f"rule for {host} deleted")


COMMANDS = [extract_command, extractors_group, rules_group]
