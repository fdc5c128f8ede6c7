"""The extraction service: which (page, extractor fingerprint) pairs are missing, run them in
killable workers, store each result with its accept-guard verdict.

A pair is missing when it has no stored extraction, or when its stored extraction failed because its
worker process crashed or timed out and has been tried fewer than `MAX_ATTEMPTS` times: such failures
are retried by the next run without `--force`; after that they are kept with their reason.

Database functions take a session and never commit; the job steps (webapp/steps/extraction_steps.py)
run the pairs in chunks and commit each batch of results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from ..models import Extraction, Page, PageRendering, RenderingExtraction, Score, Site, SiteRule, utcnow
from ..scoring.markdown_text import markdown_of_text
from .base import Extractor
from .composition_rows import with_compositions
from .guard import GuardThresholds, judge
from .process_pool import Result
from .registry import resolve, runnable
from .variants import with_variants

SITE_RULES = "site-rules"
RETRYABLE = ("timeout after", "worker crashed")
"""Errors that say the call did not finish (not that the extractor failed on the page): retried."""
MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class RunSettings:
    workers: int | None = None
    timeout: float = 60.0
    memory_mb: int = 2048
    guard: GuardThresholds = GuardThresholds()


def stored_rules(session: Session) -> dict[str, dict]:
    rows = session.execute(select(Site.host, SiteRule.body, SiteRule.drop, SiteRule.base).join(SiteRule.site))
    return {host: {"body": body, "drop": list(drop), **({"base": base} if base else {})}
            for host, body, drop, base in rows}


def current_extractors(
    session: Session, registry: Mapping[str, Extractor], names: Sequence[str] = ()
) -> list[Extractor]:
    """The named extractors (every one that can run here when none are named) as they stand now (`known_now`).
    UnknownExtractor names an unknown one, UnavailableExtractor one that cannot run here."""
    known = known_now(session, registry)
    return resolve(known, names) if names else runnable(known)


def known_now(session: Session, registry: Mapping[str, Extractor]) -> dict[str, Extractor]:
    """Every extractor by name as it stands now: the registry's, the stored variants, site-rules with the stored
    rules, then the stored compositions of them (extractors/compositions.py)."""
    known = with_variants(session, registry)
    if SITE_RULES in known:
        known[SITE_RULES] = replace(known[SITE_RULES], options={"rules": stored_rules(session)})
    return with_compositions(session, known)


def retryable(error: str | None) -> bool:
    return error is not None and error.startswith(RETRYABLE)


def missing_page_ids(
    session: Session, extractor: Extractor, site: str | None = None, force: bool = False,
    page_ids: Sequence[int] | None = None,
) -> list[int]:
    """Pages (of a site, or of `page_ids`) whose extraction by this fingerprint is missing or is a
    retryable failure with attempts left."""
    query = select(Page.id).order_by(Page.id)
    if site:
        query = query.join(Page.site).where(Site.host == site)
    if page_ids is not None:
        query = query.where(Page.id.in_(list(page_ids)))
    if not force:
        done = select(Extraction.page_id).where(
            Extraction.fingerprint == extractor.fingerprint,
            ~(Extraction.error.is_not(None)
              & or_(*(Extraction.error.startswith(prefix) for prefix in RETRYABLE))
              & (Extraction.attempts < MAX_ATTEMPTS)),
        )
        query = query.where(Page.id.not_in(done))
    return list(session.scalars(query))


def missing_rendering_ids(
    session: Session, extractors: Sequence[Extractor], site: str | None = None, force: bool = False,
    page_ids: Sequence[int] | None = None,
) -> list[int]:
    """The renderings in Chromium (of the pages of a site, or of `page_ids`) that lack the output of one of these
    extractors at its current fingerprint (every rendering with `force`): an extractor added after a capture
    reaches its renderings as it reaches its raw responses."""
    fingerprints = [e.fingerprint for e in extractors]
    if not fingerprints:
        return []
    query = select(PageRendering.id).join(Page, Page.id == PageRendering.page_id).order_by(PageRendering.id)
    if site:
        query = query.join(Page.site).where(Site.host == site)
    if page_ids is not None:
        query = query.where(Page.id.in_(list(page_ids)))
    if not force:
        done = (select(RenderingExtraction.rendering_id)
                .where(RenderingExtraction.fingerprint.in_(fingerprints))
                .group_by(RenderingExtraction.rendering_id)
                .having(func.count(func.distinct(RenderingExtraction.fingerprint)) == len(set(fingerprints))))
        query = query.where(PageRendering.id.not_in(done))
    return list(session.scalars(query))


def outdated_page_ids(session: Session, extractor: Extractor, page_ids: Sequence[int] | None = None) -> list[int]:
    """The pages (of `page_ids`) that the extractor's name has an extraction of at another fingerprint (an older
    version, other options) and none at its current one."""
    query = (select(Extraction.page_id).distinct().order_by(Extraction.page_id)
             .where(Extraction.extractor == extractor.name, Extraction.fingerprint != extractor.fingerprint)
             .where(Extraction.page_id.not_in(select(Extraction.page_id)
                                              .where(Extraction.fingerprint == extractor.fingerprint))))
    if page_ids is not None:
        query = query.where(Extraction.page_id.in_(list(page_ids)))
    return list(session.scalars(query))


def plan(
    session: Session, extractors: Iterable[Extractor], site: str | None = None, force: bool = False,
    page_ids: Sequence[int] | None = None, outdated: bool = False,
) -> list[tuple[int, Extractor]]:
    """(page id, extractor) pairs to compute, page by page so a page's HTML is loaded once, the
    largest pages first: the slowest calls start early instead of leaving one worker busy at the end.
    `outdated`: only the pages each extractor has extracted at another fingerprint only (`outdated_page_ids`)."""
    pairs = [(pid, e) for e in extractors
             for pid in missing_page_ids(session, e, site, force,
                                         outdated_page_ids(session, e, page_ids) if outdated else page_ids)]
    sizes: dict[int, int] = dict(session.execute(select(Page.id, func.length(Page.html))).all()) if pairs else {}
    return sorted(pairs, key=lambda pair: (-sizes.get(pair[0], 0), pair[0]))


def store_all(session: Session, results: Sequence[Result], thresholds: GuardThresholds) -> list[Extraction]:
    """Insert the extraction of each result's (page, fingerprint), or update the stored one and drop its cached
    scores; the rows replaced are found by one query and their scores dropped by one statement (a worker's
    flush of 16 results: one lookup, not 16 each flushing the row added before it). Not flushed: the caller's
    next query or commit writes them."""
    wanted = {(result.key[0], result.fingerprint) for result in results}
    rows: dict[tuple[int, str], Extraction] = {}
    if wanted:
        found = session.scalars(select(Extraction).where(
            Extraction.page_id.in_({page_id for page_id, _ in wanted}),
            Extraction.fingerprint.in_({fingerprint for _, fingerprint in wanted})))
        rows = {(row.page_id, row.fingerprint): row for row in found if (row.page_id, row.fingerprint) in wanted}
    if rows:
        session.execute(delete(Score).where(Score.extraction_id.in_([row.id for row in rows.values()])))
    stored = []
    for result in results:
        page_id, html_length = result.key
        row = rows.get((page_id, result.fingerprint))
        if row is None:
            row = rows[page_id, result.fingerprint] = Extraction(page_id=page_id, fingerprint=result.fingerprint,
                                                                 attempts=1)
            session.add(row)
        else:  # stored before, or by a result before this one
            row.created_at = utcnow()
            row.attempts = row.attempts + 1 if retryable(row.error) else 1
        filled(row, result, html_length, thresholds)
        row.incomplete = result.incomplete
        stored.append(row)
    return stored


def filled(row: Extraction | RenderingExtraction, result: Result, html_length: int,
           thresholds: GuardThresholds) -> None:
    """The row given the result's output and the accept guard's verdict on it."""
    verdict = judge("" if result.error else result.text, html_length, thresholds)
    row.extractor = result.extractor_name
    row.text = result.text
    row.markdown = result.markdown if result.markdown is not None else markdown_of_text(result.text)
    row.meta = result.metadata
    if isinstance(row, Extraction):  # a rendering's output is kept for its text; the metadata is the raw page's
        row.article_metadata = result.article_metadata or None
    row.duration_ms = result.duration_ms
    row.error = result.error
    row.accepted = verdict.accepted and not result.error
    row.guard_reason = "error" if result.error else verdict.reason


def store_on_rendering(session: Session, result: Result, thresholds: GuardThresholds) -> RenderingExtraction:
    """Insert or update the extraction of (rendering, fingerprint): an extractor's output on a page's
    rendering in Chromium, kept apart from its output on the raw response (no score reads it)."""
    rendering_id, html_length = result.key
    row = session.scalars(select(RenderingExtraction).where(
        RenderingExtraction.rendering_id == rendering_id, RenderingExtraction.fingerprint == result.fingerprint
    )).one_or_none()
    if row is None:
        row = RenderingExtraction(rendering_id=rendering_id, fingerprint=result.fingerprint)
        session.add(row)
    else:
        row.created_at = utcnow()
    filled(row, result, html_length, thresholds)
    return row
