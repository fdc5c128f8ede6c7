"""A saved page as it was saved: rendered (isolated: nothing of it runs or loads) or as HTML source."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from ..db import get_session
from ..models import Page
from ..web.heavy_pages import flat_document_of
from ..web.page_html import heavy, page_html
from ..web.security import RAW_PAGE_CSP

bp = Blueprint("pages", __name__)


FRAMED = frozenset({"iframe", "frame"})


@bp.get("/pages/<int:page_id>/raw")
def raw(page_id: int) -> BaseResponse:
    """The decoded HTML, for the annotate view's sandboxed frame only.

    A browser says where a response goes (``Sec-Fetch-Dest``): opened in its own tab (``document``) the
    saved page's links would navigate, so that request gets the annotate view instead; an embed, an
    object or a worker gets 403. Only a frame (or a client that sends no fetch metadata) gets the page;
    a page over the RENDER_MAX_* limits gets its flattened rendering (webapp/web/heavy_pages.py)."""
    dest = request.headers.get("Sec-Fetch-Dest")
    if dest == "document":
        return redirect(url_for("annotate.page", page_id=page_id))
    if dest is not None and dest not in FRAMED:
        abort(403, description="A saved page is shown only in the annotate view's sandboxed frame.")
    found = get_session().execute(select(Page.sha256, Page.encoding).where(Page.id == page_id)).one_or_none()
    if found is None:
        abort(404)
    if heavy(page_id, *found):
        body = flat_document_of(tuple(found), lambda: page_html(page_id), f"Page {page_id}, flattened")
    else:
        body = page_html(page_id)
    response = Response(body, mimetype="text/html")
    response.vary.add("Sec-Fetch-Dest")
    response.headers["Content-Security-Policy"] = RAW_PAGE_CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/pages/<int:page_id>/source")
def source(page_id: int) -> str:
    """The HTML source, escaped and line-numbered."""
    return render_template("pages/source.html", page_id=page_id, lines=page_html(page_id).splitlines())
