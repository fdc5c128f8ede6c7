"""Drift: the accept guard's acceptance rate per site per import batch, and the sites whose rate fell
sharply from one batch to the next (their template probably changed, or they started rendering
client-side). `acceptance_by_site_batch` reads the database; `drift_flags` is pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Integer, func, select
from sqlalchemy.orm import Session

from ..extractors.scored_output import scored, with_scored
from ..models import Extraction, Page, Site


@dataclass(frozen=True)
class BatchRate:
    """How many of a site's pages of one batch an extractor's guard accepted."""

    batch: int
    accepted: int
    pages: int

    @property
    def rate(self) -> float:
        return self.accepted / self.pages


@dataclass(frozen=True)
class DriftFlag:
    """A site whose acceptance rate under an extractor fell by `drop` points between two batches."""

    site: str
    extractor: str
    from_batch: int
    to_batch: int
    from_rate: float
    to_rate: float

    @property
    def drop(self) -> float:
        """Percentage points, rounded past float noise (0.8 - 0.5 is 30 points, not 30.000000000000004)."""
        return round(100 * (self.from_rate - self.to_rate), 9)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "drop": self.drop}


Rates = Mapping[str, Mapping[str, Sequence[BatchRate]]]
"""extractor -> site -> the site's batches in import order."""


def acceptance_by_site_batch(session: Session, named: Mapping[str, str]) -> dict[str, dict[str, list[BatchRate]]]:
    """Every page of every site (gold or not), per extractor (display name -> fingerprint). The extractions
    are counted by site id, from the fingerprint's covering index and the page, and the few groups then
    named by their site's host."""
    by_fp = {fp: name for name, fp in named.items()}
    groups = (
        with_scored(select(
            Extraction.fingerprint, Page.site_id, Page.batch_id,
            func.sum(func.cast(scored("accepted"), Integer)).label("accepted"), func.count().label("pages"),
        ).select_from(Extraction))  # the verdict on the output scored
        .join(Page, Page.id == Extraction.page_id)
        .where(Extraction.fingerprint.in_(list(by_fp)))
        .group_by(Extraction.fingerprint, Page.site_id, Page.batch_id)
        .subquery()
    )
    rows = session.execute(
        select(groups.c.fingerprint, Site.host, groups.c.batch_id, groups.c.accepted, groups.c.pages)
        .join(Site, Site.id == groups.c.site_id)
        .order_by(Site.host, groups.c.batch_id)
    )
    result: dict[str, dict[str, list[BatchRate]]] = {name: {} for name in named}
    for fp, host, batch, accepted, pages in rows:
        result[by_fp[fp]].setdefault(host, []).append(BatchRate(batch, int(accepted or 0), pages))
    return result


def drift_flags(rates: Rates, threshold_points: float) -> list[DriftFlag]:
    """Each fall of more than `threshold_points` percentage points from a site's batch to its next one,
    by site, then extractor, then batch."""
    steps = [
        DriftFlag(site, extractor, before.batch, after.batch, before.rate, after.rate)
        for extractor, sites in rates.items()
        for site, batches in sites.items()
        for before, after in zip(batches, batches[1:])
    ]
    return sorted((f for f in steps if f.drop > threshold_points), key=lambda f: (f.site, f.extractor, f.from_batch))

