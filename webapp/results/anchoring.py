"""Anchoring: how much the prefill steered the gold, from the provenance of each gold's and each
annotation's first revision (revision.provenance["prefill"], see the shared contract in docs/metrics.md).

A page's gold "started from" extractor X when the first revision of its gold, or of any of its annotations
that counts (not voided), was prefilled from X's text ({"source": "extractor", "name": X, ...}): one
annotator starting from X's text is enough to anchor the page to X, since the adjudicated gold is built
from every annotator's text. An extractor is anchored by its name, whatever version of it prefilled.

From the leaderboard's own per-page counts (the ScoreCache's aligned rows; nothing is rescored), an
`Anchored` board gives (with scoring/subsets.py: each extractor's values computed once, one set of
resamples for every subset):
- `split`: per extractor, its figures on the pages whose gold started from it and on the others;
- `unanchored`: the leaderboard with, for each extractor, the pages whose gold started from its own text
  left out (each row over its own pages), and `tiers`, the tiers of that board (each other extractor
  against the best by a paired bootstrap over the pages started from neither, Holm-corrected);
- `movement`: how far each gold and annotation moved from its prefill: 1 - tokens F1 of the prefill's
  text (the extraction with the recorded fingerprint) against the saved text, per extractor that prefilled.

Services take a session and never commit; nothing here knows Flask.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from ..annotation.annotations import VOID
from ..extractors.scored_output import scored, with_scored
from ..models import Annotation, AnnotationRevision, Extraction, Gold, GoldRevision
from ..scoring import Metric
from ..scoring.subsets import Subsets
from ..scoring.tiers import ALPHA, bootstrap_p, holm
from .cache import CachedRow, ScoreCache
from .leaderboard_figures import LeaderboardOptions, figures_of, leaderboard_of, twin_tiers

Aligned = Sequence[tuple[int, Sequence[CachedRow]]]
SPLIT_FIGURES = ("precision", "recall", "f1", "accuracy", "pages")
CHUNK = 500
MOVEMENT_METRIC = "tokens"
"""Movement is measured in word F1, whatever the leaderboard's metric."""


@dataclass(frozen=True)
class Prefilled:
    """The first revision of a gold ("gold") or of an annotation ("annotation") prefilled from an extractor."""

    page_id: int
    owner: str
    owner_id: int  # the Gold's or the Annotation's id
    version: int  # its current version
    extractor: str
    fingerprint: str | None

    @property
    def key(self) -> tuple[str, int, int]:
        """What its movement depends on (with its prefill's extraction): which text, at which version."""
        return self.owner, self.owner_id, self.version


def extractor_prefill(provenance: Any) -> tuple[str, str | None] | None:
    """(extractor name, fingerprint) of a revision's provenance whose prefill is an extractor's text."""
    prefill = provenance.get("prefill") if isinstance(provenance, dict) else None
    if not isinstance(prefill, dict) or prefill.get("source") != "extractor":
        return None
    name, fingerprint = prefill.get("name"), prefill.get("fingerprint")
    if not isinstance(name, str) or not name:
        return None
    return name, fingerprint if isinstance(fingerprint, str) else None


def prefilled(session: Session) -> list[Prefilled]:
    """Every gold and every annotation that counts whose first revision was prefilled from an extractor
    (the revisions prefilled otherwise, or not at all, left out in SQL)."""
    first_gold = select(func.min(GoldRevision.id)).group_by(GoldRevision.gold_id)
    first_annotation = select(func.min(AnnotationRevision.id)).group_by(AnnotationRevision.annotation_id)
    golds = session.execute(
        select(Gold.page_id, GoldRevision.provenance, Gold.id, Gold.version)
        .join(GoldRevision, GoldRevision.gold_id == Gold.id)
        .where(GoldRevision.id.in_(first_gold), _from_extractor(GoldRevision.provenance))
    )
    annotations = session.execute(
        select(Annotation.page_id, AnnotationRevision.provenance, Annotation.id, Annotation.version)
        .join(AnnotationRevision, AnnotationRevision.annotation_id == Annotation.id)
        .where(AnnotationRevision.id.in_(first_annotation), Annotation.status != VOID,
               _from_extractor(AnnotationRevision.provenance))
    )
    found = []
    for owner, rows in (("gold", golds), ("annotation", annotations)):
        for page_id, provenance, owner_id, version in rows:
            prefill = extractor_prefill(provenance)
            if prefill is not None:
                found.append(Prefilled(page_id, owner, owner_id, version, prefill[0], prefill[1]))
    return found


def _from_extractor(provenance: Any) -> ColumnElement[bool]:
    """The SQL test of a provenance whose prefill's source is an extractor (extractor_prefill checks the rest)."""
    return provenance[("prefill", "source")].as_string() == "extractor"


