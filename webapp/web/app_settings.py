"""The app's settings object for a request (webapp/foundation/settings.py): what the settings decide, the process's
score cache, the metric and extractor registries. The faces read them here; below the faces they are
passed explicitly."""

from __future__ import annotations

from collections.abc import Mapping

from flask import current_app

from ..extractors.base import Extractor
from ..foundation.settings import Settings, settings_of
from ..results.cache import SharedScores
from ..scoring import Metric


def settings() -> Settings:
    """What the app's settings decide (webapp/foundation/settings.py)."""
    return settings_of(current_app)


def shared_scores() -> SharedScores:
    """The process's score cache."""
    return settings().shared


def metrics() -> Mapping[str, Metric]:
    """The app's metric registry."""
    return settings().metrics


def registry() -> Mapping[str, Extractor]:
    """The app's extractor registry, built once (read-only)."""
    return settings().registry


def overlap() -> int:
    """How many annotators annotate each page independently (the OVERLAP setting, at least 1)."""
    return settings().overlap
