"""Which pages an export holds, read from the database in chunks so that memory stays flat."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from ..annotation.annotations import SYSTEM, VOID
from ..annotation.page_filter import PageFilter
from ..corpus.document import HISTORY_FACT, LAYOUT_FACT
from ..extractors.scored_output import scored, with_scored
from ..foundation.vocabulary import FLAT
from ..models import Annotation, AnnotationRevision, Extraction, Gold, GoldRevision, Page, Score, Site
from ..results.store import current_of
from ..scoring import Metric
from ..scoring.markdown_text import markdown_of_text

CHUNK = 100


@dataclass(frozen=True)
class GoldRecord:
    text: str
    page_type: str
    status: str
    snippets: dict[str, list[str]] | None
    annotators: tuple[str, ...]  # every author of a revision in the order they first saved, then every
    # annotator whose own annotation says what the gold says (an automatic adjudication credits them all)
    revisions: int
    updated_at: datetime
    note: str | None = None  # the reviewer's note on an adjudicated gold
    efforts: tuple[dict[str, Any], ...] = ()  # {version, author, effort} of each revision recording an effort
    author: str | None = None  # who saved the gold's current version
    provenance: dict[str, Any] | None = None  # where the current version's text came from (annotation/provenance.py)
    guideline_version: int | None = None  # of its current revision: the guideline in force when it was saved
    markdown: str | None = None  # the gold as Markdown (None: its text's, escaped: `gold_markdown`)
    text_source: str = FLAT  # where its text came from (vocabulary.TEXT_SOURCES)
    metadata: dict[str, Any] | None = None  # title, authors, published (annotation/article_metadata.py)

    @property
    def gold_markdown(self) -> str:
        return self.markdown if self.markdown is not None else markdown_of_text(self.text)


@dataclass(frozen=True)
class AnnotationRecord:
    """One annotator's own annotation of the page (double annotation)."""

    author: str
    text: str
    page_type: str
    status: str
    efforts: tuple[dict[str, Any], ...] = ()  # {version, author, effort} of each revision recording an effort
    provenance: dict[str, Any] | None = None  # of its current version (annotation/provenance.py)
    guideline_version: int | None = None  # of its current revision
    markdown: str | None = None  # as the gold's
    text_source: str = FLAT
    metadata: dict[str, Any] | None = None  # as the gold's

    @property
    def gold_markdown(self) -> str:
        return self.markdown if self.markdown is not None else markdown_of_text(self.text)


@dataclass(frozen=True)
class ExtractionRecord:
    extractor: str
    fingerprint: str
    text: str
    error: str | None
    accepted: bool
    scores: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # metric -> (P, R, F1)
    markdown: str | None = None  # the extraction's Markdown, when it was loaded (Loading.markdown)


@dataclass(frozen=True)
class ExportedPage:
    id: int
    url: str | None
    site: str
    sha256: str
    encoding: str
    created_at: datetime
    raw: bytes | None
    gold: GoldRecord | None
    extractions: tuple[ExtractionRecord, ...]
    annotations: tuple[AnnotationRecord, ...] = ()
    layout: Mapping[str, Any] = field(default_factory=dict)  # what a benchmark layout said of it (corpus.document)


@dataclass(frozen=True)
class Loading:
    """What to read besides the page's row and gold."""

    raw: bool = True
    extractions: bool = False
    scores: Mapping[str, Metric] | None = None  # the per-page scores of these metrics
    fingerprints: tuple[str, ...] = ()  # only these extractions (empty: all)
    markdown: bool = False  # each extraction's Markdown too (models.Extraction.markdown)


def _filtered(query: Select, selection: PageFilter) -> Select:
    return selection.where(query.join(Site, Site.id == Page.site_id).outerjoin(Gold, Gold.page_id == Page.id))


def count_pages(session: Session, selection: PageFilter) -> int:
    return session.scalar(_filtered(select(func.count(Page.id)), selection)) or 0


def extracted_fingerprints(session: Session, selection: PageFilter, fingerprints: Sequence[str]) -> set[str]:
    """Those of fingerprints with at least one extraction (not an error) on a selected page."""
    query = select(Extraction.fingerprint).distinct().join(Page, Page.id == Extraction.page_id)
    query = query.where(Extraction.fingerprint.in_(list(fingerprints)), Extraction.error.is_(None))
    return set(session.scalars(_filtered(query, selection)))


