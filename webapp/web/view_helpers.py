"""What the views share that has no better home yet (moved from views/common.py by the house moves)."""

from __future__ import annotations

from flask import current_app

from ..annotation.boilerplate import BoilerplateCache

BOILERPLATE = "goldtext.boilerplate"


def boilerplate_cache() -> BoilerplateCache:
    """The process's cache of each site's repeated lines (annotation/boilerplate.py), which opening a page
    reads (usecases/open_page.py)."""
    cache: BoilerplateCache = current_app.extensions.setdefault(BOILERPLATE, BoilerplateCache())
    return cache
