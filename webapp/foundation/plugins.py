"""Entry-point registries: extractors and metrics are registered the same way, built-ins exactly as a
third party's (an entry point "module:attribute" naming the object), theirs found in the entry-point
group of installed distributions. A broken entry point is skipped with a warning naming it."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import TypeVar

T = TypeVar("T")


def entry_points_of(group: str, builtins: Iterable[tuple[str, str]]) -> tuple[EntryPoint, ...]:
    """The built-ins (name, "module:attribute") as entry points of the group."""
    return tuple(EntryPoint(name, value, group) for name, value in builtins)


def register(registry: dict[str, T], entry_point: EntryPoint, kind: type[T]) -> None:
    """Load one entry point into the registry under its object's `name`, or warn why not."""
    what = kind.__name__.lower()
    label = f"{what} entry point {entry_point.name!r} ({entry_point.value})"
    try:
        found = entry_point.load()
    except Exception as error:  # a third party's import failure must not take the app down
        warn(f"{label} is broken: {type(error).__name__}: {error}")
        return
    if not isinstance(found, kind):
        warn(f"{label} is not a{'n' if what[0] in 'aeiou' else ''} {kind.__name__} but {type(found).__name__}")
    elif found.name in registry:  # type: ignore[attr-defined]
        warn(f"{label} ignored: {found.name!r} is already registered")  # type: ignore[attr-defined]
    else:
        registry[found.name] = found  # type: ignore[attr-defined]


def warn(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=4)


def build(group: str, builtins: Iterable[EntryPoint], kind: type[T]) -> dict[str, T]:
    """A new dict of the built-ins plus every object installed in the entry-point group."""
    registry: dict[str, T] = {}
    for entry_point in (*builtins, *entry_points(group=group)):
        register(registry, entry_point, kind)
    return registry
