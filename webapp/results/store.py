"""Cached per-page counts: computed once per (extraction, metric, gold version, metric version).

`refresh_scores` recomputes only what is missing or stale: a gold save refreshes its page, a new
extraction its own rows, a bumped metric version every row of that metric. Every write is recorded in
the score change log (see ScoreEpoch) so in-process leaderboards update only the pages that changed.
Services take a session and never commit.

Each extraction is scored on the output scored for its page and extractor (extractors/scored_output.py): on a
page whose team chose to score its rendering in Chromium, the extractor's output on that rendering.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, bindparam, delete, func, insert, null, or_, select, update
from sqlalchemy.orm import Session, aliased

from ..extractors.registry import METADATA_ONLY
from ..extractors.scored_output import scored, with_scored
from ..foundation.kept import Kept
from ..foundation.vocabulary import DONE
from ..models import Extraction, Gold, Score, ScoreChange, ScoreEpoch
from ..scoring import Metric
from .json_keys import has_key


def is_current(metric: Metric, score: Any = Score) -> ColumnElement[bool]:
    """The one test of a cached count (a Score row, or an alias of Score, joined to its page's Gold): it
    was computed on the gold's current version by the metric's current version."""
    return and_(score.metric == metric.name, score.gold_version == Gold.version,
                score.metric_version == metric.version)


def current_of(metrics: Mapping[str, Metric]) -> ColumnElement[bool]:
    """Score joined to Gold on its page, current for one of these metrics (see is_current)."""
    return and_(Gold.page_id == Score.page_id, or_(*(is_current(metric) for metric in metrics.values())))


def scorable(metric: Metric, no_content: Collection[str]):
    """The SQL condition for an extraction and its gold that this metric scores: a done gold of a type that has
    main content (not in ``no_content``, the taxonomy's types without main content: those are the accept guard's
    alone), with the gold it needs: snippets, a text or a Markdown text (the `text+snippets` metrics score an
    empty text too, as the benchmark they follow does); a metadata metric's field annotated in the gold and given
    by the extractor (annotation/article_metadata.py: the key present, its value null or not). The extractors of
    metadata only are scored on the metadata metrics alone."""
    condition = and_(Gold.status == DONE, Gold.page_type.not_in(sorted(no_content)))
    if metric.needs == "metadata":
        field = metric.metadata_field or ""
        return and_(condition, has_key(Gold.article_metadata, field), has_key(Extraction.article_metadata, field))
    condition = and_(condition, Extraction.extractor.not_in(METADATA_ONLY))
    if metric.needs == "snippets":
        return and_(condition, Gold.snippets.is_not(None))
    if metric.needs == "text":
        return and_(condition, Gold.text != "")
    if metric.needs == "markdown":
        return and_(condition, Gold.markdown != "")
    return condition


def gold_for(metric: Metric, text: str, snippets: Mapping[str, Sequence[str]] | None, markdown: str,
             metadata: Mapping[str, Any] | None = None):
    """The gold a metric's counts take: the text, the snippet lists, both in one object, the Markdown, or the
    value of the article metadata field a metadata metric scores (None: none on the page)."""
    if metric.needs == "metadata":
        return (metadata or {}).get(metric.metadata_field or "")
    lists = {"with": list((snippets or {}).get("with", [])), "without": list((snippets or {}).get("without", []))}
    if metric.needs == "snippets":
        return lists
    if metric.needs == "text":
        return text
    if metric.needs == "markdown":
        return markdown
    return {"text": text, **lists}


def candidate_for(metric: Metric, text: str | None, markdown: str | None,
                  metadata: Mapping[str, Any] | None = None) -> Any:
    """The candidate a metric's counts take: an extraction's (or an annotation's) Markdown for the structure
    metrics, its article metadata field's value for the metadata metrics, its text for the others."""
    if metric.needs == "metadata":
        return (metadata or {}).get(metric.metadata_field or "")
    return markdown if metric.needs == "markdown" else text


EPOCH, PRUNED, EXTRACTIONS = 1, 2, 3
"""The rows of score_epoch: the newest epoch of the change log; the newest epoch pruned from it; the
extraction epoch, which the database's triggers bump on every change to the extractions, variants and
site rules (migration 0012)."""
KEEP_EPOCHS = 10_000  # epochs of the change log kept; a cache further behind reloads every count
PRUNE_EVERY = 500


def note_changes(session: Session, page_ids: Iterable[int]) -> None:
    """Record that these pages' scores or gold changed, under a new epoch (locks the epoch row); every
    PRUNE_EVERY epochs, drop the log's entries older than KEEP_EPOCHS."""
    pages = sorted(set(page_ids))
    if not pages:
        return
    epoch = session.execute(
        update(ScoreEpoch).where(ScoreEpoch.id == EPOCH).values(value=ScoreEpoch.value + 1)
        .returning(ScoreEpoch.value)
    ).scalar_one()
    session.execute(insert(ScoreChange), [{"epoch": epoch, "page_id": p} for p in pages])
    if epoch % PRUNE_EVERY == 0 and epoch > KEEP_EPOCHS:
        prune_changes(session, epoch - KEEP_EPOCHS)


def prune_changes(session: Session, floor: int) -> None:
    """Drop the change log's entries up to epoch `floor`; caches older than that reload everything."""
    session.execute(delete(ScoreChange).where(ScoreChange.epoch <= floor))
    session.execute(update(ScoreEpoch).where(ScoreEpoch.id == PRUNED).values(value=floor))


def refresh_scores(
    session: Session,
    metrics: Mapping[str, Metric],
    page_ids: Sequence[int] | None = None,
    changed: Iterable[int] = (),
    *,
    no_content: Collection[str],
) -> int:
    """Compute the missing and stale counts of these metrics (of these pages, or all); returns how many
    were written. One pass: each extraction is read once with its gold and its cached count of every
    metric, and the stale counts of all metrics go in one delete and one insert; the Markdown texts and the
    article metadata are read only for the metrics that score them. ``no_content``: the taxonomy's page types
    without main content (never scored).

    `changed` names pages whose gold changed even if no count needs recomputing (a new type or status).
    """
    for name, metric in metrics.items():
        if not metric.available:
            raise RuntimeError(f"metric {name} is unavailable: {metric.unavailable_reason}")
    touched: set[int] = set(changed)
    if not metrics:
        note_changes(session, touched)
        return 0
    names = list(metrics)
    shape = (tuple((name, metric.version, metric.needs, metric.metadata_field) for name, metric in metrics.items()),
             frozenset(no_content), page_ids is not None)
    query = _QUERIES.get(shape, lambda: _counts_to_compute(metrics, no_content, page_ids is not None))
    stale, fresh = [], []
    width = len(names)
    for row in session.execute(query, {} if page_ids is None else {"page_ids": list(page_ids)}):
        ext_id, page_id, text, extraction_markdown, error, gold_text, snippets, gold_markdown, version = row[:9]
        extraction_metadata, gold_metadata = row[9:11]
        score_ids, needed = row[11:11 + width], row[11 + width:]
        for name, score_id, needs in zip(names, score_ids, needed):
            if not needs:
                continue
            metric = metrics[name]
            if score_id is not None:
                stale.append(score_id)
            counts = metric.counts(candidate_for(metric, text, extraction_markdown, extraction_metadata),
                                   gold_for(metric, gold_text, snippets, gold_markdown, gold_metadata),
                                   errored=error is not None)
            fresh.append({"extraction_id": ext_id, "page_id": page_id, "metric": name,
                          "metric_version": metric.version, "gold_version": version, "counts": counts})
            touched.add(page_id)
    if stale:
        session.execute(delete(Score).where(Score.id.in_(stale)))
    if fresh:
        session.execute(insert(Score), fresh)
    note_changes(session, touched)
    return len(fresh)


_QUERIES: Kept[Select] = Kept(64)
"""refresh_scores' query per shape of its call (each metric's name, version and the gold it needs; the types
without main content; some pages or all): building it anew took tens of milliseconds of every gold save."""


def _counts_to_compute(metrics: Mapping[str, Metric], no_content: Collection[str], some_pages: bool) -> Select:
    """Each extraction (of the pages bound as `page_ids` when `some_pages`) with a missing or stale count of one of
    these metrics: its scored output, its gold, its cached count's id and whether it needs counting, per metric."""
    names = list(metrics)
    cached = {name: aliased(Score, name=f"score_{i}") for i, name in enumerate(names)}
    markdown = any(metric.needs == "markdown" for metric in metrics.values())
    metadata = any(metric.needs == "metadata" for metric in metrics.values())
    query = with_scored(select(
        Extraction.id, Extraction.page_id, scored("text"), scored("markdown") if markdown else null(), scored("error"),
        Gold.text, Gold.snippets, Gold.markdown if markdown else null(), Gold.version,
        Extraction.article_metadata if metadata else null(), Gold.article_metadata if metadata else null(),
        *(cached[name].id for name in names),
        *(_needs_count(cached[name], metric, no_content).label(f"needs_{i}") for i, (name, metric) in
          enumerate(metrics.items())),
    ).join(Gold, Gold.page_id == Extraction.page_id))
    for name in names:
        query = query.outerjoin(cached[name], and_(cached[name].extraction_id == Extraction.id,
                                                   cached[name].metric == name))
    query = query.where(or_(*(_needs_count(cached[name], metric, no_content)
                              for name, metric in metrics.items())))
    if some_pages:
        query = query.where(Extraction.page_id.in_(bindparam("page_ids", expanding=True)))
    return query


def _needs_count(score, metric: Metric, no_content: Collection[str]) -> ColumnElement[bool]:
    """A scorable gold whose count by this metric (the aliased Score `score`) is missing or stale."""
    return and_(scorable(metric, no_content), or_(score.id.is_(None), ~is_current(metric, score)))


def gold_changed(session: Session, metrics: Mapping[str, Metric], page_id: int, *,
                 no_content: Collection[str]) -> int:
    """A page's gold changed (a save, a restore): its counts of these metrics recomputed, and the change
    logged even when no count changes (a new type or status); returns the counts written."""
    return refresh_scores(session, metrics, [page_id], changed=[page_id], no_content=no_content)


def annotations_changed(session: Session, page_id: int) -> None:
    """A page's annotations changed without its gold (an admin's void of one on an adjudicated page):
    the agreement between annotators shown beside the scores (their noise, the human ceiling) may have,
    so the change is logged like a score's, and the figures' ETag and the cache's epoch move with it.
    A blind save needs none: a blind page has no gold, so it is on no board."""
    note_changes(session, [page_id])


def epochs(session: Session) -> tuple[int, int, int]:
    """(the change log's newest epoch, its pruned floor, the extraction epoch) in one read of three rows:
    what a poll reads to know whether anything changed."""
    found: dict[int, int] = {row.id: row.value for row in session.execute(select(ScoreEpoch.id, ScoreEpoch.value))}
    return found.get(EPOCH, 0), found.get(PRUNED, 0), found.get(EXTRACTIONS, 0)


def changed_since(session: Session, epoch: int) -> tuple[int, set[int]]:
    """(the newest epoch, the pages changed after `epoch`)."""
    rows = session.execute(
        select(ScoreChange.epoch, ScoreChange.page_id).where(ScoreChange.epoch > epoch)
    ).all()
    newest = max((e for e, _ in rows), default=epoch)
    return newest, {page for _, page in rows}


def stale_count(session: Session, metric: Metric, no_content: Collection[str]) -> int:
    """How many scorable extractions lack a current count of this metric (0 when all are cached)."""
    return session.scalar(
        select(func.count(Extraction.id))
        .join(Gold, Gold.page_id == Extraction.page_id)
        .outerjoin(Score, and_(Score.extraction_id == Extraction.id, Score.metric == metric.name))
        .where(scorable(metric, no_content))
        .where(or_(Score.id.is_(None), ~is_current(metric)))
    ) or 0
