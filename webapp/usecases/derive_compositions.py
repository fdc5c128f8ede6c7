"""The compositions' extractions, derived from their parts' stored extractions (extractors/compositions.py),
never by running an extractor: the extraction job's `derive` step (steps/composed_extractions.py) reads what to
derive with `compositions_to_derive` and `composed_outputs`, and stores it with usecases/run_extraction.py
`store_extractions`, as the user who started the job.

The rules: only an admin extracts (403). A composition's extraction of a page is derived when every part has an
extraction of that page at its current fingerprint, and the composition has none at its own current fingerprint,
or one older than a part's (a part re-run with --force). A page where a part has none has no extraction by the
composition either: the leaderboard counts those pages (`missing_pages`). Each is stored as an extraction is
(extractors/extraction_service.py `store`: the accept guard judges its text, its cached scores are dropped when it
is replaced). Never commits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..accounts.roles import ADMIN
from ..crawl.routing import route_key
from ..extractors.base import Extractor
from ..extractors.composing import ROUTE, UNION, PartOutput
from ..extractors.compositions import Composition, compose
from ..extractors.extraction_service import known_now
from ..extractors.process_pool import Result
from ..foundation.settings import Settings
from ..models import Extraction, Page, Site
from .outcome import Actor, needs
from .run_extraction import ONLY_ADMINS


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


@needs(ADMIN, ONLY_ADMINS)
def compositions_to_derive(session: Session, settings: Settings, actor: Actor
                           ) -> tuple[Mapping[str, Extractor], list[tuple[Extractor, list[int]]]]:
    """The extractors known now, and each composition that can be derived here with the pages whose extraction by
    it is to be derived."""
    known = known_now(session, settings.registry)
    return known, [(composition, pages_to_compose(session, composition, known))
                   for composition in compositions_of(known)]


@needs(ADMIN, ONLY_ADMINS)
def composed_outputs(session: Session, actor: Actor, composition: Extractor, known: Mapping[str, Extractor],
                     page_ids: Sequence[int]) -> list[Result]:
    """The composition's outputs on these pages (every part has an extraction of each), as results to store."""
    definition = Composition.from_options(composition.name, composition.options)
    names = {known[name].fingerprint: name for name in composition.parts}
    outputs: dict[int, dict[str, PartOutput]] = {}
    for row in session.scalars(select(Extraction).where(Extraction.page_id.in_(list(page_ids)),
                                                        Extraction.fingerprint.in_(list(names)))):
        outputs.setdefault(row.page_id, {})[names[row.fingerprint]] = PartOutput(
            names[row.fingerprint], row.text, row.markdown, row.accepted, row.error, row.duration_ms, row.incomplete,
            dict(row.meta or {}))
    needs_html = definition.kind == UNION or definition.by == "type"
    pages = session.execute(
        select(Page.id, Page.html if needs_html else func.length(Page.html), Site.host)
        .outerjoin(Site, Site.id == Page.site_id).where(Page.id.in_(list(page_ids))))
    results = []
    for page_id, html, host in pages:
        if len(outputs.get(page_id, {})) != len(composition.parts):
            continue  # a part's extraction was replaced meanwhile: the next run derives it
        page_html = html if needs_html else ""
        key = route_key(definition.by, definition.fact_table, page_html, host) if definition.kind == ROUTE else ""
        composed = compose(definition, outputs[page_id], page_html, key)
        length = len(html) if needs_html else int(html or 0)
        results.append(Result((page_id, length), composition.name, composition.fingerprint, composed.text,
                              dict(composed.metadata), composed.duration_ms, composed.error, composed.incomplete,
                              composed.markdown))
    return results
