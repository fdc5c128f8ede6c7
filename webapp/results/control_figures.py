"""Each annotator scored on the control pages (annotation/control.py): their finished annotation of each
control page against its known gold, in the leaderboard's own metric and aggregation (the metric's counts
per page, summarized as the board summarizes an extractor's), with an alert when the F1 is below the
CONTROL_ALERT_F1 setting. Read at each request: an annotation finished a moment ago counts at once."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..annotation.annotations import FINISHED
from ..models import Annotation, Assignment, ControlPage
from ..scoring import Metric, summarize
from ..scoring.markdown_text import markdown_of_text
from .store import gold_for


def control_scores(session: Session, metric: Metric, alert_below: float) -> dict[str, dict[str, Any]]:
    """By annotator (sorted): {"given": control pages given to them, "scored": those they finished,
    "f1", "precision", "recall" (the board's aggregation; None before any), "alert": F1 below
    ``alert_below``, "pages": [{"page", "f1"}] per page}."""
    controls = {c.page_id: c for c in session.scalars(select(ControlPage))}
    given: dict[str, set[int]] = defaultdict(set)
    for page_id, name in session.execute(select(Assignment.page_id, Assignment.author)
                                         .where(Assignment.page_id.in_(controls))):
        given[name].add(page_id)
    rows: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    answers = select(Annotation.page_id, Annotation.author, Annotation.text).where(
        Annotation.page_id.in_(controls), Annotation.status.in_(FINISHED)).order_by(Annotation.page_id)
    for page_id, name, text in session.execute(answers):
        given[name].add(page_id)
        known = controls[page_id]
        gold = gold_for(metric, known.text, known.snippets, markdown_of_text(known.text))
        rows[name].append((page_id, metric.counts(text, gold)))
    found: dict[str, dict[str, Any]] = {}
    for name in sorted(given):
        scored = rows.get(name, [])
        total = summarize(metric, [counts for _, counts in scored], bootstrap=0) if scored else None
        f1 = total.f1 if total else None
        found[name] = {
            "given": len(given[name]), "scored": len(scored), "f1": f1,
            "precision": total.precision if total else None, "recall": total.recall if total else None,
            "alert": f1 is not None and f1 < alert_below,
            "pages": [{"page": page_id, "f1": summarize(metric, [counts], bootstrap=0).f1}
                      for page_id, counts in scored],
        }
    return found