def iter_pages(session: Session, selection: PageFilter, loading: Loading = Loading()) -> Iterator[ExportedPage]:
    """The selected pages in id order, CHUNK at a time (plain rows: nothing stays in the session)."""
    raw = Page.raw if loading.raw else None
    columns = [Page.id, Page.url, Site.host, Page.sha256, Page.encoding, Page.created_at, Gold.id,
               Gold.text, Gold.page_type, Gold.status, Gold.snippets, Gold.updated_at, Gold.note, Page.facts,
               Gold.author, Gold.markdown, Gold.text_source, Gold.article_metadata]
    last = 0
    while True:
        query = _filtered(select(*columns, *([raw] if raw is not None else [])), selection)
        rows = session.execute(query.where(Page.id > last).order_by(Page.id).limit(CHUNK)).all()
        if not rows:
            return
        last = rows[-1][0]
        gold_ids = [row[6] for row in rows if row[6] is not None]
        authors = _authors(session, gold_ids)
        efforts = _efforts(session, GoldRevision.gold_id, gold_ids)
        provenances = _current_provenance(session, GoldRevision, GoldRevision.gold_id, Gold, gold_ids)
        guidelines = _guideline_versions(session, gold_ids)
        found = _extractions(session, [row[0] for row in rows], loading)
        annotations = _annotations(session, [row[0] for row in rows])
        for row in rows:
            gold = None
            history = (row[13] or {}).get(HISTORY_FACT) or {}
            if row[6] is not None:
                names, count = authors.get(row[6], ((), 0))
                names = credited(names, row[7], row[8], row[9], annotations.get(row[0], ()))
                gold = GoldRecord(row[7], row[8], row[9], row[10],
                                  tuple(dict.fromkeys((*history.get("annotators", ()), *names))), count, row[11],
                                  row[12], (*_imported(history.get("effort")), *efforts.get(row[6], ())), row[14],
                                  provenances.get(row[6]), guidelines.get(row[6]), row[15], row[16], row[17])
            kept = history.get("annotations", {})
            yield ExportedPage(row[0], row[1], row[2], row[3], row[4], row[5],
                               row[18] if raw is not None else None, gold, tuple(found.get(row[0], ())),
                               tuple(replace(a, efforts=(*_imported(kept.get(a.author)), *a.efforts))
                                     for a in annotations.get(row[0], ())),
                               (row[13] or {}).get(LAYOUT_FACT) or {})


def _imported(entries: Sequence[dict[str, Any]] | None) -> tuple[dict[str, Any], ...]:
    """An imported export's efforts (corpus/document.py `history`) in the shape of the revisions' own."""
    return tuple({"version": entry["version"], "author": entry["author"],
                  "effort": {key: value for key, value in entry.items() if key not in ("version", "author")}}
                 for entry in entries or ())


def _authors(session: Session, gold_ids: Sequence[int]) -> dict[int, tuple[tuple[str, ...], int]]:
    """gold id -> (distinct authors in order of their first revision, number of revisions)."""
    authors: dict[int, dict[str, None]] = defaultdict(dict)
    counts: dict[int, int] = defaultdict(int)
    query = select(GoldRevision.gold_id, GoldRevision.author).where(GoldRevision.gold_id.in_(gold_ids))
    for gold_id, author in session.execute(query.order_by(GoldRevision.id)):
        authors[gold_id][author] = None
        counts[gold_id] += 1
    return {gold_id: (tuple(authors[gold_id]), counts[gold_id]) for gold_id in counts}


