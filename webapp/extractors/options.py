"""What options an extractor accepts, and `NAME=VALUE` strings read into them.

An extractor's options are its function's keyword parameters with a default (after `html` and `url`); the
parameter's annotation says which values it takes, of bool, int, float and str (`int | None` takes an int).
A parameter without an annotation takes any of them, read in that order: `true`/`false` (any case), an
integer, a number, else the string as given. Parameters that take none of the four (site-rules' `rules`)
are not options a user can set. A number must be finite (`nan` and `inf` are refused: PostgreSQL's JSON
cannot store them and no extractor means anything by them), and a value has at most VALUE_MAX_CHARS
characters (a longer one would be stored, listed and sent to every extraction).
"""

from __future__ import annotations

import inspect
import math
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from .base import Extractor

SCALARS: tuple[type, ...] = (bool, int, float, str)
WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
VALUE_MAX_CHARS = 1000
QUOTED_MAX_CHARS = 100


class BadOption(ValueError):
    """An option the extractor does not accept, or a value of the wrong kind; the message names the option."""


def quoted(value: Any, most: int = QUOTED_MAX_CHARS) -> str:
    """A value as a message or a listing shows it: its repr, cut to `most` characters with the full length."""
    shown = repr(value)
    return shown if len(shown) <= most else f"{shown[:most]}… ({len(shown):,} characters)"


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
    if len(raw) > VALUE_MAX_CHARS:
        raise BadOption(f"option {quoted(name)} is {len(raw):,} characters long; a value has at most "
                        f"{VALUE_MAX_CHARS:,}")
    infinite = ""
    for kind in kinds:
        if kind is bool and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        if kind in (int, float):
            try:
                number = kind(raw.strip())
            except ValueError:
                continue
            if finite(number):
                return number
            infinite = " (a finite one: nan and inf are refused)"
        if kind is str:
            return raw
    wanted = " or ".join(WORDS[kind] for kind in kinds)
    raise BadOption(f"option {quoted(name)} takes {wanted}{infinite}, not {quoted(raw)}")


def split_pair(pair: str) -> tuple[str, str]:
    """'NAME=VALUE' -> (NAME, VALUE), split at the first '='."""
    name, equals, value = pair.partition("=")
    if not equals or not name.strip():
        raise BadOption(f"option {quoted(pair)} is not NAME=VALUE")
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
            raise BadOption(f"{extractor.name} has no option {quoted(name)} (its options: {known})")
        kinds = accepted[name]
        if raw:
            checked[name] = read_value(name, value, kinds)
        elif (type(value) in kinds or (type(value) is int and float in kinds)) and finite(value):
            checked[name] = value
        else:
            wanted = " or ".join(WORDS[kind] for kind in kinds)
            raise BadOption(f"option {quoted(name)} takes {wanted}, not {quoted(value)}")
    return checked


def finite(value: Any) -> bool:
    """False for a float that is not a number or infinite (a stored `NaN`), True for anything else."""
    return not isinstance(value, float) or math.isfinite(value)
