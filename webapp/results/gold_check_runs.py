"""The database side of the checks of the gold (scoring/gold_checks.py): which pages they run on, what
each page gives them, and the failures kept per page (GoldCheck) for the Checks page, the API and the
queue's filter. Services take a session and never commit.

The checks run on every page with done gold, and on every double-annotated page (the disagreement check
needs no gold). A run replaces the kept failures of the pages it checked, and notes on each (GoldCheckRun)
when it ran and on what: the gold's version and the newest revision of the page's annotations. A page whose
gold or annotations moved on since is "not checked since the last change" (`stale_pages`): every change of
gold queues a check job that checks those (jobs/follow_checks.py), and until it has run the Checks page
says so rather than showing the page as passing (`overview`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from ..annotation.article_metadata import expected
from ..corpus.document import FETCH_FACT
from ..corpus.visible_text import block_lines, parse_html
from ..extractors.base import Extractor
from ..extractors.scored_output import scored, scored_html, with_scored, with_scored_document
from ..foundation.vocabulary import DONE, Taxonomy
from ..models import Annotation, AnnotationRevision, Extraction, Gold, GoldCheck, GoldCheckRun, Page, utcnow
from ..scoring import gold_checks as checks
from ..scoring.agreement_maths import text_f1
from ..scoring.markdown_text import stray_html
from ..scoring.metadata_checks import date_out_of_range, missing_expected, not_on_page
from .agreement_figures import annotated_pages, double_annotated
from .extractions import current_named

CHUNK = 100  # pages read at once


@dataclass
class Failed:
    """A page that failed one check or more, with one reason per check, in the order of checks.CHECKS."""

    page_id: int
    url: str | None
    reasons: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        names = [name for name in checks.CHECKS if name in self.reasons]
        return {"page_id": self.page_id, "url": self.url, "checks": names,
                "reasons": [self.reasons[name] for name in names]}


def report(pages: int, failing: Iterable[Failed]) -> dict[str, Any]:
    """`goldtext check --format json` and GET /api/checks: {"pages": N, "failing": [...]}, by page id."""
    return {"pages": pages, "failing": [f.as_json() for f in sorted(failing, key=lambda f: f.page_id)]}


def failing_by_check(result: dict[str, Any]) -> dict[str, int]:
    """How many of a report's failing pages fail each check, in the order of checks.CHECKS."""
    return {name: sum(name in page["checks"] for page in result["failing"]) for name in checks.CHECKS}


def checked_pages(session: Session, page_ids: Sequence[int] | None = None) -> list[int]:
    """The pages the checks run on (of `page_ids`, or all): done gold or two finished annotations."""
    done = select(Gold.page_id).where(Gold.status == DONE)
    found = set(session.scalars(done)) | set(double_annotated(session))
    if page_ids is not None:
        found &= set(page_ids)
    return sorted(found)


def _shown(html: str) -> tuple[list[str], str, str]:
    """A page's blocks, everything it shows as text (its blocks and its title), and that with the contents
    of its <meta> elements (where a title or an author may be said)."""
    root = parse_html(html)
    blocks = block_lines(root)
    title = root.findtext(".//title") or ""
    shown = "\n".join([title, *blocks])
    return blocks, shown, "\n".join([shown, *(str(value) for value in root.xpath("//meta/@content"))])


def _extraction_texts(session: Session, page_ids: Sequence[int],
                      fingerprints: Mapping[str, str]) -> dict[int, dict[str, tuple[str, bool]]]:
    """page -> extractor -> (text, errored) of the output scored (extractors/scored_output.py), the current
    extractors' only."""
    by_fingerprint = {fp: name for name, fp in fingerprints.items()}
    found: dict[int, dict[str, tuple[str, bool]]] = defaultdict(dict)
    rows = session.execute(with_scored(select(Extraction.page_id, Extraction.fingerprint, scored("text"),
                                              scored("error"))
                                       .where(Extraction.page_id.in_(page_ids),
                                              Extraction.fingerprint.in_(list(by_fingerprint)))))
    for page_id, fingerprint, text, error in rows:
        found[page_id][by_fingerprint[fingerprint]] = (text or "", error is not None)
    return found


