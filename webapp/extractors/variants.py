"""User-defined variants: a registered extractor (the base) with options of its own, stored under a name of
its own and run, scored and listed like a built-in.

A variant is its base with the variant's name and the base's options updated by its own, so its
fingerprint (name|version|options) changes when its options or its base's package version change. A
stored variant whose base is no longer registered, or whose base no longer takes one of its options, is
listed as unavailable, saying why. The functions take a session and never commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..models import ExtractorVariant
from .base import Extracted, Extractor
from .extractor_names import NAME, NAME_RULE
from .options import BadOption, check_options, parse_options, quoted
from .variant_extractor import variant_of


class BadVariant(ValueError):
    """A variant that cannot be added or removed; the message says why."""


def unregistered(html: str, url: str | None, **options: Any) -> Extracted:
    """The function of a variant whose base is gone: never called (the variant is unavailable)."""
    raise RuntimeError("the variant's base extractor is not registered")


def stored_variant(row: ExtractorVariant, registry: Mapping[str, Extractor]) -> Extractor:
    """The extractor a stored variant stands for, unavailable (with the reason) where it cannot run."""
    base = registry.get(row.base)
    if base is None:
        return Extractor(row.name, "base not registered", unregistered, dict(row.options),
                         f"variant of {row.base}", f"its base extractor {row.base!r} is not registered")
    try:
        options = check_options(base, row.options)
    except BadOption as error:
        return replace(variant_of(base, row.name, row.options), unavailable_reason=str(error))
    return variant_of(base, row.name, options)


def with_variants(session: Session, registry: Mapping[str, Extractor]) -> dict[str, Extractor]:
    """The registry followed by the stored variants, by name (a registered extractor keeps its name: a
    variant of the same name, stored before that extractor was installed, is left out)."""
    known = dict(registry)
    for row in session.scalars(select(ExtractorVariant).order_by(ExtractorVariant.name)):
        known.setdefault(row.name, stored_variant(row, registry))
    return known


def add_variant(
    session: Session, registry: Mapping[str, Extractor], name: str, base_name: str, pairs: Sequence[str],
    created_by: str = "",
) -> Extractor:
    """Store the variant NAME of the registered extractor BASE_NAME with the `NAME=VALUE` options; BadVariant
    says what is wrong (naming a bad option) and nothing is stored."""
    if not NAME.fullmatch(name):
        raise BadVariant(f"variant name {quoted(name)} is not {NAME_RULE}")
    if name in with_variants(session, registry):
        raise BadVariant(f"an extractor named {name!r} already exists")
    base = registry.get(base_name)
    if base is None:
        raise BadVariant(f"unknown base extractor {quoted(base_name)} (known: {', '.join(sorted(registry))})")
    if not pairs:
        raise BadVariant("a variant needs at least one option NAME=VALUE")
    try:
        options = parse_options(base, pairs)
    except BadOption as error:
        raise BadVariant(str(error)) from error
    try:
        with session.begin_nested():  # a savepoint: the caller's transaction survives a refused insert
            session.add(ExtractorVariant(name=name, base=base_name, options=options, created_by=created_by[:100]))
    except IntegrityError as error:  # stored by another request since the check above
        raise BadVariant(f"an extractor named {name!r} already exists") from error
    return variant_of(base, name, options)


def remove_variant(session: Session, name: str) -> None:
    """Delete the stored variant NAME (its extractions are kept); BadVariant when there is none."""
    row = session.scalars(select(ExtractorVariant).where(ExtractorVariant.name == name)).one_or_none()
    if row is None:
        raise BadVariant(f"no variant named {name!r}")
    session.delete(row)
    session.flush()
