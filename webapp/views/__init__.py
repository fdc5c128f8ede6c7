"""The app's blueprints, one per area."""

from __future__ import annotations

from flask import Flask

from ..queue import DisagreementCache
from . import annotate, api, pages, queue, upload
from .common import DISAGREEMENT
from .upload import JOBS


def register_blueprints(app: Flask) -> None:
    app.extensions[DISAGREEMENT] = DisagreementCache()
    app.extensions[JOBS] = {}
    for module in (queue, annotate, pages, api, upload):
        app.register_blueprint(module.bp)
