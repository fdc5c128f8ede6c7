"""Which pages a view, a figure or an export covers: one filter type for the queue, the leaderboard and
exports, with one meaning per field wherever it is used."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Protocol

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.orm import Session

from ..extractors.scored_output import scored, with_scored
from ..foundation.vocabulary import TODO
from ..models import Annotation, Extraction, Gold, GoldCheck, ImportBatch, Page, Site
from .annotations import VOID

VERDICTS = ("accepted", "rejected")
ANY_CHECK = "any"
ANYONE = "*"
"""`types_seen_by` for a reviewer: any annotation's page type counts."""


class Row(Protocol):
    """What an in-memory row must say of its page to be filtered (see results.cache.CachedRow)."""

    @property
    def site(self) -> str: ...
    @property
    def page_type(self) -> str: ...
    @property
    def batch(self) -> int: ...
    @property
    def author(self) -> str: ...


@dataclass(frozen=True)
class PageFilter:
    """Empty fields restrict nothing; each field given must hold (they combine with AND, the values of
    one field with OR).

    - ``sites``: the page's site host;
    - ``page_types``: the gold's page type; with ``types_seen_by``, a page without gold (before
      adjudication) whose annotation by that person (``ANYONE``: by anyone), voided ones aside, has one of
      them is admitted too (an annotator sees her own annotations' types, a reviewer everyone's);
    - ``statuses``: the queue status: ``todo`` (no gold yet) or the gold's status;
    - ``batches``: the import batch id;
    - ``authors``: the gold's author, who saved its current text (its last save);
    - ``verdict``: ``rejected`` when some extraction of the page failed the accept guard, ``accepted``
      when none did;
    - ``url_contains``: a part of the page's URL (case as typed);
    - ``with_gold`` / ``with_snippets``: only pages with gold / with snippet gold;
    - ``adjudicated``: only pages whose gold was adjudicated from independent annotations (by a reviewer
      or automatically): pages with gold and two annotations or more, voided ones not counted (see
      annotation/annotations.py);
    - ``checks``: pages that failed one of these checks of the gold when the checks last ran on them
      (``any``: one of them; see scoring/gold_checks.py);
    - ``annotated_by``: pages with an annotation (not voided) by one of these annotators.
    """

    sites: tuple[str, ...] = ()
    page_types: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    batches: tuple[int, ...] = ()
    authors: tuple[str, ...] = ()
    verdict: str | None = None
    url_contains: str | None = None
    with_gold: bool = False
    with_snippets: bool = False
    adjudicated: bool = False
    checks: tuple[str, ...] = ()
    types_seen_by: str | None = None
    annotated_by: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        return self == PageFilter()

    def given(self) -> dict[str, Any]:
        """The fields that restrict something, by name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}

    def check_scored(self) -> PageFilter:
        """This filter, if rows of scored gold (done, by definition) can answer it: sites, page_types,
        batches, authors. ValueError naming any other field given, rather than ignoring it."""
        unanswerable = set(self.given()) - {"sites", "page_types", "batches", "authors", "with_gold"}
        if unanswerable:
            raise ValueError(f"scored pages cannot be filtered by {', '.join(sorted(unanswerable))}")
        return self

    def admits(self, row: Row) -> bool:
        """In memory, for a row of scored gold (see ``check_scored``)."""
        return (
            (not self.sites or row.site in self.sites)
            and (not self.page_types or row.page_type in self.page_types)
            and (not self.batches or row.batch in self.batches)
            and (not self.authors or row.author in self.authors)
        )

    def where(self, query: Select) -> Select:
        """The query narrowed to the admitted pages; it selects from Page, with Gold (outer-)joined on
        ``Gold.page_id == Page.id`` whenever a gold field is given."""
        if self.sites:
            query = query.where(Page.site_id.in_(select(Site.id).where(Site.host.in_(self.sites))))
        if self.batches:
            query = query.where(Page.batch_id.in_(self.batches))
        if self.statuses:
            statuses = [s for s in self.statuses if s != TODO]
            condition = Gold.status.in_(statuses)
            query = query.where(condition | Gold.page_id.is_(None) if TODO in self.statuses else condition)
        if self.page_types:
            typed: ColumnElement[bool] = Gold.page_type.in_(self.page_types)
            if self.types_seen_by is not None:
                seen = select(Annotation.page_id).where(Annotation.page_type.in_(self.page_types),
                                                        Annotation.status != VOID)
                if self.types_seen_by != ANYONE:
                    seen = seen.where(Annotation.author == self.types_seen_by)
                typed = typed | (Gold.page_id.is_(None) & Page.id.in_(seen))
            query = query.where(typed)
        if self.authors:
            query = query.where(Gold.author.in_(self.authors))
        if self.verdict:
            rejected = with_scored(select(Extraction.id).where(  # the verdicts on the outputs scored
                Extraction.page_id == Page.id, scored("error").is_(None), scored("accepted").is_(False)
            )).exists()
            query = query.where(rejected if self.verdict == "rejected" else ~rejected)
        if self.url_contains:
            query = query.where(Page.url.contains(self.url_contains, autoescape=True))
        if self.with_gold:
            query = query.where(Gold.page_id.is_not(None))
        if self.with_snippets:
            query = query.where(Gold.snippets.is_not(None))
        if self.adjudicated:
            annotations = (select(func.count(Annotation.id))
                           .where(Annotation.page_id == Page.id, Annotation.status != VOID).scalar_subquery())
            query = query.where(Gold.page_id.is_not(None), annotations > 1)
        if self.annotated_by:
            query = query.where(Page.id.in_(select(Annotation.page_id).where(
                Annotation.author.in_(self.annotated_by), Annotation.status != VOID)))
        if self.checks:
            failed = select(GoldCheck.page_id)
            if ANY_CHECK not in self.checks:
                failed = failed.where(GoldCheck.name.in_(self.checks))
            query = query.where(Page.id.in_(failed))
        return query


def filter_choices(session: Session) -> dict[str, list]:
    """The values the filters offer: sites, import batches and authors."""
    return {
        "sites": list(session.scalars(select(Site.host).order_by(Site.host))),
        "batches": list(session.scalars(select(ImportBatch.id).order_by(ImportBatch.id))),
        "authors": list(session.scalars(select(Gold.author).distinct().order_by(Gold.author))),
    }
