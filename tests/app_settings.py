"""Settings a test changes after its app was made: the app's settings object is rebuilt from its config with
the new values, as `create_app` builds it (a test that can say them up front uses the `settings` mark)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask

from webapp.foundation.settings import EXTENSION, build_settings, settings_of


def reconfigure(app: Flask, **values: Any) -> None:
    """The app as if created with these settings too (its registries and score cache kept)."""
    app.config.update(values)
    before = settings_of(app)
    app.extensions[EXTENSION] = replace(build_settings(app.config, app.instance_path, before.metrics),
                                        shared=before.shared)
