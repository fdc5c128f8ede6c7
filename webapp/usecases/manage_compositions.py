"""Compose extractors (a cascade, a route or a union of registered extractors and variants, stored by name and
read from their parts' stored extractions: extractors/compositions.py) and remove a composition. `goldtext
extractors compose|remove` (cli/extract_commands.py) and the Extractors page's form (views/extractors.py) call
them.

The rules: only an admin composes or removes (403); the name is new (no extractor, variant or composition has
it), the kind one of cascade, route and union, the parts registered extractors or variants (not compositions),
each named once, a cascade and a union of two parts at least, a route by type or site whose table names a part
for every other page ("*") and, by type, only page types of the taxonomy (400, naming what is wrong). A route
given without a table takes the leaderboard's winners (crawl/choice.py `route_winners`: each type's or site's
winner on its gold pages, the overall winner for every other page; 400 when nothing is scored yet), and a route by
type reads a page's type from its facts with the gold's facts table of now (crawl/routing.py), kept with it.
The composition's extractions are derived and scored by an extraction job that runs nothing (`derive_only`),
which the face runs or dispatches after its commit. Removing names a stored composition (404), its extractions
kept. Each is audited; the face commits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..crawl.choice import NoChoice, gold_fact_table, route_winners
from ..extractors.base import Extractor
from ..extractors.composing import BY_TYPE, ROUTE
from ..extractors.composition_rows import add_composition, remove_composition
from ..extractors.compositions import BadComposition, Composition
from ..extractors.extraction_service import known_now
from ..foundation.settings import Settings
from ..models import Job
from .extract import ExtractionRequest, start_extraction
from .outcome import Actor, Refused, needs


@dataclass(frozen=True)
class CompositionRequest:
    """What a composition is asked to be: NAME, its kind, its parts (a cascade's in order), a route's key (by)
    and table (None: the leaderboard's winners)."""

    name: str
    kind: str
    parts: tuple[str, ...] = ()
    by: str | None = None
    table: Mapping[str, str] | None = None
    metric: str = "tokens"


@dataclass(frozen=True)
class Composed:
    """The stored composition, as an extractor, and the job that derives and scores its extractions."""

    extractor: Extractor
    job: Job
    table: Mapping[str, str] = field(default_factory=dict)


@needs(ADMIN, "Only an admin stores compositions of extractors.")
def compose_extractors(session: Session, settings: Settings, actor: Actor, request: CompositionRequest) -> Composed:
    """The stored composition and its queued derive job; Refused by the rules above."""
    table: dict[str, str] = {}
    fact_table: dict[str, dict[str, int]] = {}
    parts: Sequence[str] = request.parts
    if request.kind == ROUTE:
        table = dict(request.table) if request.table is not None else winners(session, settings, request)
        parts = tuple(dict.fromkeys(table.values()))
        fact_table = gold_fact_table(session) if request.by == BY_TYPE else {}
    composition = Composition(request.name.strip(), request.kind, tuple(parts), request.by if request.kind == ROUTE
                              else None, table, fact_table)
    known = {name: e for name, e in known_now(session, settings.registry).items() if not e.parts}
    try:
        extractor = add_composition(session, known, composition, settings.taxonomy.page_types, created_by=actor.name)
    except BadComposition as error:
        raise Refused(400, str(error)) from None
    actor.record(session, Action.COMPOSITION_ADD, extractor.name,
                 {"kind": composition.kind, "parts": list(composition.parts), "by": composition.by, "table": table})
    job = start_extraction(session, settings, actor, ExtractionRequest((extractor.name,), derive_only=True))
    return Composed(extractor, job, table)


def winners(session: Session, settings: Settings, request: CompositionRequest) -> dict[str, str]:
    """The leaderboard's winner of each type or site (and of every other page) as a route's table."""
    if request.by not in ("type", "site"):
        raise Refused(400, f"a route is by type or site, not {request.by!r}")
    try:
        with settings.shared.synced(session) as cache:
            return route_winners(session, settings.registry, cache, request.by, request.metric)
    except NoChoice as error:
        raise Refused(400, str(error)) from None


@needs(ADMIN, "Only an admin removes compositions of extractors.")
def remove_composed(session: Session, actor: Actor, name: str) -> None:
    """Forget the composition `name` (its extractions stay); Refused by the rules above."""
    try:
        remove_composition(session, name)
    except BadComposition as error:
        raise Refused(404, str(error)) from None
    actor.record(session, Action.COMPOSITION_REMOVE, name)
