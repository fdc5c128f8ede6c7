"""Metrics that need an optional package: which of their packages are missing, and the counts function
that refuses, naming them, in place of the metric's own (cached counts still aggregate without them)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

FindSpec = Callable[[str], object | None]


def missing_reason(needed: Mapping[str, str], install_hint: str,
                   find_spec: FindSpec = importlib.util.find_spec) -> str | None:
    """Why the metric is unavailable (the missing distributions and the install hint), None when every
    module of ``needed`` (module -> distribution) can be found."""
    missing = [package for module, package in needed.items() if find_spec(module) is None]
    return f"{' and '.join(missing)} not installed: {install_hint}" if missing else None


def _refuse(candidate: Any, gold: Any, *, errored: bool = False, reason: str) -> dict[str, Any]:
    raise RuntimeError(reason)


def counts_or_refusal(counts: Callable[..., dict[str, Any]], reason: str | None) -> Callable[..., dict[str, Any]]:
    """The metric's own counts, or (with a reason) a counts function that raises RuntimeError(reason)."""
    return partial(_refuse, reason=reason) if reason else counts
