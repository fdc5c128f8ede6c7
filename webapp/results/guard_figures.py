"""The accept guard against the gold page types: per extractor, the confusion matrix against the types
the pipeline should accept (the GUARD_ACCEPT_TYPES setting), and the acceptance rate per site and per
import batch."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..extractors.scored_output import scored, with_scored
from ..foundation.vocabulary import DONE, Taxonomy
from ..models import Extraction, Gold, Page, Site

CELLS = ("true_accept", "false_reject", "false_accept", "true_reject")
"""The confusion matrix: a page of a type to accept accepted or rejected, one of another type accepted or
rejected."""


def rate(accepted: int, total: int) -> float | None:
    return accepted / total if total else None


def guard_report(session: Session, named: Mapping[str, str], taxonomy: Taxonomy,
                 sites: tuple[str, ...] = ()) -> dict[str, Any]:
    """For each extractor (display name -> fingerprint): confusion against the types of done gold (which
    to accept: `taxonomy.accept`), and acceptance rates over all its pages by site and by batch
    (gold or not)."""
    by_fp = {fp: name for name, fp in named.items()}
    query = (
        with_scored(select(Extraction.fingerprint, scored("accepted"), Site.host, Page.batch_id, Gold.page_type,
                           Gold.status).select_from(Extraction))  # the verdict on the output scored
        .join(Page, Page.id == Extraction.page_id)
        .join(Site, Site.id == Page.site_id)
        .outerjoin(Gold, Gold.page_id == Page.id)
        .where(Extraction.fingerprint.in_(list(by_fp)))
    )
    if sites:
        query = query.where(Site.host.in_(sites))
    confusion = {name: dict.fromkeys(CELLS, 0) for name in named}
    tallies: dict[str, dict[str, dict[str, list[int]]]] = {
        name: {"site": defaultdict(lambda: [0, 0]), "batch": defaultdict(lambda: [0, 0])} for name in named
    }
    for fp, accepted, host, batch, page_type, status in session.execute(query):
        name = by_fp[fp]
        if page_type is not None and status == DONE:
            right = bool(accepted) == taxonomy.accepts(page_type)
            cell = ("true_" if right else "false_") + ("accept" if accepted else "reject")
            confusion[name][cell] += 1
        for by, key in (("site", host), ("batch", str(batch))):
            tallies[name][by][key][0] += int(accepted)
            tallies[name][by][key][1] += 1
    return {
        name: {
            "confusion": confusion[name],
            **{
                f"acceptance_by_{by}": {
                    key: {"accepted": a, "pages": n, "rate": rate(a, n)} for key, (a, n) in sorted(groups.items())
                }
                for by, groups in tallies[name].items()
            },
        }
        for name in named
    }
