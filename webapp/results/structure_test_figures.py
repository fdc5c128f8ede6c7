"""The structure tests of pages' Markdown gold, listed and run against extractions' Markdown: what
``goldtext structure-tests`` exports as JSON Lines and ``GET /api/pages/ID/structure-tests`` answers.

The tests are generated afresh from the gold (``scoring/structure_tests.py``); the structure-tests metric's
cached counts hold the same outcomes for its figures. A page's candidates are the newest extraction of each
extractor (of those named, or all), an errored one failing every test.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..extractors.scored_output import scored, with_scored
from ..foundation.vocabulary import DONE
from ..models import Extraction, Gold, Page
from ..scoring.structure_tests import StructureTest, generate, run


def scored_pages(session: Session, no_content: Collection[str]) -> list[int]:
    """The pages whose done gold has Markdown and a type with main content (those the metric scores)."""
    return list(session.scalars(
        select(Gold.page_id).where(Gold.status == DONE, Gold.markdown != "",
                                   Gold.page_type.not_in(sorted(no_content))).order_by(Gold.page_id)))


def newest_markdown(session: Session, page_id: int, extractors: Sequence[str] | None) -> dict[str, str | None]:
    """Each extractor's newest extraction of the page as Markdown (None when it errored), by name: the output
    scored (extractors/scored_output.py)."""
    query = with_scored(select(Extraction.extractor, scored("markdown"), scored("error")).where(
        Extraction.page_id == page_id)).order_by(Extraction.id)
    if extractors is not None:
        query = query.where(Extraction.extractor.in_(extractors))
    return {name: None if error is not None else markdown for name, markdown, error in session.execute(query)}


def page_tests(session: Session, page: Page, extractors: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The page's tests, each with whether each extractor's newest extraction passes it (``passed``); no
    tests for a page without gold or without Markdown gold."""
    gold = page.gold.markdown if page.gold is not None else ""
    tests = generate(gold) if gold else []
    outcomes: dict[str, list[tuple[StructureTest, bool]]] = {
        name: run(tests, markdown) for name, markdown in sorted(newest_markdown(session, page.id, extractors).items())}
    return [{"page_id": page.id, "url": page.url, **test.as_json(),
             "passed": {name: results[i][1] for name, results in outcomes.items()}}
            for i, test in enumerate(tests)]


def tests_of_pages(session: Session, page_ids: Sequence[int],
                   extractors: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
    """Every test of these pages, page by page (unknown ids skipped)."""
    for page_id in page_ids:
        page = session.get(Page, page_id)
        if page is not None:
            yield from page_tests(session, page, extractors)
