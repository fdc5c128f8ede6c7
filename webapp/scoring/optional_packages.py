"""Metrics that need an optional package: built unavailable, naming the missing packages and how to install
them, when one cannot be found; their counts function then refuses with that reason (cached counts still
aggregate without them)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from .metric import Metric, mean_of_page_scores, stored_page_scores

FindSpec = Callable[[str], object | None]


def missing_reason(needed: Mapping[str, str], install_hint: str,
                   find_spec: FindSpec = importlib.util.find_spec) -> str | None:
    """Why the metric is unavailable (the missing distributions and the install hint), None when every
    module of ``needed`` (module -> distribution) can be found."""
    missing = [package for module, package in needed.items() if find_spec(module) is None]
    return f"{' and '.join(missing)} not installed: {install_hint}" if missing else None


def _refuse(candidate: Any, gold: Any, *, errored: bool = False, reason: str) -> dict[str, Any]:
    raise RuntimeError(reason)


def optional_metric(needed: Mapping[str, str], install_hint: str, find_spec: FindSpec, *,
                    counts: Callable[..., dict[str, Any]], **fields: Any) -> Metric:
    """The Metric of these fields, or, when a module of ``needed`` cannot be found, the same metric marked
    unavailable whose counts raise RuntimeError naming the missing packages."""
    reason = missing_reason(needed, install_hint, find_spec)
    return Metric(counts=partial(_refuse, reason=reason) if reason else counts, available=reason is None,
                  unavailable_reason=reason, **fields)


def optional_page_mean_metric(needed: Mapping[str, str], install_hint: str, find_spec: FindSpec, *,
                              counts: Callable[..., dict[str, Any]], **fields: Any) -> Metric:
    """An optional metric whose counts are each page's precision, recall and F1, averaged over pages (its
    fixed average), scored by a refresh job (``eager=False``)."""
    return optional_metric(needed, install_hint, find_spec, counts=counts, fields=("precision", "recall", "f1"),
                           page_scores=stored_page_scores,
                           aggregations={"macro": mean_of_page_scores(stored_page_scores)}, eager=False, **fields)