def started_from(records: Iterable[Prefilled]) -> dict[int, frozenset[str]]:
    """Per page, the extractors its gold started from (see the module's rule); pages with none left out."""
    started: dict[int, set[str]] = defaultdict(set)
    for record in records:
        started[record.page_id].add(record.extractor)
    return {page: frozenset(names) for page, names in started.items()}


def with_twins(started: Mapping[int, frozenset[str]], twins: Mapping[str, str]) -> dict[int, frozenset[str]]:
    """`started` where a page started from one of a pair of twins (an extractor that is only another one on
    these pages, name -> other name) started from both: their texts were the same."""
    if not twins:
        return dict(started)
    result = {}
    for page, names in started.items():
        more = set(names)
        for twin, original in twins.items():
            if twin in names or original in names:
                more |= {twin, original}
        result[page] = frozenset(more)
    return result


class Anchored:
    """A board's per-page values (`subsets`, over the pages `page_ids`) and, per extractor of `names`, which
    of its pages started from it (`started`: page -> extractor names), with the figures of anchoring (pure)."""

    def __init__(self, subsets: Subsets, page_ids: Sequence[Hashable], names: Sequence[str],
                 started: Mapping[Any, Collection[str]]) -> None:
        self.names = list(names)
        self.subsets = subsets
        self.anchored = {name: np.zeros(len(page_ids), dtype=bool) for name in self.names}
        position = {page: i for i, page in enumerate(page_ids)}
        for page, extractors in started.items():  # the pages that started from an extractor, not every page
            at = position.get(page)
            for name in extractors if at is not None else ():
                if name in self.anchored:
                    self.anchored[name][at] = True

    @classmethod
    def of_rows(cls, metric: Metric, aligned: Aligned, names: Sequence[str], started: Mapping[Any, Collection[str]],
                average: str | None = None) -> Anchored:
        """From aligned rows (each page's rows in the order of `names`)."""
        table = {name: [rows[i].counts for _, rows in aligned] for i, name in enumerate(names)}
        return cls(Subsets.of_table(metric, table, average), [page for page, _ in aligned], names, started)

    def split(self) -> dict[str, dict[str, Any]]:
        """Per extractor: its figures on the pages whose gold started from it ("anchored") and on the
        others ("other"), point figures only."""
        wanted = [(name, mask) for name in self.names for mask in (self.anchored[name], ~self.anchored[name])]
        found = iter(self.subsets.summaries(wanted))
        return {name: {part: {k: v for k, v in figures_of(next(found)).items() if k in SPLIT_FIGURES}
                       for part in ("anchored", "other")} for name in self.names}

    def unanchored(self, bootstrap: int = 1000, seed: int = 0) -> dict[str, dict[str, Any]]:
        """Per extractor, its figures with the pages whose gold started from it left out: over its own pages
        ("pages"; "left_out": how many of the board's it lost), spreads from the board's resamples restricted
        to them (scoring/subsets.py)."""
        wanted = [(name, ~self.anchored[name]) for name in self.names]
        summaries = self.subsets.summaries(wanted, bootstrap, seed)
        return {name: figures_of(summary) | {"left_out": int(self.anchored[name].sum())}
                for name, summary in zip(self.names, summaries)}

    def tiers(self, f1: Mapping[str, float | None], bootstrap: int = 1000, seed: int = 0) -> dict[str, Any] | None:
        """Tiers of the unanchored board of the extractors of `f1` (their unanchored F1): the best by its F1,
        each other one against it by the paired bootstrap over the pages whose gold started from neither of
        the two ("pages"), the p-values Holm-corrected as scoring/tiers.py does; None without a bootstrap or
        two extractors with an F1."""
        scored = sorted((-value, name) for name, value in f1.items() if value is not None)
        if not bootstrap or len(scored) < 2:
            return None
        best = scored[0][1]
        others = [name for _, name in scored[1:]]
        neither = {name: ~(self.anchored[best] | self.anchored[name]) for name in others}
        wanted = [(who, neither[name]) for name in others for who in (best, name)]
        resampled = iter(self.subsets.resampled_f1(wanted, bootstrap, seed))
        raw = {}
        for name in others:
            ours, theirs = next(resampled), next(resampled)
            raw[name] = 1.0 if ours is None or theirs is None else bootstrap_p(ours, theirs)
        adjusted = holm(raw)
        extractors: dict[str, dict[str, Any]] = {best: {"p_holm": None, "tied": True, "pages": None}}
        extractors |= {name: {"p_holm": p, "tied": p >= ALPHA, "pages": int(neither[name].sum())}
                       for name, p in adjusted.items()}
        return {"best": best, "alpha": ALPHA, "separable": all(p < ALPHA for p in adjusted.values()),
                "extractors": extractors}


Moved = dict[tuple[str, int, int], float | None]
"""Each record's movement by its key (None: its prefill's extraction is gone)."""


