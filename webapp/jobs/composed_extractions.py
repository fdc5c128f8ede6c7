"""The compositions' extractions, derived from their parts' stored extractions (extractors/compositions.py),
never by running an extractor: the extraction job's `derive` step calls `derive_compositions` before it scores.

A composition's extraction of a page is derived when every part has an extraction of that page at its current
fingerprint, and the composition has none at its own current fingerprint, or one older than a part's (a part
re-run with --force). A page where a part has none has no extraction by the composition either: the leaderboard
counts those pages (`missing_pages`). Each is stored as an extraction is (extractors/extraction_service.py
`store`: the accept guard judges its text, its cached scores are dropped when it is replaced). Functions take a
session and never commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..crawl.routing import route_key
from ..extractors.base import Extractor
from ..extractors.composing import ROUTE, UNION, PartOutput
from ..extractors.compositions import Composition, compose
from ..extractors.extraction_service import store
from ..extractors.guard import GuardThresholds
from ..extractors.process_pool import Result
from ..models import Extraction, Page, Site

DERIVE_BATCH = 100
"""Pages whose parts' texts are read at once."""


def compositions_of(known: Mapping[str, Extractor]) -> list[Extractor]:
    """The compositions among the extractors known, those that can be derived here (every part available)."""
    return [extractor for extractor in known.values() if extractor.parts and extractor.available]


def pages_to_compose(session: Session, composition: Extractor, known: Mapping[str, Extractor]) -> list[int]:
    """The pages whose extraction by the composition is to be derived (see the module's docstring)."""
    parts = [known[name].fingerprint for name in composition.parts]
    newest: dict[int, list[datetime]] = {}
    for page_id, created_at in session.execute(
            select(Extraction.page_id, Extraction.created_at).where(Extraction.fingerprint.in_(parts))):
        newest.setdefault(page_id, []).append(created_at)
    own = dict(session.execute(select(Extraction.page_id, Extraction.created_at)
                               .where(Extraction.fingerprint == composition.fingerprint)).all())
    return sorted(page_id for page_id, times in newest.items()
                  if len(times) == len(parts) and (page_id not in own or own[page_id] < max(times)))


def derive_compositions(session: Session, known: Mapping[str, Extractor], thresholds: GuardThresholds,
                        pages: Sequence[int] | None = None) -> int:
    """Derive every composition's missing extractions (of `pages` only, when given); returns how many."""
    derived = 0
    for composition in compositions_of(known):
        wanted = pages_to_compose(session, composition, known)
        if pages is not None:
            wanted = sorted(set(wanted) & set(pages))
        for start in range(0, len(wanted), DERIVE_BATCH):
            derived += derive_batch(session, composition, known, wanted[start:start + DERIVE_BATCH], thresholds)
    return derived


def derive_batch(session: Session, composition: Extractor, known: Mapping[str, Extractor], page_ids: list[int],
                 thresholds: GuardThresholds) -> int:
    """Store the composition's extractions of these pages (every part has one of each)."""
    definition = Composition.from_options(composition.name, composition.options)
    names = {known[name].fingerprint: name for name in composition.parts}
    outputs: dict[int, dict[str, PartOutput]] = {}
    for row in session.scalars(select(Extraction).where(Extraction.page_id.in_(page_ids),
                                                        Extraction.fingerprint.in_(list(names)))):
        outputs.setdefault(row.page_id, {})[names[row.fingerprint]] = PartOutput(
            names[row.fingerprint], row.text, row.markdown, row.accepted, row.error, row.duration_ms, row.incomplete,
            dict(row.meta or {}))
    needs_html = definition.kind == UNION or definition.by == "type"
    pages = session.execute(
        select(Page.id, Page.html if needs_html else func.length(Page.html), Site.host)
        .outerjoin(Site, Site.id == Page.site_id).where(Page.id.in_(page_ids)))
    for page_id, html, host in pages:
        page_html = html if needs_html else ""
        key = route_key(definition.by, definition.fact_table, page_html, host) if definition.kind == ROUTE else ""
        composed = compose(definition, outputs[page_id], page_html, key)
        length = len(html) if needs_html else int(html or 0)
        store(session, Result((page_id, length), composition.name, composition.fingerprint, composed.text,
                              dict(composed.metadata), composed.duration_ms, composed.error, composed.incomplete,
                              composed.markdown), thresholds, replace=True)
    session.flush()
    return len(page_ids)
