"""A saved page as it was saved: rendered (isolated: nothing of it runs or loads) or as HTML source."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from ..models import RENDERED, Page, PageRendering
from ..usecases.choose_rendering import choose_scored_rendering
from ..usecases.outcome import Refused
from ..web.acting import actor
from ..web.app_settings import settings
from ..web.db import get_session
from ..web.heavy_pages import flat_document_of
from ..web.page_html import heavy_html, page_html
from ..web.page_variants import RAW, Variant, rendered_html, served_requisite, styled, variant_csp
from ..web.refusals import refuse
from ..web.request_input import TEXT, Form, posted
from ..web.security import REQUISITE_CSP

bp = Blueprint("pages", __name__)
RENDERING_FORM = Form({"rendering": TEXT}, {"rendering": ""})
"""Which of the page's captures is scored: its raw response or its rendering."""


FRAMED = frozenset({"iframe", "frame"})


@bp.get("/pages/<int:page_id>/raw")
def raw(page_id: int) -> BaseResponse:
    """The decoded HTML, for the annotate view's sandboxed frame only.

    A browser says where a response goes (``Sec-Fetch-Dest``): opened in its own tab (``document``) the
    saved page's links would navigate, so that request gets the annotate view instead; an embed, an
    object or a worker gets 403. Only a frame (or a client that sends no fetch metadata) gets the page;
    a page over the RENDER_MAX_* limits gets its flattened rendering (webapp/web/heavy_pages.py). A captured
    page's other variants (web/page_variants.py): `?rendering=rendered`, its rendering in Chromium; `styled=1`,
    with its captured stylesheets, fonts and images."""
    dest = request.headers.get("Sec-Fetch-Dest")
    if dest == "document":
        return redirect(url_for("annotate.page", page_id=page_id))
    if dest is not None and dest not in FRAMED:
        abort(403, description="A saved page is shown only in the annotate view's sandboxed frame.")
    variant = Variant.asked()
    found = get_session().execute(select(Page.sha256, Page.encoding, Page.url).where(Page.id == page_id)).one_or_none()
    if found is None:
        abort(404)
    sha256, encoding, url = found
    html = page_html if variant.rendering == RAW else rendered_html
    key = (sha256 if variant.rendering == RAW else f"{sha256}:{RENDERED}", encoding)
    if heavy_html(key, lambda: html(page_id)):
        body = flat_document_of(key, lambda: html(page_id), f"Page {page_id}, flattened")
    else:
        body = styled(lambda: html(page_id), key, page_id, url) if variant.styled else html(page_id)
    response = Response(body, mimetype="text/html")
    response.vary.add("Sec-Fetch-Dest")
    response.headers["Content-Security-Policy"] = variant_csp(variant, page_id)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/pages/<int:page_id>/requisites/<int:requisite_id>")
def requisite(page_id: int, requisite_id: int) -> BaseResponse:
    """A captured stylesheet (its URLs rewritten to captured copies), font or image of the page's styled
    snapshot, for its frame only."""
    if request.headers.get("Sec-Fetch-Dest") not in (None, "style", "image", "font"):
        abort(403, description="A captured stylesheet, font or image is loaded only by its page's styled frame.")
    body, kind = served_requisite(page_id, requisite_id)
    response = Response(body, mimetype=kind)
    response.vary.add("Sec-Fetch-Dest")
    response.headers["Content-Security-Policy"] = REQUISITE_CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@bp.get("/pages/<int:page_id>/screenshot")
def screenshot(page_id: int) -> BaseResponse:
    """The full-page screenshot taken when the page was rendered at capture."""
    png = get_session().scalars(select(PageRendering.screenshot).where(PageRendering.page_id == page_id)).one_or_none()
    if png is None:
        abort(404, description=f"Page {page_id} has no screenshot: it was not captured with --render.")
    response = Response(png, mimetype="image/png")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = REQUISITE_CSP
    return response


@bp.post("/pages/<int:page_id>/scored-rendering")
def choose_scored(page_id: int) -> BaseResponse:
    """Score the page's raw response or its rendering (reviewers and admins; usecases/choose_rendering.py)."""
    session = get_session()
    try:
        choose_scored_rendering(session, settings(), actor(), page_id, posted(RENDERING_FORM)["rendering"])
    except Refused as error:
        refuse(error)
    session.commit()
    return redirect(url_for("annotate.page", page_id=page_id))


@bp.get("/pages/<int:page_id>/source")
def source(page_id: int) -> str:
    """The HTML source, escaped and line-numbered."""
    return render_template("pages/source.html", page_id=page_id, lines=page_html(page_id).splitlines())
