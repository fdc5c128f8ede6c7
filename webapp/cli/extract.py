"""`goldtext extract`, `goldtext extractors`, `goldtext rules`: running and configuring extractors."""

from __future__ import annotations

import time
from collections import Counter

import click
from flask.cli import AppGroup, with_appcontext
from sqlalchemy import select

from ..db import sessions
from ..extraction import current_extractors, extract, plan, refresh_derived
from ..extractors.registry import UnknownExtractor, build_registry
from ..models import Site, SiteRule
from ..settings import run_settings
from ..sites import site_named

COMMIT_EVERY = 200


def derive(page_ids: list[int]) -> None:
    """After a run: cache the new extractions' scores and measure the pages' disagreement."""
    started = time.perf_counter()
    with sessions()() as session:
        written, measured = refresh_derived(session, page_ids)
        session.commit()
    click.echo(f"{written} scores cached, disagreement of {measured} pages measured "
               f"in {time.perf_counter() - started:.1f} s")


def run_extraction(
    names: tuple[str, ...] = (), site: str | None = None, force: bool = False, jobs: int | None = None
) -> list[int]:
    """Compute the missing extractions with a progress bar, committing as it goes; print a summary.
    Returns the pages extracted."""
    started = time.perf_counter()
    with sessions()() as session:
        try:
            extractors = current_extractors(session, build_registry(), names)
        except UnknownExtractor as exc:
            raise click.UsageError(str(exc)) from exc
        pairs = plan(session, extractors, site, force)
        session.commit()
        errors: Counter[str] = Counter()
        incomplete = 0
        with click.progressbar(length=len(pairs), label="extracting") as bar:
            for done, row in enumerate(extract(session, pairs, run_settings(jobs), replace=force), 1):
                if row.error:
                    errors[f"{row.extractor}: {row.error.splitlines()[0][:80]}"] += 1
                incomplete += row.incomplete
                if done % COMMIT_EVERY == 0:
                    session.commit()
                bar.update(1)
        session.commit()
    elapsed = time.perf_counter() - started
    click.echo(
        f"{len(pairs)} extractions in {elapsed:.1f} s: {len(pairs) - sum(errors.values())} done, "
        f"{sum(errors.values())} errors, {incomplete} incomplete (libxml2 depth limit)"
    )
    for reason, count in errors.most_common():
        click.echo(f"  {count} x {reason}")
    return sorted({page_id for page_id, _ in pairs})


@click.command("extract")
@with_appcontext
@click.option(
    "--extractor", "names", multiple=True, metavar="NAME",
    help="Run only this extractor (repeatable); default: every registered extractor.",
)
@click.option("--site", metavar="HOST", help="Only pages of this site.")
@click.option("--force", is_flag=True, help="Recompute even what is already stored.")
@click.option(
    "--jobs", type=click.IntRange(min=1), default=None,
    help="Worker processes; default: one per core.",
)
def extract_command(names: tuple[str, ...], site: str | None, force: bool, jobs: int | None) -> None:
    """Run extractors on the stored pages (only what is missing for their current fingerprints),
    then cache the new extractions' scores against the gold and measure the pages' disagreement."""
    derive(run_extraction(names, site, force, jobs))


@click.command("extractors")
@with_appcontext
def extractors_command() -> None:
    """List the registered extractors with their fingerprints."""
    for extractor in build_registry().values():
        click.echo(f"{extractor.name:24} {extractor.version:28} {extractor.description}")


rules_group = AppGroup("rules", help="Per-site CSS rules of the site-rules extractor.")


@rules_group.command("set")
@click.argument("host")
@click.option("--body", required=True, help="CSS selector of the article body.")
@click.option("--drop", multiple=True, help="CSS selector to remove inside the body (repeatable).")
def rules_set(host: str, body: str, drop: tuple[str, ...]) -> None:
    """Set HOST's rule (replacing any earlier one)."""
    validate_selectors([body, *drop])
    with sessions()() as session:
        site = site_named(session, host.lower())
        if site.rule is None:
            site.rule = SiteRule(body=body, drop=list(drop))
        else:
            site.rule.body, site.rule.drop = body, list(drop)
        session.commit()
    click.echo(f"rule for {host} saved; run `goldtext extract --extractor site-rules` to apply it")


@rules_group.command("list")
def rules_list() -> None:
    """Show every stored rule."""
    with sessions()() as session:
        for site in session.scalars(select(Site).join(Site.rule).order_by(Site.host)):
            drops = " ".join(f"--drop {d!r}" for d in site.rule.drop)
            click.echo(f"{site.host}: --body {site.rule.body!r} {drops}".rstrip())


@rules_group.command("delete")
@click.argument("host")
def rules_delete(host: str) -> None:
    """Remove HOST's rule."""
    with sessions()() as session:
        site = session.scalars(select(Site).where(Site.host == host.lower())).one_or_none()
        if site is None or site.rule is None:
            raise click.ClickException(f"no rule for {host}")
        session.delete(site.rule)
        session.commit()
    click.echo(f"rule for {host} deleted")


def validate_selectors(selectors: list[str]) -> None:
    from cssselect import GenericTranslator, SelectorError

    for selector in selectors:
        try:
            GenericTranslator().css_to_xpath(selector)
        except SelectorError as exc:
            raise click.BadParameter(f"invalid CSS selector {selector!r}: {exc}") from exc


COMMANDS = [extract_command, extractors_command, rules_group]
