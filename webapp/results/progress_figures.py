"""The lead's console's progress per annotator: what is assigned to them and still open, the pages they
finished and those in draft, the active time their saves recorded (results/effort_figures.py) and their
pace, and their agreement with the adjudicated gold (the Agreement page's `f1_vs_gold`: the `tokens` F1 of
their finished annotation against the page's gold, results/agreement_figures.py).

A page is *done* by an annotator when their annotation of it is finished (done or skipped), or, with
overlap 1, when its gold is finished and they saved it last; a *draft* likewise. Voided annotations count
for nothing."""

from __future__ import annotations

from collections import Counter
from statistics import median
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from ..annotation.annotations import DRAFT, FINISHED
from ..models import Annotation, Assignment, ControlPage, Gold
from .agreement_figures import corpus_agreement
from .effort_figures import page_efforts

HOUR = 3600.0


def _counted(session: Session, statuses: tuple[str, ...], overlap: int) -> Counter[str]:
    """By annotator: their annotations with these statuses, and with overlap 1 the golds with these
    statuses they saved last."""
    found: Counter[str] = Counter()
    query = select(Annotation.author, func.count()).where(Annotation.status.in_(statuses)).group_by(Annotation.author)
    found.update(dict(session.execute(query).all()))
    if overlap == 1:
        solo = select(Gold.author, func.count()).where(Gold.status.in_(statuses)).group_by(Gold.author)
        found.update(dict(session.execute(solo).all()))
    return found


def open_assignments(session: Session) -> Counter[str]:
    """By annotator: the pages assigned to them that still need their annotation (no gold, or a control
    page given to them, and no finished annotation of theirs)."""
    finished = select(Annotation.id).where(Annotation.page_id == Assignment.page_id,
                                           Annotation.author == Assignment.author,
                                           Annotation.status.in_(FINISHED)).exists()
    gold = select(Gold.id).where(Gold.page_id == Assignment.page_id).exists()
    control = select(ControlPage.id).where(ControlPage.page_id == Assignment.page_id).exists()
    query = (select(Assignment.author, func.count()).where(~finished, or_(~gold, control))
             .group_by(Assignment.author))
    return Counter(dict(session.execute(query).all()))


def progress(session: Session, names: list[str], overlap: int) -> dict[str, dict[str, Any]]:
    """By annotator (``names``, and everyone with annotations or assignments, sorted: a reviewer's
    adjudications alone do not make them an annotator here): "assigned", "done", "drafts",
    "seconds" (active, in all), "median_seconds" (per page with effort), "pages_per_hour", "adjudicated"
    (their pages with gold from double annotation) and "f1_vs_gold"."""
    done, drafts = _counted(session, FINISHED, overlap), _counted(session, (DRAFT,), overlap)
    assigned = open_assignments(session)
    seconds: dict[str, list[float]] = {}
    for effort in page_efforts(session):
        seconds.setdefault(effort.annotator, []).append(effort.seconds)
    agreement = corpus_agreement(session)["annotators"]
    everyone = sorted(set(names) | set(done) | set(drafts) | set(assigned))
    found = {}
    for name in everyone:
        spent = seconds.get(name, [])
        total = sum(spent)
        against = agreement.get(name, {})
        found[name] = {
            "assigned": assigned[name], "done": done[name], "drafts": drafts[name], "seconds": round(total, 1),
            "median_seconds": round(median(spent), 1) if spent else None,
            "pages_per_hour": round(len(spent) / (total / HOUR), 1) if total > 0 else None,
            "adjudicated": against.get("adjudicated", 0), "f1_vs_gold": against.get("f1_vs_gold"),
        }
    return found