def movement(records: Iterable[Prefilled], moved: Moved, metric: str = MOVEMENT_METRIC) -> dict[str, Any]:
    """How far the golds and annotations of `records` moved from their prefill (`moved`: each one's 1 - F1
    of `metric` of the prefill's text against its saved text), per extractor that prefilled: "mean",
    "median" and "count", and "missing": per extractor, the records left out because their prefill's
    extraction is gone (pure)."""
    values: dict[str, list[float]] = defaultdict(list)
    missing: dict[str, int] = defaultdict(int)
    for record in records:
        value = moved[record.key]
        if value is None:
            missing[record.extractor] += 1
        else:
            values[record.extractor].append(value)
    return {
        "metric": metric,
        "extractors": {
            name: {"count": len(found), "mean": statistics.fmean(found), "median": statistics.median(found)}
            for name, found in sorted(values.items())
        },
        "missing": dict(sorted(missing.items())),
        "missing_total": sum(missing.values()),
    }


def moved_from(metric: Metric, prefill: str | None, saved: str) -> float | None:
    """1 - F1 of the prefill's text against the saved text; None without the prefill's text (pure)."""
    return None if prefill is None else 1.0 - metric.of_page(metric.counts(prefill, saved))[2]


def movement_texts(session: Session, records: Sequence[Prefilled]) -> Iterator[tuple[Prefilled, str | None, str]]:
    """(record, its prefill's text or None when that extraction is gone, its gold's or annotation's saved
    text), CHUNK records at a time."""
    for start in range(0, len(records), CHUNK):
        part = records[start:start + CHUNK]
        saved = {("gold", i): text for i, text in session.execute(
            select(Gold.id, Gold.text).where(Gold.id.in_([r.owner_id for r in part if r.owner == "gold"])))}
        saved |= {("annotation", i): text for i, text in session.execute(
            select(Annotation.id, Annotation.text)
            .where(Annotation.id.in_([r.owner_id for r in part if r.owner == "annotation"])))}
        wanted = {(r.page_id, r.fingerprint) for r in part if r.fingerprint}
        prefills = {(page, fp): text for page, fp, text in session.execute(
            with_scored(select(Extraction.page_id, Extraction.fingerprint, scored("text"))  # what the view prefilled
                        .where(Extraction.page_id.in_({page for page, _ in wanted}),
                               Extraction.fingerprint.in_({fp for _, fp in wanted})))) if (page, fp) in wanted}
        for record in part:
            key = (record.owner, record.owner_id)
            if key in saved:
                yield record, prefills.get((record.page_id, record.fingerprint or "")), saved[key]


RULE = ("a page's gold started from an extractor when the first revision of its gold, or of any of its "
        "annotations, was prefilled from that extractor's text")


def leaderboard_movement(session: Session, cache: ScoreCache, records: Sequence[Prefilled], pages: Collection[int],
                         known: Moved | None = None) -> dict[str, Any]:
    """The movement (see `movement`) of the golds and annotations of these pages; `known`: the movements
    already computed, by record key (valid while no extraction is removed), to which the others are added."""
    known = {} if known is None else known
    wanted = [r for r in records if r.page_id in pages]
    metric = cache.metrics[MOVEMENT_METRIC]
    for record, prefill, saved in movement_texts(session, [r for r in wanted if r.key not in known]):
        known[record.key] = moved_from(metric, prefill, saved)
    return movement([r for r in wanted if r.key in known], known)


def anchoring_of(cache: ScoreCache, options: LeaderboardOptions, named: Mapping[str, str], same_as: Mapping[str, str],
                 records: Sequence[Prefilled], moved: Callable[[Collection[int]], dict[str, Any]]) -> dict[str, Any]:
    """What anchoring adds to a leaderboard result of `named` with `options` (`same_as`: its twins, see
    leaderboard.SameAs): "anchoring" (the rule, how many of its pages started from an extractor, the split,
    and the movement over its pages: `moved`, see leaderboard_movement) and "unanchored"; with
    options.unanchored also the unanchored board's "extractors" and "tiers", which replace the board's."""
    board = leaderboard_of(cache, options, named)
    twins = {a: b for a, b in same_as.items() if b in named}
    started = with_twins(started_from(records), twins)
    pages = set(cast("Sequence[int]", board.page_ids))  # the cache's boards are over page ids
    anchored = Anchored(Subsets.of_leaderboard(board), board.page_ids, list(named), started)
    found: dict[str, Any] = {
        "anchoring": {
            "rule": RULE,
            "pages_started": sum(1 for page in pages if started.get(page)),
            "split": anchored.split(),
            "movement": moved(pages),
        },
        "unanchored": options.unanchored,
    }
    if options.unanchored:
        figures = anchored.unanchored(options.bootstrap, options.seed)
        ranked = anchored.tiers({name: f["f1"] for name, f in figures.items() if name not in twins},
                             options.bootstrap, options.seed)
        found |= {"extractors": figures, "tiers": twin_tiers(ranked, twins)}
    return found
