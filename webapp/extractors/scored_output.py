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

from sqlalchemy import ColumnElement, Select, and_, case, inspect, select
from sqlalchemy.orm import Session, aliased

from ..models import RENDERED, Extraction, Page, PageRendering, RenderingExtraction

FIELDS = ("text", "markdown", "error", "accepted", "guard_reason", "duration_ms", "meta")
"""What an extraction and its output on a rendering both have: what `scored` reads of either."""

E = TypeVar("E")


def shared_alias(entity: type[E], name: str) -> type[E]:
    """An alias of the entity whose columns' SQL is made now, at import, before the threads of a web process
    share it: SQLAlchemy makes an aliased attribute's SQL on its first use, and threads making it at once could
    leave one of them the table's own column in place of the alias's (warning "Did not locate an expression in
    selectable"): the query then named `page.scored_rendering` where it meant `scored_page.scored_rendering`,
    and every page view of that web process failed with "no such column" until it restarted."""
    alias = aliased(entity, name=name)
    for attribute in inspect(entity).column_attrs.keys():
        getattr(alias, attribute).__clause_element__()
    return alias


_PAGE = shared_alias(Page, "scored_page")
_RENDERING = shared_alias(PageRendering, "scored_rendering")
_CHOSEN = shared_alias(RenderingExtraction, "scored_on_rendering")
ON_RENDERING = _CHOSEN.id.is_not(None)
"""True where the scored output is the one on the rendering (in a query passed through `with_scored`)."""

_DOCUMENT = shared_alias(PageRendering, "scored_document")
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
