"""Compositions' rows in the database (extractors/compositions.py says what a composition is): stored, listed,
removed. The functions take a session and never commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..models import ExtractorComposition
from .base import Extractor
from .compositions import BadComposition, Composition, checked, composition_extractor


def composition_of_row(row: ExtractorComposition) -> Composition:
    return Composition(row.name, row.kind, tuple(row.parts), row.route_by, dict(row.route_table), dict(row.fact_table))


def stored_compositions(session: Session) -> list[Composition]:
    return [composition_of_row(row) for row in
            session.scalars(select(ExtractorComposition).order_by(ExtractorComposition.name))]


def with_compositions(session: Session, known: Mapping[str, Extractor]) -> dict[str, Extractor]:
    """The extractors known (the registry and the variants, as they stand now) followed by the stored
    compositions of them, by name (a name already known keeps its extractor)."""
    found = dict(known)
    for composition in stored_compositions(session):
        found.setdefault(composition.name, composition_extractor(composition, known))
    return found


def add_composition(session: Session, known: Mapping[str, Extractor], composition: Composition,
                    page_types: Sequence[str], created_by: str = "") -> Extractor:
    """Store the composition (`known`: the registry and the variants as they stand now); BadComposition says
    what is wrong and nothing is stored."""
    checked(composition, with_compositions(session, known), page_types)
    try:
        with session.begin_nested():  # a savepoint: the caller's transaction survives a refused insert
            session.add(ExtractorComposition(
                name=composition.name, kind=composition.kind, parts=list(composition.parts), route_by=composition.by,
                route_table=dict(composition.table),
                fact_table={key: dict(counts) for key, counts in composition.fact_table.items()},
                created_by=created_by[:100]))
    except IntegrityError as error:  # stored by another request since the check above
        raise BadComposition(f"an extractor named {composition.name!r} already exists") from error
    return composition_extractor(composition, known)


def remove_composition(session: Session, name: str) -> None:
    """Delete the stored composition NAME (its extractions are kept); BadComposition when there is none."""
    row = session.scalars(select(ExtractorComposition).where(ExtractorComposition.name == name)).one_or_none()
    if row is None:
        raise BadComposition(f"no composition named {name!r}")
    session.delete(row)
    session.flush()


def compositions_using(session: Session, name: str) -> list[str]:
    """The stored compositions that have NAME as a part."""
    return [composition.name for composition in stored_compositions(session) if name in composition.parts]
