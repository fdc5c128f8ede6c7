"""The output scored for a page and an extractor: the extractor's output on the page's raw response (every
page's, and the default) or, on a page whose team chose to score its rendering in Chromium
(`Page.scored_rendering`, usecases/choose_rendering.py), its output on that rendering (`RenderingExtraction`, the
same fingerprint); an extractor with no output on the rendering yet falls back to the raw response's.

Every face that shows or scores an extractor's output for a page reads it here: in SQL, a query over
`Extraction` passed through `with_scored` selects `scored(field)` in place of `Extraction.<field>`; for
extractions by id, `scored_outputs` gives each one's `Output`. What the page showed where its outputs are scored
(its raw response's HTML, or its rendering's) is `scored_html` in a query over `Page` passed through
`with_scored_document`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Select, and_, case, select
from sqlalchemy.orm import Session, aliased

from ..models import RENDERED, Extraction, Page, PageRendering, RenderingExtraction

FIELDS = ("text", "markdown", "error", "accepted", "guard_reason", "duration_ms", "meta")
"""What an extraction and its output on a rendering both have: what `scored` reads of either."""

_PAGE = aliased(Page, name="scored_page")
_RENDERING = aliased(PageRendering, name="scored_rendering")
_CHOSEN = aliased(RenderingExtraction, name="scored_on_rendering")
ON_RENDERING = _CHOSEN.id.is_not(None)
"""True where the scored output is the one on the rendering (in a query passed through `with_scored`)."""

_DOCUMENT = aliased(PageRendering, name="scored_document")
scored_html = case((_DOCUMENT.id.is_not(None), _DOCUMENT.html), else_=Page.html).label("html")
"""The HTML of the page's rendering where the page scores it, else its raw response's (see `with_scored_document`)."""

Q = TypeVar("Q", bound=Select[*tuple[Any, ...]])


def with_scored_document(query: Q) -> Q:
    """The query (over `Page`) outer-joined to the page's rendering where the page scores it: `scored_html`."""
    return query.outerjoin(_DOCUMENT, and_(_DOCUMENT.page_id == Page.id, Page.scored_rendering == RENDERED))


def with_scored(query: Q) -> Q:
    """The query (over `Extraction`) outer-joined to each extraction's output on its page's rendering where the
    page scores its rendering: then `scored(field)` is the scored output's field."""
    return query.outerjoin(_PAGE, and_(_PAGE.id == Extraction.page_id, _PAGE.scored_rendering == RENDERED)).outerjoin(
        _RENDERING, _RENDERING.page_id == _PAGE.id).outerjoin(
        _CHOSEN, and_(_CHOSEN.rendering_id == _RENDERING.id, _CHOSEN.fingerprint == Extraction.fingerprint))


def scored(field: str) -> ColumnElement[Any]:
    """The scored output's `field` (one of FIELDS), labelled with its name, in a query passed through
    `with_scored`."""
    if field not in FIELDS:
        raise ValueError(f"an output has no field {field!r}: {', '.join(FIELDS)}")
    return case((ON_RENDERING, getattr(_CHOSEN, field)), else_=getattr(Extraction, field)).label(field)


@dataclass(frozen=True)
class Output:
    """What an extractor gave for a page, as scored."""

    text: str
    markdown: str
    error: str | None
    accepted: bool
    guard_reason: str | None
    duration_ms: float
    on_rendering: bool
    """Its output on the page's rendering in Chromium (the page scores its rendering)."""


_OUTPUT_FIELDS = [field.name for field in fields(Output) if field.name in FIELDS]


def scored_outputs(session: Session, extraction_ids: Iterable[int]) -> dict[int, Output]:
    """Extraction id -> the output scored for its page and extractor."""
    ids = list(extraction_ids)
    if not ids:
        return {}
    query = with_scored(select(Extraction.id, *(scored(field) for field in _OUTPUT_FIELDS),
                               ON_RENDERING.label("on_rendering"))
                        .select_from(Extraction).where(Extraction.id.in_(ids)))  # the joins' left side
    return {row.id: Output(row.text or "", row.markdown or "", row.error, bool(row.accepted), row.guard_reason,
                           float(row.duration_ms or 0.0), bool(row.on_rendering)) for row in session.execute(query)}
