"""A saved page as it was saved: rendered (isolated: nothing of it runs or loads) or as HTML source."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template
from sqlalchemy import select

from ..db import get_session
from ..models import Page
from ..web.security import RAW_PAGE_CSP

bp = Blueprint("pages", __name__)


def _html(page_id: int) -> str:
    html = get_session().scalars(select(Page.html).where(Page.id == page_id)).one_or_none()
    if html is None:
        abort(404)
    return html


@bp.get("/pages/<int:page_id>/raw")
def raw(page_id: int) -> Response:
    """The decoded HTML, for the annotate view's sandboxed frame only."""
    response = Response(_html(page_id), mimetype="text/html")
    response.headers["Content-Security-Policy"] = RAW_PAGE_CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/pages/<int:page_id>/source")
def source(page_id: int) -> str:
    """The HTML source, escaped and line-numbered."""
    return render_template("pages/source.html", page_id=page_id, lines=_html(page_id).splitlines())
