"""The extractor registry: a plain dict name -> Extractor, built fresh for each caller.

Built-ins are registered exactly as a third party is: as entry points ("module:attribute"
naming an `Extractor`), theirs found in the `goldtext.extractors` group of installed
distributions. A broken entry point is skipped with a warning naming it.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points

from webapp.extractors.base import Extractor

GROUP = "goldtext.extractors"

BUILTINS = tuple(
    EntryPoint(name, value, GROUP)
    for name, value in (
        ("trafilatura", "webapp.extractors.with_trafilatura:TRAFILATURA"),
        ("trafilatura-precision", "webapp.extractors.with_trafilatura:TRAFILATURA_PRECISION"),
        ("trafilatura-recall", "webapp.extractors.with_trafilatura:TRAFILATURA_RECALL"),
        ("trafilatura-fast", "webapp.extractors.with_trafilatura:TRAFILATURA_FAST"),
        ("density", "webapp.extractors.density:DENSITY"),
        ("readability", "webapp.extractors.with_readability:READABILITY"),
        ("justext", "webapp.extractors.with_justext:JUSTEXT"),
        ("boilerpy3", "webapp.extractors.with_boilerpy3:BOILERPY3"),
        ("whole-page", "webapp.extractors.whole_page:WHOLE_PAGE"),
        ("site-rules", "webapp.extractors.site_rules:SITE_RULES"),
    )
)


class UnknownExtractor(ValueError):
    """A requested extractor name is not in the registry."""


def register(registry: dict[str, Extractor], entry_point: EntryPoint) -> None:
    """Load one entry point into the registry under its extractor's name, or warn why not."""
    label = f"extractor entry point {entry_point.name!r} ({entry_point.value})"
    try:
        extractor = entry_point.load()
    except Exception as error:  # a third party's import failure must not take the app down
        warn(f"{label} is broken: {type(error).__name__}: {error}")
        return
    if not isinstance(extractor, Extractor):
        warn(f"{label} is not an Extractor but {type(extractor).__name__}")
    elif extractor.name in registry:
        warn(f"{label} ignored: {extractor.name!r} is already registered")
    else:
        registry[extractor.name] = extractor


def warn(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def build_registry() -> dict[str, Extractor]:
    """A new dict of the built-ins plus every extractor installed in the entry-point group."""
    registry: dict[str, Extractor] = {}
    for entry_point in (*BUILTINS, *entry_points(group=GROUP)):
        register(registry, entry_point)
    return registry


def resolve(registry: dict[str, Extractor], names: Iterable[str]) -> list[Extractor]:
    """The extractors named, in order; UnknownExtractor names any missing and lists the known."""
    names = list(names)
    unknown = [name for name in names if name not in registry]
    if unknown:
        raise UnknownExtractor(
            f"unknown extractor{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}"
            f" (known: {', '.join(sorted(registry))})"
        )
    return [registry[name] for name in names]
