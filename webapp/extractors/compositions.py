"""Compositions: a cascade, route or union (extractors/composing.py) of registered extractors and variants,
stored under a name of its own and listed, scored and exported like an extractor, but read from its parts'
stored extractions, never run (steps/composed_extractions.py derives them). Their rows in the database are
composition_rows.py's: an exported crawl pipeline composes its parts' outputs with this module, without a database.

A composition is an `Extractor` whose `parts` name its parts; its version is a digest of its parts' current
fingerprints (with its definition), so that a new version of a part (or new options of a variant, or new site
rules) is a new version of the composition, whose figures then wait for its extractions to be derived again. A
stored composition whose part is gone or cannot run here is listed as unavailable, saying why.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Extracted, Extractor, canonical_json
from .composing import (
    CASCADE,
    EVERY_OTHER,
    KINDS,
    ROUTE,
    ROUTE_BY,
    UNION,
    Composed,
    PartOutput,
    cascade,
    route,
    union,
)
from .extractor_names import NAME, NAME_RULE
from .options import quoted


class BadComposition(ValueError):
    """A composition that cannot be stored or removed, or a part that cannot go; the message says why."""


@dataclass(frozen=True)
class Composition:
    """What a composition is: its kind, its parts in order, and a route's key (by), table and facts table."""

    name: str
    kind: str
    parts: tuple[str, ...]
    by: str | None = None
    table: Mapping[str, str] = field(default_factory=dict)
    fact_table: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    @classmethod
    def from_options(cls, name: str, options: Mapping[str, Any]) -> Composition:
        """The composition an extractor's options (or a pipeline's configuration) describe."""
        return cls(name, options["kind"], tuple(options["parts"]), options.get("by"), dict(options.get("table", {})),
                   dict(options.get("fact_table", {})))

    def options(self) -> dict[str, Any]:
        """The composition as its extractor's options: what its fingerprint holds beside its parts'."""
        found: dict[str, Any] = {"kind": self.kind, "parts": list(self.parts)}
        if self.kind == ROUTE:
            found |= {"by": self.by, "table": dict(self.table)}
            if self.fact_table:
                found["fact_table"] = {key: dict(counts) for key, counts in self.fact_table.items()}
        return found

    def describe(self) -> str:
        if self.kind == ROUTE:
            table = ", ".join(f"{key}: {part}" for key, part in self.table.items())
            return f"route by {self.by} ({table})"
        return f"{self.kind} of {', '.join(self.parts)}"


def never_run(html: str, url: str | None, **options: Any) -> Extracted:
    """A composition's function: never called (a composition is derived from its parts' stored extractions)."""
    raise RuntimeError("a composition is read from its parts' stored extractions, never run")


def composition_extractor(composition: Composition, known: Mapping[str, Extractor]) -> Extractor:
    """The extractor a composition stands for, with its parts as they stand now (`known`: name -> extractor)."""
    parts = [known.get(name) for name in composition.parts]
    reasons = [f"its part {name!r} is not an extractor here" for name, part in zip(composition.parts, parts)
               if part is None]
    reasons += [f"its part {part.name!r} is unavailable: {part.unavailable_reason}" for part in parts
                if part is not None and not part.available]
    options = composition.options()
    digest = hashlib.sha256("\n".join([canonical_json(options)] + [part.fingerprint for part in parts if part])
                            .encode()).hexdigest()[:16]
    return Extractor(composition.name, f"{composition.kind} sha256:{digest}", never_run, options,
                     composition.describe(), "; ".join(reasons) or None,
                     any(part.structure for part in parts if part), composition.parts)


def runs_of(extractors: Iterable[Extractor], known: Mapping[str, Extractor]) -> list[Extractor]:
    """The extractors to run for these: a composition's parts in its place, each extractor once."""
    found: dict[str, Extractor] = {}
    for extractor in extractors:
        for runs in ([known[name] for name in extractor.parts] if extractor.parts else [extractor]):
            found.setdefault(runs.name, runs)
    return list(found.values())


def checked(composition: Composition, known: Mapping[str, Extractor], page_types: Sequence[str]) -> Composition:
    """The composition if it can be stored; BadComposition naming what is wrong."""
    if not NAME.fullmatch(composition.name):
        raise BadComposition(f"composition name {quoted(composition.name)} is not {NAME_RULE}")
    if composition.name in known:
        raise BadComposition(f"an extractor named {composition.name!r} already exists")
    if composition.kind not in KINDS:
        raise BadComposition(f"a composition is one of {', '.join(KINDS)}, not {quoted(composition.kind)}")
    parts = composition.parts
    unknown = [name for name in parts if name not in known or known[name].parts]
    if unknown:
        raise BadComposition(f"unknown part{'s' if len(unknown) > 1 else ''} {', '.join(map(quoted, unknown))}: "
                             "a part is a registered extractor or a variant, not a composition")
    if len(set(parts)) != len(parts):
        raise BadComposition(f"a part is named twice in {', '.join(parts)}")
    if composition.kind in (CASCADE, UNION) and len(parts) < 2:
        raise BadComposition(f"a {composition.kind} takes at least two parts, not {len(parts)}")
    if composition.kind == ROUTE:
        if composition.by not in ROUTE_BY:
            raise BadComposition(f"a route is by {' or '.join(ROUTE_BY)}, not {quoted(composition.by)}")
        if EVERY_OTHER not in composition.table:
            raise BadComposition(f"a route's table names the part of every other page ({EVERY_OTHER!r})")
        if composition.by == "type":
            strange = [key for key in composition.table if key != EVERY_OTHER and key not in page_types]
            if strange:
                raise BadComposition(f"unknown page type{'s' if len(strange) > 1 else ''} "
                                     f"{', '.join(map(quoted, strange))} (page types: {', '.join(page_types)})")
        if set(composition.table.values()) != set(parts):
            raise BadComposition("a route's parts are the extractors its table names")
    return composition


def compose(composition: Composition, outputs: Mapping[str, PartOutput], html: str, key: str) -> Composed:
    """The composition's output on a page from its parts' outputs (by part name); `key`: a route's key of the
    page (its page type or its site's host; crawl/routing.py `route_key`)."""
    if composition.kind == CASCADE:
        return cascade([outputs[name] for name in composition.parts])
    if composition.kind == UNION:
        return union([outputs[name] for name in composition.parts], html)
    return route(outputs, composition.table, key)
