"""The extraction service: which (page, extractor fingerprint) pairs are missing, run them in
killable workers, store each result with its accept-guard verdict.

Database functions take a session and never commit; `extract` yields each stored result so the
caller (CLI, background job) can show progress and commit as it likes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from .disagreement import refresh_disagreement
from .extractors.base import Extractor
from .extractors.guard import GuardThresholds, judge
from .extractors.registry import resolve
from .extractors.runner import Job, Result, run_jobs
from .models import Extraction, Page, Score, Site, SiteRule, utcnow
from .scores import refresh_scores

SITE_RULES = "site-rules"


@dataclass(frozen=True)
class RunSettings:
    workers: int | None = None
    timeout: float = 60.0
    memory_mb: int = 2048
    guard: GuardThresholds = GuardThresholds()


def stored_rules(session: Session) -> dict[str, dict]:
    rows = session.execute(select(Site.host, SiteRule.body, SiteRule.drop).join(SiteRule.site))
    return {host: {"body": body, "drop": list(drop)} for host, body, drop in rows}


def current_extractors(
    session: Session, registry: Mapping[str, Extractor], names: Sequence[str] = ()
) -> list[Extractor]:
    """The named extractors (all when none are named) as they stand now: site-rules with the stored rules."""
    chosen = resolve(registry, names) if names else list(registry.values())
    return [
        replace(e, options={"rules": stored_rules(session)}) if e.name == SITE_RULES else e
        for e in chosen
    ]


def missing_page_ids(
    session: Session, extractor: Extractor, site: str | None = None, force: bool = False
) -> list[int]:
    query = select(Page.id).order_by(Page.id)
    if site:
        query = query.join(Page.site).where(Site.host == site)
    if not force:
        done = select(Extraction.page_id).where(Extraction.fingerprint == extractor.fingerprint)
        query = query.where(Page.id.not_in(done))
    return list(session.scalars(query))


def plan(
    session: Session, extractors: Iterable[Extractor], site: str | None = None, force: bool = False
) -> list[tuple[int, Extractor]]:
    """(page id, extractor) pairs to compute, page by page so a page's HTML is loaded once, the
    largest pages first: the slowest calls start early instead of leaving one worker busy at the end."""
    pairs = [(pid, e) for e in extractors for pid in missing_page_ids(session, e, site, force)]
    sizes = dict(session.execute(select(Page.id, func.length(Page.html))).all()) if pairs else {}
    return sorted(pairs, key=lambda pair: (-sizes.get(pair[0], 0), pair[0]))


def _jobs(session: Session, pairs: Sequence[tuple[int, Extractor]]) -> Iterator[Job]:
    loaded: tuple[int, str, str | None] | None = None
    for page_id, extractor in pairs:
        if loaded is None or loaded[0] != page_id:
            html, url = session.execute(
                select(Page.html, Page.url).where(Page.id == page_id)
            ).one()
            loaded = (page_id, html, url)
        yield Job(key=(page_id, len(loaded[1])), extractor=extractor, html=loaded[1], url=loaded[2])


def store(
    session: Session, result: Result, thresholds: GuardThresholds, replace: bool = True
) -> Extraction:
    """Insert the extraction of (page, fingerprint), or with `replace` update the stored one (dropping
    its cached scores). Not flushed: the caller's next query or commit writes it."""
    page_id, html_length = result.key
    row = None
    if replace:
        row = session.scalars(
            select(Extraction).where(
                Extraction.page_id == page_id, Extraction.fingerprint == result.fingerprint
            )
        ).one_or_none()
    if row is None:
        row = Extraction(page_id=page_id, fingerprint=result.fingerprint)
        session.add(row)
    else:
        session.execute(delete(Score).where(Score.extraction_id == row.id))
        row.created_at = utcnow()
    verdict = judge("" if result.error else result.text, html_length, thresholds)
    row.extractor = result.extractor_name
    row.text = result.text
    row.meta = result.metadata
    row.duration_ms = result.duration_ms
    row.error = result.error
    row.incomplete = result.incomplete
    row.accepted = verdict.accepted and not result.error
    row.guard_reason = "error" if result.error else verdict.reason
    return row


def extract(
    session: Session,
    pairs: Sequence[tuple[int, Extractor]],
    settings: RunSettings,
    replace: bool = False,
) -> Iterator[Extraction]:
    """Run the planned pairs and store each result as it arrives (`replace`: some may exist already,
    as after a forced plan)."""
    results = run_jobs(
        _jobs(session, pairs),
        workers=settings.workers,
        timeout=settings.timeout,
        memory_mb=settings.memory_mb,
    )
    for result in results:
        yield store(session, result, settings.guard, replace)


def refresh_derived(session: Session, page_ids: Iterable[int]) -> tuple[int, int]:
    """What follows an extraction run over these pages: the new extractions' cached scores, and the
    disagreement of these pages and of any never measured. Returns (scores written, pages measured)."""
    unmeasured = session.scalars(select(Page.id).where(Page.disagreement.is_(None)))
    measured = sorted(set(page_ids) | set(unmeasured))
    refresh_disagreement(session, measured)
    return refresh_scores(session), len(measured)
