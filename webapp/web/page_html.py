"""A stored page's decoded HTML for the views that show it (the frame, the source, the annotate view),
and whether it is too deep or too large to render as it is (the RENDER_MAX_* settings, heavy_pages.py)."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, current_app
from sqlalchemy import select

from ..foundation.settings import settings_of
from ..models import Page
from .db import get_session
from .heavy_pages import verdict


def page_html(page_id: int) -> str:
    """The page's decoded HTML; 404 when there is no such page."""
    html = get_session().scalars(select(Page.html).where(Page.id == page_id)).one_or_none()
    if html is None:
        abort(404)
    return html


def heavy(page_id: int, sha256: str, encoding: str) -> str | None:
    """Why the page is too deep or too large to render (the RENDER_MAX_* settings), or None."""
    return heavy_html((sha256, encoding), lambda: page_html(page_id))


def heavy_html(key: tuple[str, str], html_of: Callable[[], str]) -> str | None:
    """Why the HTML `html_of()` gives (remembered under `key`) is too deep or too large to render, or None."""
    serving = settings_of(current_app).serving
    return verdict(key, html_of, serving.render_max_depth, serving.render_max_bytes)