def _efforts(session: Session, owner: Any, ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """record id -> {version, author, effort} of its revisions that record an effort, in order; ``owner``:
    GoldRevision.gold_id or AnnotationRevision.annotation_id."""
    revision = owner.class_
    query = (select(owner, revision.version, revision.author, revision.effort)
             .where(owner.in_(ids), revision.effort.is_not(None)).order_by(revision.id))
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for record_id, version, author, effort in session.execute(query):
        found[record_id].append({"version": version, "author": author, "effort": effort})
    return found


def _current_provenance(session: Session, revision: Any, owner: Any, record: Any,
                        ids: Sequence[int]) -> dict[int, dict[str, Any] | None]:
    """record id -> the provenance of the revision that made its current version (the first revision with
    that version: a later stale save may carry the same version), for golds or annotations."""
    query = (select(owner, revision.provenance).join(record, record.id == owner)
             .where(owner.in_(ids), revision.version == record.version).order_by(revision.id.desc()))
    return {record_id: provenance for record_id, provenance in session.execute(query)}


def _guideline_versions(session: Session, gold_ids: Sequence[int]) -> dict[int, int | None]:
    """gold id -> the guideline version its current revision recorded (the one revision with its version:
    a stale save records an older version)."""
    query = (select(GoldRevision.gold_id, GoldRevision.guideline_version)
             .join(Gold, (Gold.id == GoldRevision.gold_id) & (Gold.version == GoldRevision.version))
             .where(GoldRevision.gold_id.in_(gold_ids)))
    return {gold_id: version for gold_id, version in session.execute(query)}


def credited(authors: tuple[str, ...], text: str, page_type: str, status: str,
             annotations: Sequence[AnnotationRecord]) -> tuple[str, ...]:
    """The gold's authors (SYSTEM, the author of an automatic adjudication, left out: nobody), then the
    annotators whose annotation has the gold's text (ends trimmed), type and status: their text agreed, so
    the gold is theirs too."""
    agreed = [a.author for a in annotations
              if (a.text.strip(), a.page_type, a.status) == (text.strip(), page_type, status)]
    return tuple(dict.fromkeys((*(name for name in authors if name != SYSTEM), *agreed)))


def _annotations(session: Session, page_ids: Sequence[int]) -> dict[int, list[AnnotationRecord]]:
    """page id -> its annotations that count (not voided), in the order they were first saved."""
    current = ((AnnotationRevision.annotation_id == Annotation.id)
               & (AnnotationRevision.version == Annotation.version))  # its one applied revision
    query = (select(Annotation.page_id, Annotation.id, Annotation.author, Annotation.text, Annotation.page_type,
                    Annotation.status, AnnotationRevision.guideline_version, Annotation.markdown,
                    Annotation.text_source, Annotation.article_metadata)
             .outerjoin(AnnotationRevision, current)
             .where(Annotation.page_id.in_(page_ids), Annotation.status != VOID)
             .order_by(Annotation.page_id, Annotation.id))
    rows = session.execute(query).all()
    efforts = _efforts(session, AnnotationRevision.annotation_id, [row[1] for row in rows])
    provenances = _current_provenance(session, AnnotationRevision, AnnotationRevision.annotation_id, Annotation,
                                      [row[1] for row in rows])
    found: dict[int, list[AnnotationRecord]] = defaultdict(list)
    for page_id, annotation_id, author, text, page_type, status, guideline_version, markdown, source, metadata in rows:
        found[page_id].append(AnnotationRecord(author, text, page_type, status,
                                               tuple(efforts.get(annotation_id, ())),
                                               provenances.get(annotation_id), guideline_version, markdown, source,
                                               metadata))
    return found


def _extractions(session: Session, page_ids: Sequence[int], loading: Loading) -> dict[int, list[ExtractionRecord]]:
    if not (loading.extractions or loading.scores):
        return {}
    query = with_scored(select(Extraction.id, Extraction.page_id, Extraction.extractor, Extraction.fingerprint,
                               scored("text"), scored("error"), scored("accepted"),
                               *([scored("markdown")] if loading.markdown else []))
                        .where(Extraction.page_id.in_(page_ids)))  # the outputs scored (extractors/scored_output.py)
    if loading.fingerprints:
        query = query.where(Extraction.fingerprint.in_(loading.fingerprints))
    scores = _scores(session, page_ids, loading.scores) if loading.scores else {}
    found: dict[int, list[ExtractionRecord]] = defaultdict(list)
    for row in session.execute(query.order_by(Extraction.page_id, Extraction.extractor, Extraction.id)):
        found[row.page_id].append(ExtractionRecord(row.extractor, row.fingerprint, row.text, row.error,
                                                   row.accepted, scores.get(row.id, {}),
                                                   row.markdown if loading.markdown else None))
    return found


def _scores(
    session: Session, page_ids: Sequence[int], metrics: Mapping[str, Metric]
) -> dict[int, dict[str, tuple[float, float, float]]]:
    """extraction id -> metric -> per-page (P, R, F1), from the cached counts that are current."""
    query = (
        select(Score.extraction_id, Score.metric, Score.counts)
        .join(Gold, current_of(metrics))
        .where(Score.page_id.in_(page_ids))
        .order_by(Score.extraction_id, Score.metric)
    )
    result: dict[int, dict[str, tuple[float, float, float]]] = defaultdict(dict)
    for extraction_id, metric, counts in session.execute(query):
        result[extraction_id][metric] = metrics[metric].of_page(counts)
    return result


def page_meta(page: ExportedPage) -> dict[str, Any]:
    """The page's metadata as JSON-able fields, shared by the jsonl and folder layouts."""
    gold = page.gold
    return {
        "id": page.id,
        "url": page.url,
        "site": page.site,
        "sha256": page.sha256,
        "encoding": page.encoding,
        "type": gold.page_type if gold else None,
        "status": gold.status if gold else None,
        "snippets": gold.snippets if gold else None,
        "annotators": list(gold.annotators) if gold else [],
        "revisions": gold.revisions if gold else 0,
        "created_at": page.created_at.isoformat(),
        "updated_at": gold.updated_at.isoformat() if gold else None,
    }


def extraction_dicts(page: ExportedPage) -> list[dict[str, Any]]:
    return [{"extractor": e.extractor, "fingerprint": e.fingerprint, "text": e.text, "error": e.error,
             "accepted": e.accepted} for e in page.extractions]