def _check_gold(gold: Gold, html: str, extracted: Mapping[str, tuple[str, bool]], taxonomy: Taxonomy,
                thresholds: checks.Thresholds, said: PageSaid) -> dict[str, str]:
    has_content = taxonomy.has_content(gold.page_type)
    blocks, shown, with_meta = _shown(html)
    reasons = {checks.TYPE_MISMATCH: checks.type_mismatch(gold.page_type, has_content, gold.text),
               **_check_metadata(gold, with_meta, said)}
    if has_content and gold.text.strip():
        f1 = {name: 0.0 if errored else text_f1(text, gold.text) for name, (text, errored) in extracted.items()}
        texts = [text for text, errored in extracted.values() if not errored]
        reasons |= {
            checks.LOW_SCORES: checks.low_scores(f1, thresholds.low_score),
            checks.MARKUP: checks.markup(gold.text + "\n" + stray_html(gold.markdown), shown),
            checks.UNKNOWN_WORDS: checks.unknown_words(gold.text, shown, thresholds.unknown_words),
            checks.TRUNCATED: checks.truncated(gold.text, blocks, texts, thresholds.short_gold),
            checks.REPEATED_TEXT: checks.repeated_text(gold.text, shown, thresholds.repeat_words),
        }
    return {name: reason for name, reason in reasons.items() if reason}


@dataclass(frozen=True)
class PageSaid:
    """What the metadata checks read of a page besides its gold: its address, the day it was captured (its
    fetch facts, when Goldtext captured it) and the day the checks run."""

    url: str | None
    captured: str | None
    today: date


def _check_metadata(gold: Gold, shown: str, said: PageSaid) -> dict[str, str | None]:
    metadata = gold.article_metadata or {}
    return {
        checks.DATE_OUT_OF_RANGE: date_out_of_range(metadata.get("published"), said.today, said.url, said.captured),
        checks.METADATA_NOT_ON_PAGE: not_on_page(metadata, shown),
        checks.METADATA_MISSING: missing_expected(metadata, gold.page_type, expected(gold.page_type)),
    }


def _page_said(url: str | None, facts: Mapping[str, Any] | None, today: date) -> PageSaid:
    fetch = (facts or {}).get(FETCH_FACT) or {}
    captured = fetch.get("fetched_at") if isinstance(fetch, dict) else None
    return PageSaid(url, captured if isinstance(captured, str) else None, today)


State = tuple[int | None, int | None]
"""What a check ran on: the gold's version (None: no gold) and the newest annotation revision's id (None: none)."""


def page_states(session: Session, page_ids: Sequence[int] | None = None) -> dict[int, State]:
    """Each page's state now (of `page_ids`, or every page with a gold or an annotation)."""
    golds = select(Gold.page_id, Gold.version)
    newest = (select(Annotation.page_id, func.max(AnnotationRevision.id))
              .join(AnnotationRevision, AnnotationRevision.annotation_id == Annotation.id).group_by(Annotation.page_id))
    if page_ids is not None:
        golds, newest = golds.where(Gold.page_id.in_(page_ids)), newest.where(Annotation.page_id.in_(page_ids))
    versions = {page_id: version for page_id, version in session.execute(golds)}
    revisions = {page_id: newest_id for page_id, newest_id in session.execute(newest)}
    return {page_id: (versions.get(page_id), revisions.get(page_id)) for page_id in set(versions) | set(revisions)}


def last_runs(session: Session) -> dict[int, GoldCheckRun]:
    """Each page's last check run, by page id."""
    return {run.page_id: run for run in session.scalars(select(GoldCheckRun))}


def stale_pages(session: Session) -> list[int]:
    """The pages to check again: those the checks cover that were never checked or whose gold or annotations
    changed since their last check, and those checked once that the checks no longer cover (their kept
    failures go)."""
    states, runs = page_states(session), last_runs(session)
    covered = set(checked_pages(session))
    changed = {page_id for page_id in covered
               if page_id not in runs or states.get(page_id, (None, None)) != _ran_on(runs[page_id])}
    return sorted(changed | (set(runs) - covered))


def _ran_on(run: GoldCheckRun) -> State:
    return run.gold_version, run.annotation_revision


