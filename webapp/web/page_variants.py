"""The variants of a captured page the annotate view's frame shows: the raw response (what is scored) or its
rendering in Chromium, each plain (nothing of it loads: RAW_PAGE_CSP) or styled (its captured stylesheets,
fonts and images, served from this page's requisites route only: `styled_page_csp`).

A styled variant is the page rewritten to name only its captured requisites (capture/styled_html.py); a
captured stylesheet is served with its URLs rewritten the same way (capture/css_references.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort, request, url_for
from sqlalchemy import and_, select

from ..capture.css_references import rewritten_stylesheet
from ..capture.styled_html import styled_document
from ..foundation.kept import Kept
from ..models import RENDERED, Extraction, Page, PageRendering, PageRequisite, RenderingExtraction
from .db import get_session
from .request_input import FLAG, Form, one_of, query
from .security import RAW_PAGE_CSP, styled_page_csp

RAW = "raw"
VARIANT_QUERY = Form({"rendering": one_of(RAW, RENDERED), "styled": FLAG}, {"rendering": RAW})
"""Which capture of a page is shown (its raw response or its rendering), and whether with its styles."""


@dataclass(frozen=True)
class Variant:
    rendering: str  # RAW or RENDERED
    styled: bool

    @classmethod
    def asked(cls) -> Variant:
        """The variant the request's query string asks for (`rendering=rendered`, `styled=1`)."""
        asked = query(VARIANT_QUERY)
        return cls(asked["rendering"], asked["styled"])


def rendered_html(page_id: int) -> str:
    """The page's rendering in Chromium; 404 when it has none."""
    html = get_session().scalars(select(PageRendering.html).where(PageRendering.page_id == page_id)).one_or_none()
    if html is None:
        abort(404, description=f"Page {page_id} has no rendering: it was not captured with --render.")
    return html


def requisite_paths(page_id: int) -> dict[str, str]:
    """Each captured requisite's URL -> the path the frame loads it from."""
    rows = get_session().execute(select(PageRequisite.id, PageRequisite.url).where(PageRequisite.page_id == page_id))
    return {url: url_for("pages.requisite", page_id=page_id, requisite_id=rid) for rid, url in rows}


def requisites_prefix(page_id: int) -> str:
    """The absolute URL under which a page's requisites are served (the styled frame's only source)."""
    path = url_for("pages.requisite", page_id=page_id, requisite_id=0)
    return request.host_url.rstrip("/") + path.rsplit("/", 1)[0] + "/"


def captured_variants(page_id: int) -> dict[str, bool]:
    """What the annotate view may switch to: a rendering, a styled snapshot, a screenshot."""
    session = get_session()
    shot = session.execute(select(PageRendering.id, PageRendering.screenshot.is_not(None))
                           .where(PageRendering.page_id == page_id)).one_or_none()
    styles = session.scalar(select(PageRequisite.id).where(PageRequisite.page_id == page_id).limit(1))
    return {"rendering": shot is not None, "screenshot": bool(shot and shot[1]), "styled": styles is not None}


STYLED_KEPT = 16
_styled: Kept[str] = Kept(STYLED_KEPT)
"""The styled documents last served: a page's HTML and its requisites never change once it is imported."""


def styled(html_of: Callable[[], str], key: tuple[str, str], page_id: int, page_url: str | None) -> str:
    """The page (its HTML `html_of()`, kept under `key`: its sha256 and rendering) naming only its requisites."""
    paths = requisite_paths
    return _styled.get((*key, page_id), lambda: styled_document(html_of(), page_url or "", paths(page_id).get))


def variant_csp(variant: Variant, page_id: int) -> str:
    return styled_page_csp(requisites_prefix(page_id)) if variant.styled else RAW_PAGE_CSP


def served_requisite(page_id: int, requisite_id: int) -> tuple[bytes, str]:
    """The requisite's body and media type: a stylesheet rewritten to name only captured copies."""
    found = get_session().execute(
        select(PageRequisite.url, PageRequisite.content_type, PageRequisite.data)
        .where(PageRequisite.id == requisite_id, PageRequisite.page_id == page_id)).one_or_none()
    if found is None:
        abort(404)
    url, content_type, data = found
    kind = content_type.split(";")[0].strip().lower()
    if kind == "text/css":
        charset = next((p.split("=", 1)[1].strip(' "') for p in content_type.split(";")[1:]
                        if p.strip().lower().startswith("charset=")), "utf-8")
        try:
            css = data.decode(charset, errors="replace")
        except LookupError:
            css = data.decode("utf-8", errors="replace")
        paths = requisite_paths(page_id)
        return rewritten_stylesheet(css, url, paths.get).encode(), "text/css; charset=utf-8"
    if kind.startswith(("image/", "font/")):
        return data, kind
    return data, "application/octet-stream"



ON_RENDERING = " on the rendering"
"""What a candidate tab of an extractor's output on the page's rendering adds to the extractor's name."""
ON_RAW = " on the raw response"
"""... and one of its output on the raw response, where the page scores its rendering."""


def other_candidates(page_id: int) -> list[dict[str, Any]]:
    """The extractors' outputs that are not scored for the page, as the annotate view's candidates (after the
    scored ones, to take text from; never scored): their outputs on the page's rendering in Chromium, or, where
    the team chose to score the rendering (usecases/choose_rendering.py), their outputs on the raw response."""
    session = get_session()
    if session.scalar(select(Page.scored_rendering).where(Page.id == page_id)) == RENDERED:
        raw: Any = select(Extraction).join(PageRendering, PageRendering.page_id == Extraction.page_id).join(
            RenderingExtraction, and_(RenderingExtraction.rendering_id == PageRendering.id,
                                      RenderingExtraction.fingerprint == Extraction.fingerprint))
        rows, suffix = session.scalars(raw.where(Extraction.page_id == page_id).order_by(Extraction.extractor)), ON_RAW
    else:
        rows, suffix = session.scalars(
            select(RenderingExtraction).join(PageRendering, PageRendering.id == RenderingExtraction.rendering_id)
            .where(PageRendering.page_id == page_id).order_by(RenderingExtraction.extractor)), ON_RENDERING
    return [{"name": row.extractor + suffix, "fingerprint": row.fingerprint, "text": row.text,
             "accepted": row.accepted, "guard_reason": row.guard_reason, "duration_ms": round(row.duration_ms, 1),
             "error": row.error, "incomplete": False, "saved_scores": {}} for row in rows]
