"""The database side of agreement between annotators: the double-annotated pages read for
scoring/agreement_maths.py, the corpus figures, and the annotators' noise on the pages a leaderboard scores.

A page counts once two of its annotations or more are finished (done or skipped; drafts are work in
progress). Services take a session and never commit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, cast

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..annotation.annotations import FINISHED
from ..models import Annotation, AnnotationRevision, Gold, Page, Site
from ..scoring import Metric, summarize
from ..scoring.agreement_maths import AnnotatedPage, Said, agreement, annotator_noise, page_agreement, within_noise
from .store import candidate_for, gold_for

CHUNK = 500


def double_annotated(session: Session) -> list[int]:
    """The ids of the pages with two finished annotations or more, in order (their texts unread)."""
    finished = Annotation.status.in_(FINISHED)
    double = select(Annotation.page_id).where(finished).group_by(Annotation.page_id).having(func.count() > 1)
    return list(session.scalars(double.order_by(Annotation.page_id)))


def annotated_pages(session: Session, page_ids: Iterable[int] | None = None) -> list[AnnotatedPage]:
    """The pages with two finished annotations or more (of ``page_ids``, or all), by page id."""
    finished = Annotation.status.in_(FINISHED)
    wanted = double_annotated(session)
    if page_ids is not None:
        wanted = sorted(set(wanted) & set(page_ids))
    found: list[AnnotatedPage] = []
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start:start + CHUNK]
        said: dict[int, list[Said]] = defaultdict(list)
        current = ((AnnotationRevision.annotation_id == Annotation.id)
                   & (AnnotationRevision.version == Annotation.version))  # its one applied revision
        query = (select(Annotation.page_id, Annotation.author, Annotation.text, Annotation.page_type,
                        Annotation.snippets,
                        AnnotationRevision.guideline_version, Annotation.markdown, Annotation.article_metadata)
                 .outerjoin(AnnotationRevision, current)
                 .where(finished, Annotation.page_id.in_(chunk)).order_by(Annotation.page_id, Annotation.id))
        for page_id, name, text, page_type, snippets, guideline, markdown, metadata in session.execute(query):
            said[page_id].append(Said(name, text, page_type, snippets, guideline, markdown, metadata))
        pages = (select(Page.id, Site.host, Gold.text, Gold.page_type).join(Site, Site.id == Page.site_id)
                 .outerjoin(Gold, Gold.page_id == Page.id).where(Page.id.in_(chunk)).order_by(Page.id))
        for page_id, host, gold, page_type in session.execute(pages):
            if len(said[page_id]) > 1:
                found.append(AnnotatedPage(page_id, tuple(said[page_id]), gold, host, page_type))
    return found


def corpus_agreement(session: Session, by: str | None = None) -> dict[str, Any]:
    """`goldtext agreement --format json` (and GET /api/agreement): see scoring/agreement_maths.py."""
    return agreement(annotated_pages(session), by)


def text_f1_by_page(session: Session, page_ids: Iterable[int]) -> dict[int, float]:
    """The annotators' mean pairwise text F1 of each double-annotated page among ``page_ids``."""
    result: dict[int, float] = {}
    for page in annotated_pages(session, page_ids):
        f1 = page_agreement(page).text_f1
        if f1 is not None:
            result[int(page.page_id)] = f1  # type: ignore[call-overload]
    return result


def noise_on(session: Session, pages: Iterable[int]) -> dict[str, Any]:
    """The annotators' noise on these pages: {"annotator_noise": 1 - their mean text F1 (None without a
    double-annotated page), "pages": how many of the pages are double-annotated}."""
    wanted = list(pages)
    page_f1 = text_f1_by_page(session, wanted)
    noise = annotator_noise(cast("Mapping[Hashable, float]", page_f1), wanted)  # read by page id, never written
    return {"annotator_noise": noise, "pages": len(page_f1)}


def ceiling(session: Session, metric: Metric, pages: Iterable[int], bootstrap: int = 1000) -> dict[str, Any] | None:
    """The human ceiling on these pages: the annotators scored against each other in the leaderboard's own
    metric, each pair of finished annotations of a double-annotated page once (the earlier annotation as the
    candidate, the later one as the gold), aggregated as the metric aggregates extractors: {"f1", "f1_std",
    "pages", "pairs"}; None without a double-annotated page. A metadata metric scores the pairs that both
    annotated its field."""
    rows = []
    found = annotated_pages(session, pages)
    for page in found:
        for i, first in enumerate(page.said):
            for second in page.said[i + 1:]:
                if metric.needs == "metadata" and not both_annotated(metric, first, second):
                    continue
                rows.append(metric.counts(
                    candidate_for(metric, first.text, first.markdown, first.article_metadata),
                    gold_for(metric, second.text, second.snippets, second.markdown, second.article_metadata)))
    if not rows:
        return None
    summary = summarize(metric, rows, bootstrap=bootstrap if len(rows) > 1 else 0)
    return {"f1": summary.f1, "f1_std": summary.f1_std, "pages": len(found), "pairs": len(rows)}


def both_annotated(metric: Metric, first: Said, second: Said) -> bool:
    """Whether both annotations give the metadata field the metric scores (its key present)."""
    return all(metric.metadata_field in (said.article_metadata or {}) for said in (first, second))


def mark_leaderboard(board: dict[str, Any], noise: dict[str, Any]) -> None:
    """Add the annotators' noise on the board's pages (``noise_on``) to a leaderboard result:
    ``board["noise"]`` with, per extractor but the
    best, whether its F1 is within annotator noise of the best's (never of the one ranked above: that chains
    down the table). Such an extractor is also "tied" with the best in ``board["tiers"]`` (the bootstrap's
    verdict, scoring/tiers.py), and the best is then no longer separable."""
    noise = dict(noise)
    f1 = {name: f["f1"] for name, f in board["extractors"].items() if f["f1"] is not None}
    tiers = board.get("tiers")
    best = tiers["best"] if tiers else min(f1, key=lambda name: (-f1[name], name), default=None)
    noise["within"] = {name: within_noise(f1[best] - value, noise["annotator_noise"])
                       for name, value in f1.items() if name != best}
    board["noise"] = noise
    if tiers:
        for name, within in noise["within"].items():
            tiers["extractors"][name]["within_noise"] = within
            tiers["extractors"][name]["tied"] = bool(tiers["extractors"][name]["tied"] or within)
        tiers["separable"] = not any(t["tied"] for name, t in tiers["extractors"].items()
                                     if name != best and "same_as" not in t)


def mark_comparison(session: Session, result: dict[str, Any], pages: Iterable[int]) -> None:
    """Add the annotators' noise on the compared pages to a head-to-head result, and whether A - B is
    within it."""
    noise = noise_on(session, pages)
    result["noise"] = noise | {"within": within_noise(result["difference"], noise["annotator_noise"])}