def run_checks(session: Session, registry: Mapping[str, Extractor], taxonomy: Taxonomy,
               thresholds: checks.Thresholds, page_ids: Sequence[int] | None = None) -> tuple[int, list[Failed]]:
    """Check these pages (or every page the checks run on), replace their kept failures and note their
    runs, and return (how many pages were checked, the failing ones). Of `page_ids`, a page the checks do
    not cover loses its kept failures and its run."""
    wanted = checked_pages(session, page_ids)
    today = utcnow().date()
    fingerprints = current_named(session, registry)
    disputed = {int(p.page_id): p for p in annotated_pages(session, wanted)}  # type: ignore[call-overload]
    failing: list[Failed] = []
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start:start + CHUNK]
        extracted = _extraction_texts(session, chunk, fingerprints)
        golds = {g.page_id: g for g in session.scalars(select(Gold).where(Gold.page_id.in_(chunk)))}
        pages = with_scored_document(select(Page.id, Page.url, scored_html, Page.facts)).where(Page.id.in_(chunk))
        for page_id, url, html, facts in session.execute(pages):
            reasons: dict[str, str] = {}
            gold = golds.get(page_id)
            if gold is not None and gold.status == DONE:
                reasons = _check_gold(gold, html, extracted.get(page_id, {}), taxonomy, thresholds,
                                      _page_said(url, facts, today))
            if page_id in disputed:
                page = disputed[page_id]
                texts = {said.author: said.text for said in page.said}
                reason = checks.disagreement(texts, page.gold is not None, thresholds.min_agreement)
                if reason:
                    reasons[checks.DISAGREEMENT] = reason
            if reasons:
                failing.append(Failed(page_id, url, reasons))
    keep(session, wanted if page_ids is None else sorted(set(page_ids) | set(wanted)), failing)
    note_runs(session, wanted)
    return len(wanted), failing


def keep(session: Session, page_ids: Sequence[int], failing: Sequence[Failed]) -> None:
    """Replace the kept failures of these pages with these (and forget their runs)."""
    for start in range(0, len(page_ids), 500):
        part = page_ids[start:start + 500]
        session.execute(delete(GoldCheck).where(GoldCheck.page_id.in_(part)))
        session.execute(delete(GoldCheckRun).where(GoldCheckRun.page_id.in_(part)))
    rows = [{"page_id": f.page_id, "name": name, "reason": reason}
            for f in failing for name, reason in f.reasons.items()]
    if rows:
        session.execute(insert(GoldCheck), rows)


def note_runs(session: Session, page_ids: Sequence[int]) -> None:
    """Note that the checks ran on these pages now, on their state now (their old runs are gone: `keep`)."""
    now = utcnow()
    for start in range(0, len(page_ids), 500):
        part = page_ids[start:start + 500]
        states = page_states(session, part)
        rows = [{"page_id": page_id, "checked_at": now, "gold_version": states.get(page_id, (None, None))[0],
                 "annotation_revision": states.get(page_id, (None, None))[1]} for page_id in part]
        if rows:
            session.execute(insert(GoldCheckRun), rows)


def kept(session: Session) -> tuple[int, list[Failed]]:
    """The failures kept by the last runs, as run_checks returns them (pages: those the checks cover now)."""
    found: dict[int, Failed] = {}
    rows = session.execute(select(GoldCheck.page_id, Page.url, GoldCheck.name, GoldCheck.reason)
                           .join(Page, Page.id == GoldCheck.page_id).order_by(GoldCheck.page_id))
    for page_id, url, name, reason in rows:
        found.setdefault(page_id, Failed(page_id, url)).reasons[name] = reason
    return len(checked_pages(session)), list(found.values())



@dataclass(frozen=True)
class PageCheck:
    """A page the checks cover, as the Checks page shows it: when it was last checked (None: never), the
    gold version it was checked against and the gold version now (None: no gold), whether its gold or
    annotations changed since (`stale`), and the reasons it failed then."""

    page_id: int
    url: str | None
    checked_at: datetime | None
    checked_version: int | None
    gold_version: int | None
    stale: bool
    reasons: dict[str, str]


def overview(session: Session) -> list[PageCheck]:
    """Every page the checks cover, and every page with kept failures, by page id."""
    covered = set(checked_pages(session))
    runs, states = last_runs(session), page_states(session)
    _pages, failing = kept(session)
    reasons = {f.page_id: f.reasons for f in failing}
    ids = sorted(covered | set(reasons))
    urls = {page_id: url for page_id, url in session.execute(select(Page.id, Page.url).where(Page.id.in_(ids)))}
    shown: list[PageCheck] = []
    for page_id in ids:
        run = runs.get(page_id)
        state = states.get(page_id, (None, None))
        shown.append(PageCheck(page_id, urls.get(page_id), run.checked_at if run else None,
                               run.gold_version if run else None, state[0],
                               run is None or _ran_on(run) != state, reasons.get(page_id, {})))
    return shown
