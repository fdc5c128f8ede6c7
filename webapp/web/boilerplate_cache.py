"""The site boilerplate lines the annotate view leaves out of a prefill, kept per process
(annotation/boilerplate.py)."""

from __future__ import annotations

from flask import current_app

from ..annotation.boilerplate import BoilerplateCache

BOILERPLATE = "goldtext.boilerplate"


def boilerplate_cache() -> BoilerplateCache:
    """The process's cache of each site's repeated lines (annotation/boilerplate.py), which opening a page
    reads (usecases/open_page.py)."""
    cache: BoilerplateCache = current_app.extensions.setdefault(BOILERPLATE, BoilerplateCache())
    return cache
