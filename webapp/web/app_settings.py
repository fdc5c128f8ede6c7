"""The app's settings object for a request (webapp/settings.py): what the settings decide, the process's
score cache, the metric and extractor registries. The faces read them here; below the faces they are
passed explicitly. And the app object itself, for what outlives the app context."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from flask import Flask, current_app

from ..extractors.base import Extractor
from ..results.cache import SharedScores
from ..scoring import Metric
from ..settings import Settings, settings_of

if TYPE_CHECKING:
    from werkzeug.local import LocalProxy


def settings() -> Settings:
    """What the app's settings decide (webapp/settings.py)."""
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


def flask_app() -> Flask:
    """The app object behind `current_app`, for what outlives the app context (a server, a worker, a thread)."""
    return cast("LocalProxy[Flask]", current_app)._get_current_object()
