"""The page-type suggestion (annotation/type_signals.py) measured on the team's gold, shown with the
anchoring figures: how often it was right, per type of the gold, and its pull, as anchoring measures the
prefill's: how often the annotators chose the suggested type when the suggestion was right, and when it was
wrong. A suggestion that pulls, followed even when wrong, lowers the team's type agreement with the truth.

The suggestion is made again from what the annotate view made it from (the page facts, the URL, the
candidates' verdicts); an annotator's choice is the page type of her first save of the page (her own
annotation's, with overlap above 1; else the gold's, the import's left out), made where the view
preselected the suggestion. Services take a session and never commit.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..annotation.type_signals import NO_SIGNAL, suggest_type
from ..extractors.scored_output import scored, with_scored
from ..foundation.vocabulary import DONE, Taxonomy
from ..models import Annotation, AnnotationRevision, Extraction, Gold, GoldRevision, Page

IMPORT = "import"  # the author of an imported gold's revisions


def suggestion_figures(session: Session, taxonomy: Taxonomy) -> dict[str, Any]:
    """{"pages", "undecided", "by_type": {gold type: {"pages", "right"}}, "pull": {"right"|"wrong":
    {"choices", "followed"}}} over the pages with done gold."""
    rows = session.execute(select(Gold.page_id, Gold.page_type, Page.url, Page.facts)
                           .join(Page, Page.id == Gold.page_id).where(Gold.status == DONE)).all()
    verdicts: dict[int, list[tuple[bool, str | None]]] = defaultdict(list)
    verdicts_scored = with_scored(select(Extraction.page_id, scored("accepted"), scored("guard_reason"),
                                         scored("error")).where(Extraction.page_id.in_(select(Gold.page_id))))
    for page_id, accepted, reason, error in session.execute(verdicts_scored):
        if error is not None:
            continue
        verdicts[page_id].append((accepted, reason))
    suggested: dict[int, tuple[str, bool]] = {}  # page -> (suggested type, right)
    by_type: dict[str, dict[str, int]] = defaultdict(lambda: {"pages": 0, "right": 0})
    undecided = 0
    for page_id, gold_type, url, facts in rows:
        suggestion = suggest_type(facts or {}, url, taxonomy, verdicts.get(page_id, []))
        by_type[gold_type]["pages"] += 1
        if suggestion.signal == NO_SIGNAL:
            undecided += 1
            continue
        right = suggestion.page_type == gold_type
        by_type[gold_type]["right"] += right
        suggested[page_id] = (suggestion.page_type, right)
    pull = {"right": {"choices": 0, "followed": 0}, "wrong": {"choices": 0, "followed": 0}}
    for page_id, chosen in first_choices(session):
        if page_id in suggested:
            page_type, right = suggested[page_id]
            bucket = pull["right" if right else "wrong"]
            bucket["choices"] += 1
            bucket["followed"] += chosen == page_type
    return {"pages": len(rows), "undecided": undecided, "by_type": dict(sorted(by_type.items())), "pull": pull}


def first_choices(session: Session) -> list[tuple[int, str]]:
    """(page, the page type of someone's first save of it): each annotation's first revision, and on pages
    without annotations the gold's first revision unless it was imported."""
    annotated = session.execute(select(Annotation.page_id, AnnotationRevision.page_type)
                                .join(AnnotationRevision, AnnotationRevision.annotation_id == Annotation.id)
                                .where(AnnotationRevision.version == 1)).all()
    with_annotations = {page_id for page_id, _ in annotated}
    direct = session.execute(select(Gold.page_id, GoldRevision.page_type)
                             .join(GoldRevision, GoldRevision.gold_id == Gold.id)
                             .where(GoldRevision.version == 1, GoldRevision.author != IMPORT)).all()
    return [(page_id, page_type) for page_id, page_type in annotated] + [
        (page_id, page_type) for page_id, page_type in direct if page_id not in with_annotations]
