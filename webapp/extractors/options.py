"""What options an extractor accepts, and `NAME=VALUE` strings read into them.

An extractor's options are its function's keyword parameters with a default (after `html` and `url`); the
parameter's annotation says which values it takes, of bool, int, float and str (`int | None` takes an int).
A parameter without an annotation takes any of them, read in that order: `true`/`false` (any case), an
integer, a number, else the string as given. Parameters that take none of the four (site-rules' `rules`)
are not options a user can set.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from .base import Extractor

SCALARS: tuple[type, ...] = (bool, int, float, str)
WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


class BadOption(ValueError):
    """An option the extractor does not accept, or a value of the wrong kind; the message names the option."""


def scalar_types(annotation: Any) -> tuple[type, ...]:
    """The scalars of SCALARS an annotation admits (all of them for no annotation)."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return SCALARS
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = typing.get_args(annotation)
    else:
        members = (annotation,)
    return tuple(kind for kind in SCALARS if kind in members)


def settable(extractor: Extractor) -> dict[str, tuple[type, ...]]:
    """Option name -> the scalar types it takes, for every option a user can set on this extractor."""
    try:
        hints = typing.get_type_hints(extractor.func)
    except Exception:  # a third party's unresolvable annotations: its options take any scalar
        hints = {}
    parameters = list(inspect.signature(extractor.func).parameters.values())[2:]
    found = {}
    for parameter in parameters:
        if parameter.default is inspect.Parameter.empty:
            continue
        kinds = scalar_types(hints.get(parameter.name, inspect.Parameter.empty))
        if kinds:
            found[parameter.name] = kinds
    return found


def read_value(name: str, raw: str, kinds: tuple[type, ...]) -> bool | int | float | str:
    """The first of the kinds (in SCALARS' order) that reads the raw string; BadOption names the option."""
    for kind in kinds:
        if kind is bool and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        if kind in (int, float):
            try:
                return kind(raw.strip())
            except ValueError:
                continue
        if kind is str:
            return raw
    wanted = " or ".join(WORDS[kind] for kind in kinds)
    raise BadOption(f"option {name!r} takes {wanted}, not {raw!r}")


def split_pair(pair: str) -> tuple[str, str]:
    """'NAME=VALUE' -> (NAME, VALUE), split at the first '='."""
    name, equals, value = pair.partition("=")
    if not equals or not name.strip():
        raise BadOption(f"option {pair!r} is not NAME=VALUE")
    return name.strip(), value


def parse_options(extractor: Extractor, pairs: Iterable[str]) -> dict[str, Any]:
    """The `NAME=VALUE` strings as options of this extractor; BadOption names an unknown or ill-typed one."""
    return check_options(extractor, dict(split_pair(pair) for pair in pairs), raw=True)


def check_options(extractor: Extractor, options: Mapping[str, Any], raw: bool = False) -> dict[str, Any]:
    """The options (as strings with `raw`, else as values) checked against what the extractor accepts."""
    accepted = settable(extractor)
    checked: dict[str, Any] = {}
    for name, value in options.items():
        if name not in accepted:
            known = ", ".join(sorted(accepted)) or "none"
            raise BadOption(f"{extractor.name} has no option {name!r} (its options: {known})")
        kinds = accepted[name]
        if raw:
            checked[name] = read_value(name, value, kinds)
        elif type(value) in kinds or (type(value) is int and float in kinds):
            checked[name] = value
        else:
            raise BadOption(f"option {name!r} takes {' or '.join(WORDS[kind] for kind in kinds)}, not {value!r}")
    return checked
