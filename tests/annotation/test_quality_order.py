"""The queue's second order, "least confident first": rs-trafilatura's predicted quality of its own extraction,
copied onto the page where extractions change, orders each group (no gold, then gold) lowest first, pages without
a prediction last; the queue page offers it, shows the figure, and its next and previous links follow it."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from workbench import EAGER, NO_CONTENT, add_gold, make_page

from webapp.annotation.page_queue import QUALITY, queue_rows, step
from webapp.annotation.predicted_quality import refresh_predicted_quality
from webapp.models import Extraction, Page
from webapp.usecases.run_extraction import refresh_derived

RS = "rs-trafilatura|0.2.2|{}"


def predict(session, page: Page, quality: float | None, fingerprint: str = RS, error: str | None = None) -> None:
    """An rs-trafilatura extraction of the page predicting this quality (none: its metadata has no prediction)."""
    meta = {} if quality is None else {"extraction_quality": quality}
    session.add(Extraction(page_id=page.id, extractor="rs-trafilatura", fingerprint=fingerprint, text="words",
                           meta=meta, error=error, accepted=error is None))
    session.flush()


@pytest.fixture
def pages(session):
    """Five pages: four without gold predicted 0.9, 0.4, none and 0.4; one with gold predicted 0.1."""
    made = {name: make_page(session, url=f"https://q.example/{name}", host="q.example")
            for name in ("sure", "unsure", "unknown", "unsure_too", "done")}
    for name, quality in (("sure", 0.9), ("unsure", 0.4), ("unsure_too", 0.4), ("done", 0.1)):
        predict(session, made[name], quality)
    refresh_predicted_quality(session, [page.id for page in made.values()])
    add_gold(session, made["done"], text="gold", page_type="article", status="done", author="Ann")
    session.commit()
    return {name: page.id for name, page in made.items()}


def test_the_prediction_is_copied_from_the_current_answered_rs_trafilatura_extraction(session):
    page, other, failed = (make_page(session, url=f"https://p.example/{n}", host="p.example") for n in range(3))
    predict(session, page, 0.3, fingerprint="rs-trafilatura|0.1.1|{}")  # an older version: not current
    predict(session, page, 0.7)
    predict(session, other, None)  # the old binding's extraction: no prediction
    predict(session, failed, 0.5, error="rs-trafilatura: panicked")
    refresh_derived(session, [page.id, other.id, failed.id], [RS], EAGER, NO_CONTENT)
    session.commit()
    stored = dict(session.execute(select(Page.id, Page.predicted_quality)).all())
    assert stored == {page.id: 0.7, other.id: None, failed.id: None}
    refresh_predicted_quality(session, [page.id])  # every fingerprint: the latest extraction's
    assert session.scalar(select(Page.predicted_quality).where(Page.id == page.id)) == 0.7


def test_least_confident_first_within_each_group_without_a_prediction_last(session, pages):
    rows = queue_rows(session, order=QUALITY)
    assert [row.page_id for row in rows] == [pages[n] for n in ("unsure", "unsure_too", "sure", "unknown", "done")]
    assert [row.predicted_quality for row in rows] == [0.4, 0.4, 0.9, None, 0.1]
    assert [row.page_id for row in queue_rows(session, order=QUALITY, offset=2, limit=2)] == [
        pages["sure"], pages["unknown"]]


def test_next_and_previous_follow_the_order(session, pages):
    walk, current = [], step(session, pages["done"], 1, order=QUALITY)  # from a page with gold: the head
    while current is not None and current not in walk:
        walk.append(current)
        current = step(session, current, 1, order=QUALITY)
    assert walk == [pages[n] for n in ("unsure", "unsure_too", "sure", "unknown", "done")]
    assert step(session, pages["unknown"], -1, order=QUALITY) == pages["sure"]
    assert step(session, pages["unsure"], -1, order=QUALITY) is None


def test_the_queue_page_offers_the_order_and_its_links_keep_it(client, pages):
    text = client.get("/?order=quality").get_data(as_text=True)
    assert '<option value="quality" selected>least confident first' in text
    positions = [text.index(f"/pages/{pages[name]}?order=quality\"") for name in ("unsure", "sure", "unknown")]
    assert positions == sorted(positions)
    assert "<td>0.40</td>" in text
    response = client.get(f"/queue/step/{pages['unsure_too']}?dir=next&order=quality")
    assert response.location == f"/pages/{pages['sure']}?order=quality"
    default = client.get(f"/queue/step/{pages['unsure_too']}?dir=next&order=anything")  # unknown: the default
    assert default.location.endswith("?order=anything") and default.status_code == 302
